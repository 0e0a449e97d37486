"""Ordered lists that start past one keep their numbers: `<ol start="4">` reads 4., 5., ...

trafilatura numbers every ordered list from one and keeps no attribute of an `<ol>` but its kind,
so the steps of a how-to whose list a code listing splits (`<ol start="2">` after each listing)
all read "1." (round 26's aikido.dev). Step numbers are what a reader, and an agent, refer to,
so the source's start numbers are read before extraction, keyed by the words their first item
opens with, and the extracted list that opens with the same words is numbered from there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree
from lxml.html import HtmlElement

# Enough of an item's words to tell one list from another; trafilatura may trim its end.
_KEY_WORDS = 12
_TOP_LEVEL_NUMBER = re.compile(r"^(\d+)\. ", re.MULTILINE)


def list_starts(tree: HtmlElement) -> dict[str, int]:
    """The start number of every ordered list in TREE that does not start at one, by the words
    its first item opens with."""
    starts: dict[str, int] = {}
    for ol in tree.iter("ol"):
        start, first = start_number(ol), next(ol.iter("li"), None)
        if start > 1 and first is not None:
            key = _key(first.itertext())
            if key:
                starts.setdefault(key, start)
    return starts


def start_number(ol: HtmlElement) -> int:
    """The number the ordered list OL starts at: its `start`, where that is a number, else 1."""
    start = (ol.get("start") or "").strip()
    # isdecimal, not isdigit: "²" is a digit that int() cannot read; and a list numbered past a
    # billion is a page's mistake (int() refuses a number of thousands of digits).
    return int(start) if start.isdecimal() and len(start) <= 9 else 1


def renumber(block: etree._Element, markdown: str, starts: dict[str, int]) -> str:
    """MARKDOWN of the extracted BLOCK with its items numbered from where the source's list
    starts, if BLOCK is an ordered list that STARTS knows."""
    if block.tag != "list" or block.get("rend") != "ol" or not starts:
        return markdown
    first = next(block.iter("item"), None)
    offset = starts.get(_key(first.itertext()), 1) - 1 if first is not None else 0
    if not offset:
        return markdown
    return _TOP_LEVEL_NUMBER.sub(lambda m: f"{int(m.group(1)) + offset}. ", markdown)


def _key(texts: Iterable[str]) -> str:
    return " ".join(" ".join(texts).split()[:_KEY_WORDS])
