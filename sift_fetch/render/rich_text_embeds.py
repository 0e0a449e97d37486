"""Text a post's author set in an embed block of the rich text, kept (Webflow's `w-embed`).

Webflow's editor puts whatever its rich text cannot hold, a styled table, a list with its own
markup, into a custom-code block, `<div class="w-embed">` inside `<div class="w-richtext">`.
trafilatura drops every block whose class names an embed, as a share or social widget, and with
it the table of a security post's findings (round 26's endorlabs.com). Inside the rich text the
block is the author's, so its class is taken off where it holds text: a block that embeds a
player or a post holds none, or is read as such (embedded_posts.py).
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

_EMBEDS = etree.XPath(
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' w-richtext ')]"
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' w-embed ')]"
)


def keep_rich_text_embeds(tree: HtmlElement, html: str) -> None:
    """Take the embed class off every custom-code block in the rich text that holds words, on a
    page whose source (HTML) has one."""
    if "w-embed" not in html:
        return  # the XPath visits every element; few pages are built with Webflow
    for block in _EMBEDS(tree):
        if block.text_content().split():
            classes = (block.get("class") or "").split()
            block.set("class", " ".join(c for c in classes if c != "w-embed"))
