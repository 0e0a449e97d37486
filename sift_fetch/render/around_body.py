"""What trafilatura took around the article that is not the article's: after its last long
paragraph, from outside the article's element or in short lines of another template; before
its first, a deck set apart from its paragraphs.

trafilatura takes the article from the first container its XPath expressions find, and some
sites' containers hold more than the article: a credit card's offer box and a newsletter's
"Sign-up Successful!" after a travel story, a press release's contact box, a "further topics"
panel. Inside the container the article's paragraphs still sit together in one element of
their own (`div.article-body-content`), and what follows them sits outside it.

So: the article's body is the nearest element above the last long paragraph (LONG_WORDS words
or more) that holds BODY_SHARE of the words of the last LONGS_READ long paragraphs. After that
paragraph, from the first block whose source lies outside the body, every block goes: the
source is in document order, so nothing after that block is in the body either. Blocks are
found in the source by their line (lxml keeps each element's `sourceline`, and trafilatura's
result keeps it for the elements it reuses) and their text; a block that cannot be found is
neither evidence nor exception. Guards: the body needs MIN_LONG long paragraphs, and what
would go may not outweigh what stays (a recipe's steps after its introduction, a gift guide's
items after its lead).

Inside the body, a site's own lines close many articles: "Source: dpa", "Was this article
helpful?", a comment count's heading, a picture credit. The article's paragraphs share a
template (their tag and class, and their parent's), and such a line has another; so, from the
end back, short paragraphs and headings (TAIL_MAX_WORDS at most) whose source is of no long
paragraph's template go, up to the first block that is the article's, longer, of another kind
(a list, a code block) or not found; MIN_LONG long paragraphs must be found for their
templates to count.

Above the article, many pages set a deck: a sentence or two that sums the story up ("Microsoft
will invest US$1 billion ... to speed up carbon removal"), in an element of its own between the
headline and the body. It is the page's summary, not its article (an article's body, as the
schema.org and Zyte article schemas define it, leaves the description out, and context carries
the page's description), and an agent reading the article reads it twice. A paragraph or
heading before the first long paragraph goes when its source is of no long paragraph's
template and the only one of its template there (a recipe's steps above its notes share one
and stay), if it sits under another parent than theirs or its class names it a deck
("standfirst", "dek", "article_excerpt"): a first paragraph set in a class of its own among
the rest, as BBC and ABC set theirs, stays.
"""

from __future__ import annotations

import re
from collections import Counter

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.text import word_count, words_at_most
from sift_fetch.render.tree import inside

LONG_WORDS = 30
MIN_LONG = 2
# The body is placed by the article's last long paragraphs; the article's start (a disclosure,
# a standfirst in a box of its own) does not move it, and the rest is not read.
LONGS_READ = 5
BODY_SHARE = 0.67
# The dropped part's words at most this share of the kept part's.
MAX_DROPPED_SHARE = 1.0
# A block that closes the extraction, from an element of another template than the article's
# long paragraphs, goes up to this length: a source line, a comment count's heading, "Was
# this article helpful?". Longer, it may be the article's last word set apart.
TAIL_MAX_WORDS = 15
# A deck is a sentence or two; a shorter block above the article is a label (a kicker, a
# recipe's "for the muffins").
DECK_MIN_WORDS = 6
# The names sites give a deck in their markup, as a class token or its last part
# ("article_excerpt", "mainContent__teaser").
_DECK_CLASS = re.compile(
    r"(?:^|[\s_-])(?:abstract|deck|dek|excerpt|standfirst|subtitle|summary|teaser)(?:$|\s)", re.I
)
# The source elements an extracted block can come from, by line; an index of every element
# would cost more than all the rest of this.
_BLOCK_TAGS = ("p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "dd", "dt")
# A block's text, when it is not exactly its source's, is found by its beginning.
_HEAD_CHARS = 60


def drop_around_body(body: etree._Element, tree: HtmlElement) -> None:
    """Drop from BODY (trafilatura's result for TREE) what follows the article outside it, the
    short blocks that close it in another template than its paragraphs, and its deck."""
    blocks = list(body)
    longs = _long_paragraphs(blocks)
    if len(longs) < MIN_LONG:
        return
    sources = _Sources(tree)
    found = [sources.find(blocks[i], text) for i, text in longs]
    last = found[-1]
    # Only the last long paragraphs' words are counted: whether one is long costs less to ask.
    weighed = [
        (source, word_count(text))
        for source, (_, text) in zip(found[-LONGS_READ:], longs[-LONGS_READ:], strict=True)
    ]
    article = None if last is None else _article_body(last, weighed)
    if article is not None and longs[-1][0] < len(blocks) - 1:
        _drop_outside(body, blocks, longs[-1][0], article, sources)
    placed = [source for source in found if source is not None]
    if len(placed) >= MIN_LONG:
        templates = {_template(source) for source in placed}
        _drop_foreign_tail(body, sources, templates)
        _drop_deck(body, blocks[: longs[0][0]], templates, placed, sources)


def _drop_outside(
    body: etree._Element,
    blocks: list[etree._Element],
    last_long: int,
    article: HtmlElement,
    sources: _Sources,
) -> None:
    """From the first block after LAST_LONG whose source lies outside ARTICLE, every block goes,
    unless that outweighs what stays."""
    for i in range(last_long + 1, len(blocks)):
        source = sources.find(blocks[i], _text(blocks[i]))
        if source is None or inside(source, article):
            continue
        counts = [word_count(_text(block)) for block in blocks]
        if sum(counts[i:]) <= MAX_DROPPED_SHARE * sum(counts[:i]):
            for block in blocks[i:]:
                body.remove(block)
        return


def _drop_foreign_tail(
    body: etree._Element, sources: _Sources, templates: set[tuple[str, ...]]
) -> None:
    """Drop the short paragraphs and headings that end BODY and whose source is of none of
    TEMPLATES (the article's long paragraphs', `_template`)."""
    for block in reversed(list(body)):
        text = _text(block)
        if not text:
            continue
        if block.tag not in ("p", "head") or word_count(text) > TAIL_MAX_WORDS:
            return
        source = sources.find(block, text)
        if source is None or _template(source) in templates:
            return
        body.remove(block)


def _drop_deck(
    body: etree._Element,
    lead: list[etree._Element],
    templates: set[tuple[str, ...]],
    placed: list[HtmlElement],
    sources: _Sources,
) -> None:
    """Drop the paragraphs and headings of LEAD (the blocks before the article's first long
    paragraph) whose source stands apart from PLACED (the long paragraphs' sources): of none of
    their TEMPLATES, alone of its template in LEAD, and under none of their parents or named a
    deck."""
    parents = {source.getparent() for source in placed}
    texts = [(block, _text(block)) for block in lead if block.tag in ("p", "head")]
    sentences = [(block, text) for block, text in texts if word_count(text) >= DECK_MIN_WORDS]
    blocks = [(block, sources.find(block, text)) for block, text in sentences]
    found = [(block, source) for block, source in blocks if source is not None]
    counts = Counter(_template(source) for _, source in found)
    for block, source in found:
        template = _template(source)
        if template in templates or counts[template] > 1:
            continue
        if source.getparent() not in parents or _DECK_CLASS.search(source.get("class") or ""):
            body.remove(block)


def _template(element: HtmlElement) -> tuple[str, ...]:
    """What an element's siblings in one template share: its tag and class, and its parent's."""
    parent = element.getparent()
    own = (str(element.tag), element.get("class") or "")
    if parent is None:
        return own
    return (*own, str(parent.tag), parent.get("class") or "")


def _long_paragraphs(blocks: list[etree._Element]) -> list[tuple[int, str]]:
    """The long paragraphs of BLOCKS, in order: (index, text)."""
    longs = []
    for i, block in enumerate(blocks):
        if block.tag == "p":
            text = _text(block)
            if not words_at_most(text, LONG_WORDS - 1):
                longs.append((i, text))
    return longs


def _article_body(
    last: HtmlElement, longs: list[tuple[HtmlElement | None, int]]
) -> HtmlElement | None:
    """The nearest element above LAST that holds BODY_SHARE of the long paragraphs' words."""
    weight: dict[HtmlElement, int] = {}
    total = 0
    for source, words in longs:
        if source is None:
            continue
        total += words
        for ancestor in source.iterancestors():
            weight[ancestor] = weight.get(ancestor, 0) + words
    for ancestor in last.iterancestors():
        if weight.get(ancestor, 0) >= BODY_SHARE * total:
            return None if ancestor.tag in ("body", "html") else ancestor
    return None


def _text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


class _Sources:
    """The source elements of extracted blocks, found by line and text."""

    def __init__(self, tree: HtmlElement) -> None:
        self._by_line: dict[int, list[HtmlElement]] = {}
        for element in tree.iter(*_BLOCK_TAGS):
            line = element.sourceline
            if line is not None:
                self._by_line.setdefault(line, []).append(element)
        self._texts: dict[int, list[tuple[str, HtmlElement]]] = {}

    def find(self, block: etree._Element, text: str) -> HtmlElement | None:
        line = next((el.sourceline for el in block.iter() if el.sourceline is not None), None)
        if line is None or not text:
            return None
        texts = self._texts.get(line)
        if texts is None:
            elements = self._by_line.get(line, [])
            texts = self._texts[line] = [(_text(el), el) for el in elements]
        head = None
        for own, element in texts:
            if own == text:
                return element
            if head is None and own.startswith(text[:_HEAD_CHARS]):
                head = element
        return head
