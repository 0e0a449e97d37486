"""One target: the URL plus what the agent wants from it (the `/v1/fetch` field set).

`parse_target` is the single validator for `/v1/fetch` bodies and for every batch target,
so both reject the same things with the same messages.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from sift_fetch.errors import BadRequest
from sift_fetch.pages import validate_pages

Mode = Literal["clean", "full", "raw"]
MODES: tuple[Mode, ...] = ("clean", "full", "raw")

MAX_URL_CHARS = 4096
MAX_PROGRAM_CHARS = 2048  # a grep pattern, a jq program or a question

# C0 control characters and DEL. No URL holds one (a NUL would also be refused by PostgreSQL
# wherever the URL is stored); a program or a question may hold tab, newline and return only.
_CONTROLS = frozenset(map(chr, [*range(0x20), 0x7F]))
_PROGRAM_CONTROLS = _CONTROLS - {"\t", "\n", "\r"}


@dataclass(frozen=True, slots=True)
class Target:
    url: str
    mode: Mode = "clean"
    question: str | None = None
    pages: str | None = None
    grep: str | None = None
    jq: str | None = None
    context: bool = False
    recover: bool = False

    def options(self) -> dict[str, Any]:
        """Everything but the URL, for cache keys and batch rows."""
        # Every field is a plain value, so no deep copy (`asdict`): this runs on every fetch.
        return {name: getattr(self, name) for name in FIELDS[1:]}

    def options_json(self) -> str:
        return json.dumps(self.options(), sort_keys=True, separators=(",", ":"))


_STRING_FIELDS = ("question", "pages", "grep", "jq")
_BOOL_FIELDS = ("context", "recover")
FIELDS = ("url", "mode", *_STRING_FIELDS, *_BOOL_FIELDS)


def text_problem(value: str) -> str | None:
    """Why VALUE is not text that can be stored, logged or sent (None: it is). JSON's
    `\\ud800` escapes decode to lone surrogates, which no UTF-8 encoder takes."""
    if value.isascii():
        return None
    try:
        value.encode()
    except UnicodeEncodeError:
        return "is not valid Unicode (it holds a lone surrogate)"
    return None


def _check_text(value: str, name: str, controls: frozenset[str]) -> None:
    problem = text_problem(value)
    if problem is None and not controls.isdisjoint(value):
        problem = "must not contain control characters"
    if problem is not None:
        raise BadRequest(f"field {name} {problem}")


def parse_target(body: Any, *, where: str = "") -> Target:
    """Validate one decoded JSON object into a Target; `where` prefixes field names in errors."""
    if not isinstance(body, dict):
        raise BadRequest(f"{where.rstrip('.') or 'body'} must be a JSON object")
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        name = unknown[0] if text_problem(unknown[0]) is None else "(a name that is not Unicode)"
        raise BadRequest(f"unknown field {where}{name}")
    url = body.get("url")
    if not isinstance(url, str) or not url.strip():
        raise BadRequest(f"field {where}url must be a non-empty string")
    if len(url) > MAX_URL_CHARS:
        raise BadRequest(f"field {where}url is longer than {MAX_URL_CHARS} characters")
    url = url.strip()
    _check_text(url, f"{where}url", _CONTROLS)
    mode = body.get("mode", "clean")
    if mode not in MODES:
        raise BadRequest(f"field {where}mode must be one of {', '.join(MODES)}")
    values: dict[str, Any] = {}
    for name in _STRING_FIELDS:
        value = body.get(name)
        if value is None:
            continue
        if not isinstance(value, str) or not value:
            raise BadRequest(f"field {where}{name} must be a non-empty string")
        if len(value) > MAX_PROGRAM_CHARS:
            raise BadRequest(f"field {where}{name} is longer than {MAX_PROGRAM_CHARS} characters")
        _check_text(value, f"{where}{name}", _PROGRAM_CONTROLS)
        values[name] = value
    if "pages" in values:
        try:
            validate_pages(values["pages"])
        except BadRequest as exc:
            raise BadRequest(f"{where}{exc.detail}") from None
    for name in _BOOL_FIELDS:
        value = body.get(name, False)
        if not isinstance(value, bool):
            raise BadRequest(f"field {where}{name} must be true or false")
        values[name] = value
    return Target(url=url, mode=mode, **values)
