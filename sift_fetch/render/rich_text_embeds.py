"""Text an article's author set in an embed block, kept: Webflow's `w-embed`, quote embeds.

Webflow's editor puts whatever its rich text cannot hold, a styled table, a list with its own
markup, into a custom-code block, `<div class="w-embed">` inside `<div class="w-richtext">`.
trafilatura drops every block whose class names an embed, as a share or social widget, and with
it the table of a security post's findings (round 26's endorlabs.com). Inside the rich text the
block is the author's, so its class is taken off where it holds text: a block that embeds a
player or a post holds none, or is read as such (embedded_posts.py).

Condé Nast's sites set a passage the article quotes from another outlet as a quote embed,
`<blockquote class="blockquote-embed">` around `<div class="blockquote-embed__content">` and its
paragraphs; trafilatura dropped the inner block by its class, and a Vanity Fair column built on
such quotes lost a third of its text (round 40). A quote whose paragraphs hold prose is the
article's, so the embed classes inside it are taken off.
"""

from __future__ import annotations

from collections.abc import Callable

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.text import word_count

# A quote embed's paragraph this long is prose; a post's caption or a player's label is shorter.
QUOTE_MIN_WORDS = 12
_EMBEDS = etree.XPath(
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' w-richtext ')]"
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' w-embed ')]"
)


def keep_rich_text_embeds(tree: HtmlElement, html: str) -> None:
    """Take the embed class off every custom-code block in the rich text that holds words, and
    off the blocks of every quote embed that holds prose, on a page whose source (HTML) has
    one."""
    # The XPath visits every element; few pages are built with Webflow.
    for block in _EMBEDS(tree) if "w-embed" in html else ():
        if block.text_content().split():
            _unmark(block, lambda name: name == "w-embed")
    if "embed" not in html or "<blockquote" not in html:
        return
    for quote in tree.iter("blockquote"):
        if "embed" in (quote.get("class") or "") and any(
            word_count(p.text_content()) >= QUOTE_MIN_WORDS for p in quote.iter("p")
        ):
            for block in quote.iter():
                _unmark(block, lambda name: "embed" in name)


def _unmark(block: HtmlElement, embed: Callable[[str], bool]) -> None:
    """Take the class names EMBED says name an embed off BLOCK."""
    classes = (block.get("class") or "").split()
    if any(embed(name) for name in classes):
        block.set("class", " ".join(name for name in classes if not embed(name)))
