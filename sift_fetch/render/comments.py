"""Readers' comments taken out of the tree before extraction.

trafilatura drops a comment section by its class or id when the name starts with "comment"
(`comments`, `comment-list`, `commentlist`). Sites name theirs otherwise, `in_article_forums`
(The Register), `visitors_comment_block` (Accountancy Age), and the readers' posts came back as
the article's last paragraphs, often outweighing it (precision 0.34 to 0.55 on three pages). The
word "comment" in a name is no sign alone: a forum thread's posts, a live match's commentary and a
gallery's notes on each picture use it too. What marks the readers' section is its title: a
container whose class or id names comments, a forum or a discussion, and whose text opens with
"Comments", "7 Comments", "Reader comments", "Responses" or the like, goes, unless it holds the
article (an `<article>` or the marked body inside it, or half the page's words).
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.text import word_count
from sift_fetch.render.tree import inside

# A union of the tags, then the names: half the cost of testing every element's tag in the
# predicate (0.2 against 0.45 ms on bench/pages), in document order as well. Each name is read
# once for the three words (two-thirds of the cost of six tests of @class and @id).
_NAMED = etree.XPath(
    "(//div|//section|//aside|//ol|//ul)"
    "[(@class | @id)[contains(., 'omment') or contains(., 'orum') or contains(., 'iscussion')]]"
)
_TITLE = re.compile(
    r"\s*(?:\d+\s+)?(?:(?:reader|visitor|user)s?'?\s+)?(?:comments?|responses?|replies)\b", re.I
)
# A title is the section's first words: only this much of its text is read.
_TITLE_CHARS = 80
_HOLDS_ARTICLE = etree.XPath(".//article | .//*[@itemprop='articleBody']")
# Past this share of the page's words a container is the page, whatever it is named.
MAX_PAGE_SHARE = 0.5


def drop_comment_sections(tree: HtmlElement) -> None:
    """Take out every container named for comments whose text opens with a comments title."""
    page_words = 0
    for section in _NAMED(tree):
        if not inside(section, tree) or not _TITLE.match(_opening(section)):
            continue
        page_words = page_words or word_count(tree.text_content())
        if _HOLDS_ARTICLE(section) or word_count(section.text_content()) >= (
            MAX_PAGE_SHARE * page_words
        ):
            continue
        section.drop_tree()


def _opening(element: HtmlElement) -> str:
    """The first _TITLE_CHARS characters of ELEMENT's text, without building all of it."""
    text = ""
    for piece in element.itertext():
        text += " " + piece  # a heading's text ends where the next element's begins
        if len(text) >= _TITLE_CHARS:
            break
    return text[:_TITLE_CHARS]
