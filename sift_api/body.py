"""Request bodies: the one place JSON is read, so every route refuses the same hostile bodies
with a 400 naming the problem (never a 500): not JSON, nested too deeply for the decoder, or
holding text no encoder takes (`\\ud800` escapes decode to lone surrogates, which could be
neither stored, nor logged, nor echoed in an error)."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from sift_fetch.errors import BadRequest
from sift_fetch.target import text_problem


async def read_json(request: Request) -> Any:
    try:
        body = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadRequest(f"body is not valid JSON: {exc}") from None
    except RecursionError:
        raise BadRequest("body is nested too deeply") from None
    _check_text(body)
    return body


def _check_text(body: Any) -> None:
    """Every string in BODY, keys included, is valid text; else 400 naming where it is."""
    stack: list[tuple[Any, str]] = [(body, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            problem = text_problem(value)
            if problem is not None:
                raise BadRequest(f"field {where} {problem}" if where else f"body {problem}")
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{i}]") for i, item in enumerate(value))
        elif isinstance(value, dict):
            for key, item in value.items():
                if text_problem(key) is not None:
                    inside = f" in {where}" if where else ""
                    raise BadRequest(f"a field name{inside} is not valid Unicode")
                stack.append((item, f"{where}.{key}" if where else key))
