"""`<div>`s that a page names as paragraphs read as paragraphs, before clean mode's extraction.

In precision mode trafilatura reads a `<div>` as text only where the page's `<p>` text is short.
CNN writes a story's paragraphs as `<div class="zn-body__paragraph">` (the first one a `<p>` in
such a div, each subheading an `<h3>` in one): trafilatura's first pass over the body found only
the subheadings, dropped them as trailing titles and marked them read, and its next pass
returned the story without its eleven subheadings. Where every `<div>` whose class names it a
paragraph (a class token ending in "paragraph") holds inline content only, a single `<p>` or a
single heading, those with inline content become `<p>`s and those with a heading give way to
it. If one holds anything else (a tutorial's paragraph with a `<pre>` in it), the page stays as
it is: with `<p>`s around it, trafilatura dropped that one.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.tree import holds_block

# Cheap tests first: the word in the page's source (a C search), then the XPath over its divs.
_MARKS = ("paragraph", "Paragraph")
_NAMED = etree.XPath("//div[contains(@class, 'aragraph')]")
_TOKEN = re.compile(r"(?:^|[\s_-])paragraph(?:\s|$)", re.I)
_HEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6"})


def read_paragraph_divs(tree: HtmlElement, html: str) -> None:
    """Make the divs named as paragraphs paragraphs, if every one of them can be."""
    if not any(mark in html for mark in _MARKS):
        return
    named = [div for div in _NAMED(tree) if _TOKEN.search(div.get("class") or "")]
    kinds = [_kind(div) for div in named]
    if not named or None in kinds:
        return
    for div, kind in zip(named, kinds, strict=True):
        if kind == "inline":
            div.tag = "p"
        elif kind == "heading":
            div.drop_tag()


def _kind(div: HtmlElement) -> str | None:
    """'inline', 'heading' (a lone heading), 'wrapped' (a lone `<p>`), or None (other blocks)."""
    if not holds_block(div):
        return "inline"
    if len(div) != 1 or (div.text or "").strip() or (div[0].tail or "").strip():
        return None
    if div[0].tag in _HEADINGS:
        return "heading"
    return "wrapped" if div[0].tag == "p" else None
