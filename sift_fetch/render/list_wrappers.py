"""A short list's own wrapper taken away before extraction, so that a link in the list does not
cost the list.

In precision mode trafilatura deletes a short `<div>` that holds a link, whatever the link's
share of its text (its link-density "backtracking": under 100 characters, or 300 for its
parent's last element, and under 200 in all), and with it the list inside: a recipe's
ingredients, a few names linked to a shop, in the `<div>` that groups them under "PB Filling:".
The list alone passes its own link-density test, which weighs the links against the text. So
a `<div>` holding nothing but such a list, and perhaps the heading above it, is unwrapped: its
list and heading move up into its parent. A list of links (a menu, a breadcrumb trail: half its
words or more are link text) keeps its wrapper and is judged as before, as is a list of one or
two items.
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.text import word_count
from sift_fetch.render.tree import loose_text

MIN_ITEMS = 3
# Link text under this share of the list's words: ingredients with shop links (11 of 29 words),
# not a breadcrumb trail whose every item but the page's own title is a link.
MAX_LINK_SHARE = 0.5
_HEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
# Lists of MIN_ITEMS items or more that hold a link, last in a div of at most two elements:
# found in C (from the lists, fewer than the divs), so that Python reads only these.
_CANDIDATES = etree.XPath(
    f"(//ul|//ol)[not(following-sibling::*)][parent::div[count(*) <= 2]][li[{MIN_ITEMS}]][.//a]"
)


def unwrap_short_lists(tree: HtmlElement) -> None:
    """Unwrap each div that holds only a list of prose items (and a heading above it)."""
    for items in _CANDIDATES(tree):
        div = items.getparent()
        previous = items.getprevious()
        if previous is not None and previous.tag not in _HEADINGS:
            continue
        if div.getparent() is None or loose_text(div):
            continue
        linked = sum(word_count(anchor.text_content()) for anchor in items.iter("a"))
        if linked < MAX_LINK_SHARE * word_count(items.text_content()):
            div.drop_tag()
