"""`pages: "1-3,7"`: which pages of a PDF the agent wants.

A spec is a comma-separated list of 1-based pages (`7`), closed ranges (`1-3`) and open ranges
(`10-`, "from 10 to the last page"). Spaces around numbers, dashes and commas are allowed.
`validate_pages` is the cheap syntax check the request validator runs before any fetch;
`parse_pages` resolves a spec against the document's page count once the PDF is open.

Pages past the end of the document are dropped (an agent asking for `1-10` of an 8-page PDF
gets 8 pages); a spec that selects no existing page at all is an error naming the page count.
"""

from __future__ import annotations

import re

from sift_fetch.errors import BadRequest

MAX_SELECTED = 1000  # pages one request may select
MAX_PAGE = 100_000  # no real PDF has more; bigger numbers are typos or probes

# ASCII digits only (\d would accept other scripts' digits); 9 digits bound int() on hostile input.
_ITEM = re.compile(r"([0-9]{1,9})(?:\s*(-)\s*([0-9]{1,9})?)?")

Interval = tuple[int, int | None]  # (first, last); last None = open range


def _fail(detail: str) -> BadRequest:
    return BadRequest(f"pages: {detail}", hint="fix_request")


def _syntax(detail: str) -> BadRequest:
    return _fail(f'{detail}; expected pages and ranges like "1-3,7" or "10-"')


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "…"


def _number(text: str) -> int:
    value = int(text)
    if value == 0:
        raise _fail("page numbers start at 1")
    if value > MAX_PAGE:
        raise _fail(f"page {value} is beyond the largest supported page number {MAX_PAGE}")
    return value


def _intervals(spec: str) -> list[Interval]:
    if not spec.strip():
        raise _syntax("empty selection")
    intervals: list[Interval] = []
    for raw in spec.split(","):
        item = raw.strip()
        if not item:
            raise _syntax("empty item between commas")
        match = _ITEM.fullmatch(item)
        if match is None:
            raise _syntax(f"{_short(item)!r} is not a page or a range")
        first = _number(match.group(1))
        if match.group(2) is None:
            intervals.append((first, first))
        elif match.group(3) is None:
            intervals.append((first, None))
        else:
            last = _number(match.group(3))
            if last < first:
                raise _fail(f"range {_short(item)!r} runs backwards")
            intervals.append((first, last))
    return intervals


def _merged(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for first, last in sorted(intervals):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def _check_count(closed: list[tuple[int, int]]) -> None:
    # Count on merged intervals: "1-600,1-600" selects 600 pages, not 1200, and a
    # range like "1-100000" is refused without ever building the list.
    count = sum(last - first + 1 for first, last in _merged(closed))
    if count > MAX_SELECTED:
        raise _fail(f"selects {count} pages; at most {MAX_SELECTED} per request")


def validate_pages(spec: str) -> None:
    """Syntax and size check without knowing the document (open ranges count one page)."""
    intervals = _intervals(spec)
    _check_count([(first, first if last is None else last) for first, last in intervals])


def parse_pages(spec: str, max_page: int | None = None) -> list[int]:
    """The selected 1-based pages, sorted and deduplicated, clipped to `max_page` if given."""
    intervals = _intervals(spec)
    if max_page is None:
        if any(last is None for _, last in intervals):
            raise _fail("an open range like '5-' needs the document's page count")
        closed = [(first, last) for first, last in intervals if last is not None]
    else:
        closed = [
            (first, min(max_page if last is None else last, max_page))
            for first, last in intervals
            if first <= max_page
        ]
        if not closed:
            noun = "page" if max_page == 1 else "pages"
            raise _fail(f"selects no page of this document, which has {max_page} {noun}")
    _check_count(closed)
    return [page for first, last in _merged(closed) for page in range(first, last + 1)]
