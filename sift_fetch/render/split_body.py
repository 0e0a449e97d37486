"""An article body split into several containers is joined into its first one before extraction.

trafilatura looks for the article's container with a list of XPath expressions (`BODY_XPATH`:
`articleBody`, `article__body`, `post-content`, ...) and takes the first element the first of
them finds. Some sites cut the body into sibling containers of one class, an advertisement or
a promotion between each two (a Condé Nast story is three `<div class="body__container
article__body">`): trafilatura then returns the first part and drops the rest of the article.
Here the later containers with the first one's tag and class, found by the same expression or
set beside the first in its wrapper (the expression takes one match of each parent), give
their children to the first, so that trafilatura reads the whole article in one container;
a heading set right before a later part, outside it, is that part's subheading and comes along.
A container inside an entry of its own, one the first is not in, is another story's: a blog's
related posts are cards, each an `<article>` with an excerpt in the body's own class, and a
Blogger page in Dynamic Views shows the post beside the blog's stream of posts, each a `<div
class="article hentry">` (hAtom's mark for one entry).

Only the first expression can find more than one container (the others take the first match in
the page), and only where one of the classes it looks for repeats, or where microdata marks more
than one container as the body (a CNBC story is four `<div class="group"
itemprop="articleBody">`, a class no pattern names); counting those first spares its regular
expressions (~0.6 ms a page) on nearly every page.
"""

from __future__ import annotations

import re
from collections import Counter

from lxml.html import HtmlElement
from trafilatura.xpaths import BODY_XPATH

from sift_fetch.render.tree import inside

_CONTAINERS = ("article", "div", "main", "section")
_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
# The classes the first expression of BODY_XPATH looks for (trafilatura 2.3's
# _ARTICLE_CONTENT_CLASS_TOKENS, and the classes 'post' and 'entry' exactly).
_BODY_CLASS = re.compile(
    r"post[-_]text|post-body|post-?entry|post[-_]?content|postContent|post_inner_wrapper"
    r"|article-?text|articleText|(?:entry|page|text|article|art)-content|article__content"
    r"|article(?:-|__)?body|articleBody|ArticleContent|body-text|article__container|^post$|^entry$"
)


def join_split_body(tree: HtmlElement) -> None:
    """Move into the article container trafilatura will choose the content of the containers
    of its kind (same tag and class) that follow it outside it."""
    containers = list(tree.iter(_CONTAINERS))
    classes = Counter(el.get("class") for el in containers)
    declared = sum(el.get("itemprop") == "articleBody" for el in containers)
    if declared < 2 and not any(
        n > 1 and _BODY_CLASS.search(name) for name, n in classes.items() if name
    ):
        return
    found = BODY_XPATH[0](tree)
    if not found:
        return
    first = found[0]
    kind = (first.tag, first.get("class"))
    story = _story(first)
    # The expression takes the first match of each parent, so parts that are siblings of the
    # first (one wrapper, a side rail between them) are looked for beside it.
    for later in [*first.itersiblings(first.tag), *found[1:]]:
        if (later.tag, later.get("class")) != kind or inside(later, first):
            continue
        if _story(later) is not story:
            continue  # another story's card, not a part of this body
        if (later.text or "").strip():
            continue  # text of its own, outside any child, would have nowhere to go
        first.extend([*_headings_before(later), *later])


def _headings_before(part: HtmlElement) -> list[HtmlElement]:
    """The headings right before PART, outside it: its subheading, set in the wrapper."""
    headings: list[HtmlElement] = []
    el = part.getprevious()
    while el is not None and el.tag in _HEADINGS and not (el.tail or "").strip():
        headings.insert(0, el)
        el = el.getprevious()
    return headings


def _story(element: HtmlElement) -> HtmlElement | None:
    """The nearest entry around ELEMENT (itself included), if any: an `<article>` or an hAtom
    `hentry`."""
    for el in (element, *element.iterancestors()):
        if el.tag == "article" or "hentry" in (el.get("class") or "").split():
            return el
    return None
