"""Captions whose class names them with a capital, taken out of the tree before extraction.

With images left out, as clean mode leaves them, trafilatura drops a `div`, `p`, `section` or
`span` whose class or id contains "caption". XPath's `contains` is case-sensitive, so
`imageCaption` (VOA, the Daily Mail), `photoCaption` or `Caption` stayed, and a long caption
above the story read as its first paragraph (round 24's voanews.com: P 0.83). The same test with
the case folded; the pages that write "caption" in lower case trafilatura handles already.
Table cells are not among the blocks trafilatura tests, so a picture's caption set in the cell
under it (Blogger's `td.tr-caption`, in every Blogger post with a captioned picture) stayed as a
table row; a cell classed "caption" goes too. A short block whose class or id says "credit"
(`p.photo_credit`, `div.image-credit`), which trafilatura keeps, is a picture's credit or a
caption set in the credit's box, and goes too.

A table's own `<caption>` names the table that is there, and stays, but as a line above it:
trafilatura wrote it as the table's first row, a header over the real header row.
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.text import word_count

# In the page's source first: the XPath folds the case of every element's class and id, and
# most pages name no caption with a capital.
_MARKS = ("Caption", "CAPTION")


def _named(word: str, tags: tuple[str, ...]) -> etree.XPath:
    """The TAGS elements whose class or id holds WORD, in any case. From the attributes up: a
    test of every element's tag costs up to three times as much in libxml2."""
    named = f"contains(translate(., '{word.upper()}', '{word}'), '{word}')"
    kinds = " or ".join(f"self::{tag}" for tag in tags)
    return etree.XPath(f"(//@class | //@id)[{named}]/parent::*[{kinds}]")


_CAPTIONS = _named("caption", ("div", "p", "section", "span"))
_CAPTION_CELLS = etree.XPath("//td[contains(@class, 'caption')]")
_CREDITS = _named("credit", ("div", "p", "span", "small"))
# Longer, a block named so is more than a credit (a story about credit cards, in its class).
CREDIT_MAX_WORDS = 50


def drop_captions(tree: HtmlElement, html: str) -> None:
    """Take out every element named a caption in any case, on a page whose source (HTML)
    names one with a capital, every table cell classed a caption, and every short block named a
    credit."""
    if any(mark in html for mark in _MARKS):
        for caption in _CAPTIONS(tree):
            caption.drop_tree()
    if "caption" in html:
        for cell in _CAPTION_CELLS(tree):
            cell.drop_tree()
    if "redit" in html:
        for credit in _CREDITS(tree):
            if word_count(credit.text_content()) <= CREDIT_MAX_WORDS:
                credit.drop_tree()


def lift_table_captions(tree: HtmlElement) -> None:
    """Set each table's `<caption>` as a paragraph above the table."""
    for caption in list(tree.iter("caption")):
        table = caption.getparent()
        if table is None or table.tag != "table":
            continue
        text = " ".join(caption.text_content().split())
        caption.drop_tree()
        if text:
            paragraph = table.makeelement("p", {})
            paragraph.text = text
            table.addprevious(paragraph)
