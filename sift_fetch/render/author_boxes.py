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

import re

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.text import word_count
from sift_fetch.render.tree import inside

BIO_MIN_WORDS = 15
BIO_MAX_WORDS = 200
# A listing page marks each teaser's byline (68 on one tuning page); past this many marks the page
# is no article with a box, and a hostile nest of them would cost a walk up from each.
MAX_MARKED = 100
# In the page's source: an itemprop naming the author among its tokens (~0.1 ms a tuning page,
# case-sensitive as microdata's names are, so that the search runs from the literal). The XPath
# runs on the one page in eight that has the mark; it starts from the itemprop attributes, as
# a test of every element costs ten times as much in libxml2.
_MARK = re.compile(r"""itemprop\s*=\s*["']?(?:[\w-]+\s+)*author\b""")
_MARKED = etree.XPath("//@itemprop[contains(concat(' ', normalize-space(.), ' '), ' author ')]/..")


def drop_author_boxes(tree: HtmlElement, html: str) -> None:
    """Take out every element microdata marks as the author that holds a biography, on a page
    whose source (HTML) has the mark."""
    if not _MARK.search(html):
        return
    marked = _MARKED(tree)
    if len(marked) > MAX_MARKED:
        return
    for box in marked:  # in document order: a box comes before the marks inside it
        if not inside(box, tree) or box.xpath(".//*[@itemprop='articleBody']"):
            continue  # taken out with an outer box already, or the article itself
        if BIO_MIN_WORDS <= word_count(box.text_content()) <= BIO_MAX_WORDS:
            box.drop_tree()
