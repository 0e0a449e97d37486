"""Captions whose class names them with a capital, taken out of the tree before extraction.

With images left out, as clean mode leaves them, trafilatura drops a `div`, `p`, `section` or
`span` whose class or id contains "caption". XPath's `contains` is case-sensitive, so
`imageCaption` (VOA, the Daily Mail), `photoCaption` or `Caption` stayed, and a long caption
above the story read as its first paragraph (round 24's voanews.com: P 0.83). The same test with
the case folded; the pages that write "caption" in lower case trafilatura handles already.
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

# In the page's source first: the XPath folds the case of every element's class and id, and
# most pages name no caption with a capital.
_MARKS = ("Caption", "CAPTION")
_CAPTIONS = etree.XPath(
    "//*[self::div or self::p or self::section or self::span]"
    "[contains(translate(@class, 'CAPTION', 'caption'), 'caption')"
    " or contains(translate(@id, 'CAPTION', 'caption'), 'caption')]"
)


def drop_captions(tree: HtmlElement, html: str) -> None:
    """Take out every element named a caption in any case, on a page whose source (HTML)
    names one with a capital."""
    if not any(mark in html for mark in _MARKS):
        return
    for caption in _CAPTIONS(tree):
        caption.drop_tree()
