"""Blocks a page marks as asides by their ARIA role are dropped, as `<aside>`s are.

trafilatura drops `<aside>` elements but reads a `<section role="complementary">`, the same
landmark written with a role: an NYT story's card carousel of other stories on its topic and its
"More on ..." box, set between the story's paragraphs, came back as the story's. Only a
`<section>`: a `<div role="complementary">` is a theme's sidebar column, and broken markup can
leave the rest of the story nested in it (a caymancompass.com story lost all but its first
paragraph). A section that holds a heading of the first rank, an `<article>` or a `<main>` is
the page's content whatever its role says, and stays.
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

_CONTENT = ("h1", "article", "main")
_ASIDES = etree.XPath("//section[@role='complementary']")


def drop_role_asides(tree: HtmlElement, html: str) -> None:
    """Drop the `<section>`s whose role is `complementary` that hold no main content."""
    if "complementary" not in html:
        return
    for el in _ASIDES(tree):
        if el.getparent() is not None and next(el.iter(_CONTENT), None) is None:
            el.drop_tree()
