"""`grep`: keep the lines of the rendered text that match a regular expression.

Patterns are compiled with RE2 (google-re2): matching is linear in the input, so no pattern can
backtrack catastrophically; the price is that backreferences and lookaround are refused, with a
message saying RE2 syntax is required. Matching is case-sensitive unless the pattern says `(?i)`.
Each kept line is prefixed with its 1-based line number (`12: text`); a very long line (minified
code, a one-line JSON) is shown as a window around the first match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import re2

from sift_fetch.errors import BadRequest

LINE_WINDOW = 400  # characters shown around the match on an over-long line
_MAX_MEM = 64 << 20  # RE2's DFA budget; bigger patterns fail to compile instead of eating memory


@dataclass(frozen=True)
class GrepResult:
    content: str
    lines: list[int]  # 1-based line numbers of the hits shown
    cut: bool  # stopped at the character budget


def compile_pattern(pattern: str) -> Any:  # google-re2 exports no public pattern type
    options = re2.Options()
    options.log_errors = False  # RE2 would print every rejected pattern to stderr
    options.max_mem = _MAX_MEM
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else "invalid pattern"
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise BadRequest(
            f"grep pattern is not valid RE2 syntax ({reason}); RE2 syntax is required: "
            "no backreferences or lookaround, use (?i) for case-insensitive matching"
        ) from None


def _shown(line: str, start: int, end: int) -> str:
    if len(line) <= LINE_WINDOW:
        return line
    half = max(0, (LINE_WINDOW - (end - start)) // 2)
    left, right = max(0, start - half), min(len(line), end + half)
    return ("…" if left else "") + line[left:right] + ("…" if right < len(line) else "")


def grep(text: str, pattern: str, budget: int) -> GrepResult:
    regex = compile_pattern(pattern)
    out: list[str] = []
    hits: list[int] = []
    size = 0
    for number, line in enumerate(text.split("\n"), start=1):
        match = regex.search(line)
        if match is None:
            continue
        if size >= budget:
            return GrepResult("\n".join(out), hits, cut=True)
        shown = f"{number}: {_shown(line, match.start(), match.end())}"
        out.append(shown)
        hits.append(number)
        size += len(shown) + 1
    return GrepResult("\n".join(out), hits, cut=False)
