"""An author's box (name, photo, biography) taken out of the tree before clean mode's extraction.

trafilatura drops blocks whose class or id names an author, but not those that only schema.org's
microdata marks: WordPress's Simple Author Box writes `<div class="saboxplugin-wrap"
itemprop="author" itemscope itemtype="http://schema.org/Person">` after the post, and the
biography in it came back as the article's last paragraph ("Jossi Loibl (born 1962) has written
about wine for 25 years ..."). An element marked as the author that holds BIO_MIN_WORDS words or
more is such a box. A shorter one is a byline, left to the rules that read it in its place
(taking it out of the tree changes what trafilatura reads around it: a recipe's "Make with"
line came in). One that holds the article (`itemprop="articleBody"`, or more words than a
biography runs to) is a page that marks its whole story as the author's, and stays.
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.text import word_count

BIO_MIN_WORDS = 15
BIO_MAX_WORDS = 200
_MARKED = "contains(concat(' ', normalize-space(@itemprop), ' '), ' author ')"
_BOXES = etree.XPath(f"//*[{_MARKED}][not(ancestor::*[{_MARKED}])]")


def drop_author_boxes(tree: HtmlElement) -> None:
    """Take out every element microdata marks as the author that holds a biography."""
    for box in _BOXES(tree):
        if box.getparent() is None or box.xpath(".//*[@itemprop='articleBody']"):
            continue
        if BIO_MIN_WORDS <= word_count(box.text_content()) <= BIO_MAX_WORDS:
            box.drop_tree()
