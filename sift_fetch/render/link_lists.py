"""Lists whose every item is largely a link to another page of the site, taken out of the tree
before extraction.

A list of two or more items, each a third or more the text of links to other pages of the same
site, is a list of that site's other pages: "More Great WIRED Stories", a tutorial's "other
tutorials", the in-body "A SIMPLE GUIDE: How do I protect myself?" links of a news story, an
author box's latest posts. trafilatura kept such lists when they sat in the article's
container. A paragraph that is only a bold label and a link to another page of the site
("**RIVALS:** [Knicks raise heat on Nets with counter]") is such a link set in the body, and
goes too. A list whose items say more than their links, links within the page (a table of
contents), or links to other sites (sources, a deals post's offers, a link roundup) stays, as
does a long list.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.text import word_count

# A link roundup or a deals post is a long list of links, and is the article.
MAX_ITEMS = 10
# Share of an item's words that are link text: "A SIMPLE GUIDE: [How do I protect myself?]",
# "What Atlanta can teach tech about [cultivating black talent]" are links with a label or a
# lead-in; "[Brandywine], a large pink beefsteak that splits in rain" says more than its link.
LINK_SHARE = 0.3
# Where a host's second-to-last label is a suffix of its country's (co.uk, com.au, or.jp).
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "gov", "ac", "edu", "or", "ne", "go"})
# Lists of two to MAX_ITEMS items, nothing but items, each holding a link, outside the page's
# <nav>, <header> and <footer> (trafilatura drops those itself): found in C, so that Python reads
# the text of these few lists only.
_CANDIDATES = etree.XPath(
    "(//ul|//ol)[li[2]][not(li[not(.//a[@href])])][not(*[not(self::li)])]"
    "[not(ancestor::nav or ancestor::header or ancestor::footer)]"
)

# A paragraph of a bold label and a link, nothing else between or around them but spaces.
_LABELLED = etree.XPath(
    "//p[count(*)=2][*[1][self::b or self::strong]][*[2][self::a[@href]]]"
    "[not(normalize-space(text()))]"
)
LABEL_MAX_WORDS = 4


def drop_link_lists(tree: HtmlElement, url: str) -> None:
    """Take out every list whose items are all largely links to other pages of URL's site, and
    every paragraph that is a label and such a link."""
    lists = [found for found in _CANDIDATES(tree) if len(found) <= MAX_ITEMS]
    labelled = _LABELLED(tree)
    if not (lists or labelled):
        return
    site = page_site(url)
    for found in lists:
        # all() stops at the first item that is text, as most lists' first item is.
        if all(own_links(item, site) for item in found):
            found.drop_tree()  # keeps the tail text
    for paragraph in labelled:
        label, link = paragraph.findall("*")  # elements only, not comments
        if _labelled_link(label, link) and site_of(link.get("href") or "", site) == site:
            paragraph.drop_tree()


def _labelled_link(label: HtmlElement, link: HtmlElement) -> bool:
    """A short label ending in a colon, then a link and nothing after it."""
    text = label.text_content().strip()
    return (
        text.endswith(":")
        and word_count(text) <= LABEL_MAX_WORDS
        and not (label.tail or "").strip()
        and not (link.tail or "").strip()
        and word_count(link.text_content()) >= 2
    )


def own_links(el: HtmlElement, site: str) -> bool:
    """Whether EL is largely links (LINK_SHARE of its words), all to other pages of SITE."""
    hrefs = _item_links(el)
    return bool(hrefs) and all(site_of(href, site) == site for href in hrefs)


def _item_links(item: HtmlElement) -> list[str]:
    """The targets of ITEM's links off the page when they hold LINK_SHARE of its words, else
    none."""
    hrefs, linked = [], 0
    for anchor in item.iter("a"):
        href = (anchor.get("href") or "").strip()
        if href and not href.startswith("#") and not href.lower().startswith("javascript:"):
            hrefs.append(href)
            linked += word_count(anchor.text_content())
    if not linked or linked < LINK_SHARE * word_count(item.text_content()):
        return []
    return hrefs


def page_site(url: str) -> str:
    """The site a page's URL is on, as `site_of` names it."""
    return _site(urlsplit(url).hostname or "")


def site_of(href: str, site: str) -> str:
    """The site HREF leads to; a relative link stays on SITE."""
    if "//" not in href[:8]:
        return site
    return _site(urlsplit(href).hostname or "")


@lru_cache(maxsize=256)
def _site(host: str) -> str:
    """The label that names a site: "bbc" for www.bbc.co.uk and bbc.com alike."""
    labels = host.split(".")
    if len(labels) >= 3 and (labels[-2] in _SECOND_LEVEL or len(labels[-2]) <= 2):
        return labels[-3]
    return labels[-2] if len(labels) >= 2 else labels[0]
