"""JSON: pretty-printed, or sliced by a real jq program (the `jq` package, libjq inside).

Output of a jq program: a single result is pretty-printed (indent 2), like `jq`; several results
are one compact JSON value per line, like `jq -c`, so grep can pick lines and an agent can count
them. Results are pulled from jq's iterator one by one and serialisation stops at the character
budget, so `repeat(1)` or `range(1e9)` end as truncated output instead of filling memory.
A program that never yields (`def f: f; f`) or builds one gigantic value (`[range(1e10)]`) is
stopped by the render pool's time and memory limits, not here.

Programs are untrusted, so they run inside a wrapper that hides the worker's environment
(`$ENV`, `env`) and keeps `debug`/`stderr` from writing to the worker's stderr; module
directives (`import`, `include`) would read files from disk and are refused.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

import jq

from sift_fetch.errors import BadRequest, Unsupported
from sift_fetch.render.model import Body

_PRELUDE = "def env: {}; def debug: .; def debug(msg): .; def stderr: .; {} as $ENV | ("
_MODULE_DIRECTIVE = re.compile(r"\s*(?:import|include)\b")  # jq only allows them first


def _compile(program: str) -> Any:
    if _MODULE_DIRECTIVE.match(program):
        raise BadRequest("jq modules (import/include) are not allowed")
    try:
        # Compiled bare first so a syntax error quotes the agent's program, not the wrapper.
        jq.compile(program)
        # The newline keeps a trailing `# comment` in the program from eating the ")".
        return jq.compile(f"{_PRELUDE}{program}\n)")
    except ValueError as exc:
        raise BadRequest(f"jq program does not compile: {_jq_message(exc)}") from None


def _jq_message(exc: Exception) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip() and "compile error" not in line]
    return " ".join(" ".join(lines).split())[:500]


def _chunks(values: Iterable[Any], pretty: bool) -> Iterator[str]:
    encoder = (
        json.JSONEncoder(indent=2, ensure_ascii=False)
        if pretty
        else json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
    )
    for value in values:
        yield from encoder.iterencode(value)
        yield "\n"


def _collect(chunks: Iterator[str], budget: int) -> tuple[str, bool]:
    out: list[str] = []
    size = 0
    for chunk in chunks:
        out.append(chunk)
        size += len(chunk)
        if size > budget:
            return "".join(out), True
    return "".join(out).rstrip("\n"), False


def _results(program: Any, text: str) -> Iterator[Any]:
    """jq's outputs, one at a time; errors name whether the program or the body is at fault."""
    try:
        yield from program.input_text(text)
    except ValueError as exc:
        try:
            json.loads(text)
        except ValueError:
            raise Unsupported("the body is not valid JSON, so jq cannot run", hint=None) from None
        except RecursionError:
            raise Unsupported("the JSON is nested too deeply", hint=None) from None
        raise BadRequest(f"jq error: {_jq_message(exc)}") from None


def run_jq(program_text: str, text: str, budget: int) -> Body:
    program = _compile(program_text)
    results = _results(program, text)
    head = list(itertools.islice(results, 2))  # one result is pretty-printed, several are not
    try:
        content, cut = _collect(_chunks(itertools.chain(head, results), len(head) == 1), budget)
    except RecursionError:
        raise BadRequest("jq output is nested too deeply to print") from None
    return Body(text=content, cut=cut)


def render_json(text: str, mode: str, budget: int) -> Body:
    """Without jq: pretty-printed JSON; `raw` (or a body that is not one JSON value) as is."""
    if mode == "raw":
        return Body(text=text)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return Body(text=text)  # NDJSON, JSON with a typo: still readable as text
    content, cut = _collect(_chunks([value], pretty=True), budget)
    return Body(text=content, cut=cut)
