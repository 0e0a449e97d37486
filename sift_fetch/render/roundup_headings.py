"""A link roundup's item headings kept: each names, and links to, what its paragraph comments on.

A curated newsletter's issue (cron.weekly, iOS Dev Weekly) writes each item as a heading that is
wholly a link to another site, then a paragraph of the editor's comment. trafilatura's precision
mode drops a heading that is all link text, so the issue came back as comments without their
subjects (round 37's ma.ttias.be, round 35's newsletter: R 0.82, 0.69). Where MIN_ITEMS or more
such headings share a parent, each followed by a paragraph of a sentence or more that is not cut
short (a teaser's excerpt is, `teasers.py`), their links are unwrapped and the words stay. A
heading linking within the site is another page's title, and is left to the other rules.
"""

from __future__ import annotations

from collections import defaultdict

from lxml.html import HtmlElement

from sift_fetch.render.link_lists import page_site, site_of
from sift_fetch.render.teasers import cut_short
from sift_fetch.render.text import word_count

MIN_ITEMS = 3
COMMENT_MIN_WORDS = 12


def keep_roundup_headings(tree: HtmlElement, url: str) -> None:
    """Unwrap the links of a roundup's item headings that link off the site of URL."""
    home = page_site(url)
    items: defaultdict[HtmlElement, list[HtmlElement]] = defaultdict(list)
    for heading in tree.iter("h2", "h3", "h4"):
        link = _whole_link(heading)
        if link is None or site_of(link.get("href") or "", home) == home:
            continue
        comment, parent = heading.getnext(), heading.getparent()
        if comment is None or parent is None or comment.tag != "p":
            continue
        if word_count(comment.text_content()) >= COMMENT_MIN_WORDS and not cut_short(comment):
            items[parent].append(link)
    for links in items.values():
        if len(links) >= MIN_ITEMS:
            for link in links:
                link.drop_tag()


def _whole_link(heading: HtmlElement) -> HtmlElement | None:
    """The heading's one link, when its text is all of the heading's."""
    links = list(heading.iter("a"))
    if len(links) != 1:
        return None
    words = heading.text_content().split()
    return links[0] if words and links[0].text_content().split() == words else None
