"""Section headings and lists that trafilatura's fallback leaves out, written back.

Where trafilatura finds no container it knows for the article (a post whose paragraphs sit
straight in `<body>` or in a plain `<div>`), it gathers the page's paragraphs, quotes, code and
tables one by one, and in precision mode neither headings nor lists are among what it gathers:
a post's sections come back run together, their headings gone (danluu.com's archive of an
article, round 39), and a post that is a list loses it (pixelmonkey.org's list of the news
stories on a funding round). A heading or a list of the page that the extraction lacks, between
two blocks of one parent that the extraction kept one after the other, is the article's, and is
written back between them. Only an extraction without any heading is searched for headings, and
one without any list for lists: trafilatura's own path keeps both.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lxml.html import HtmlElement

from sift_fetch.render.link_lists import own_links, page_site
from sift_fetch.render.list_starts import start_number
from sift_fetch.render.text import split_blocks, words

_SECTION_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
# What may stand between a heading or a list and the text around it, and what that text is.
_BETWEEN = frozenset({"br", "hr", "img", "picture", "figure", "a"})
_GATHERED = frozenset({"p", "blockquote", "pre", "table"})
_CLOSING_QUOTES = "\"'\u201d\u2019\u00bb"
_HEADING = re.compile(r"^#", re.M)
_LIST_LINE = re.compile(r"^(?:[-*+] |\d+\. )", re.M)
# A list of one-word items is a set of labels (product codes, a licence's terms), not text.
LIST_ITEM_MIN_WORDS = 2
# A block to write back (as Markdown), and the two kept blocks it sits between.
Candidate = tuple[str, HtmlElement, HtmlElement]


def restore_fallback_blocks(tree: HtmlElement, markdown: str, url: str) -> str:
    """MARKDOWN, extracted from TREE (the page at URL), with the headings and lists it dropped
    between two of its blocks written back."""
    home = page_site(url)
    candidates: list[Candidate] = []
    if not _HEADING.search(markdown):
        candidates += _missing_headings(tree, markdown, home)
    if not _LIST_LINE.search(markdown):
        candidates += _missing_lists(tree, markdown, home)
    if not candidates:
        return markdown
    blocks = split_blocks(markdown)
    index = {tuple(words(block)): i for i, block in enumerate(blocks)}
    restored: dict[int, str] = {}
    for text, before, after in candidates:
        at = index.get(tuple(words(after.text_content())))
        if (
            at is not None
            and at not in restored
            and index.get(tuple(words(before.text_content()))) == at - 1
        ):
            restored[at] = text
    if not restored:
        return markdown
    return "\n\n".join(
        part for i, block in enumerate(blocks) for part in (restored.get(i), block) if part
    )


def _missing_headings(tree: HtmlElement, markdown: str, home: str) -> Iterator[Candidate]:
    """The section headings of TREE that MARKDOWN lacks and that sit between two blocks."""
    for heading in tree.iter(*_SECTION_HEADINGS):
        # The cheap test first: most headings of a page are not between two paragraphs.
        if not (around := _between_blocks(heading)):
            continue
        text = " ".join(heading.text_content().split())
        if text not in markdown and _section_title(text) and not own_links(heading, home):
            yield "#" * int(str(heading.tag)[1]) + " " + text, *around


def _missing_lists(tree: HtmlElement, markdown: str, home: str) -> Iterator[Candidate]:
    """The flat lists of TREE that MARKDOWN lacks and that sit between two blocks."""
    for lst in tree.iter("ul", "ol"):
        if not (around := _between_blocks(lst)):
            continue
        items = [" ".join(item.text_content().split()) for item in lst.iterchildren("li")]
        items = [item for item in items if item]
        if not items or items[0] in markdown:
            continue
        if (
            sum(len(words(item)) for item in items) < LIST_ITEM_MIN_WORDS * len(items)
            or next(lst.iterdescendants("ul", "ol"), None) is not None  # a nested list
            or own_links(lst, home)
        ):
            continue
        if lst.tag == "ol":
            first = start_number(lst)
            marks = [f"{number}." for number in range(first, first + len(items))]
        else:
            marks = ["-"] * len(items)
        yield "\n".join(f"{mark} {item}" for mark, item in zip(marks, items, strict=True)), *around


def _section_title(text: str) -> bool:
    """Whether TEXT reads as a section's title: not a drop cap's letter, nor a sentence set
    large between paragraphs (a pull quote: "Unlike Hitler and Nixon, Trump didn't write his
    own book.")."""
    return len(text) > 1 and not text.rstrip(_CLOSING_QUOTES).endswith(".")


def _between_blocks(el: HtmlElement) -> tuple[HtmlElement, HtmlElement] | None:
    """The blocks EL sits between, if blocks of the kind trafilatura's fallback gathers."""
    before = _neighbour(el.itersiblings(preceding=True))
    if before is None or (after := _neighbour(el.itersiblings())) is None:
        return None
    return before, after


def _neighbour(siblings: Iterator[HtmlElement]) -> HtmlElement | None:
    """The first of SIBLINGS with words, past breaks, rules and pictures, if it is a block of
    the kind trafilatura's fallback gathers (a paragraph, a quote, code, a table)."""
    for sibling in siblings:
        if not isinstance(sibling.tag, str) or sibling.tag in _BETWEEN:
            continue  # a comment, or what sits between a heading and its text
        if sibling.tag not in _GATHERED:
            return None
        if words(sibling.text_content()):
            return sibling
    return None
