"""The article's text as the page itself declares it, and clean text held to it.

News sites often state their article's text in schema.org metadata: a JSON-LD `articleBody`,
written by the publisher's CMS from the story alone, without the byline, captions, teasers or
the site's notices around it. Where clean mode's long paragraphs are all in that text, the page
has declared its whole article, and a block of clean text that is mostly not in it came from
around the article (a deck, a caption and its credit, the site's notices): it goes, but for
a heading among the declared blocks, as CMSs often keep subheadings out of the field. Where
they are not (a teaser's first lines, another story's body, a body the CMS cut short), the
declaration says nothing about the blocks, and they stay. Where clean text holds little of the
declaration and is much shorter (the story is drawn by JavaScript, and the page without it
shows a caption or a teaser), the declared text is the article.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator

from lxml.html import HtmlElement

from sift_fetch.render.around_body import LONG_WORDS
from sift_fetch.render.text import shingles, split_blocks, word_count

# JSON-LD blocks are read only when this size or under: a declaration is a few KB of text, and
# parsing is linear in any case.
MAX_SCRIPT_CHARS = 2_000_000
# A declaration this short is a summary, not the article.
MIN_BODY_WORDS = 50
# Clean text's long paragraphs (LONG_WORDS, as around_body counts them) are the article's
# evidence, and the declaration counts when this share of their 4-grams is in it.
COVERED = 0.9
# A block goes when under this share of its 4-grams is in the declaration. A block of under four
# words has no 4-gram, says too little to judge (a heading, a dateline) and stays.
KEPT = 0.5
# Clean text that holds under this share of the declaration's 4-grams, and has under this share
# of its words, missed the article.
LOST = 0.5

_SCRIPTS = "//script[@type='application/ld+json']/text()"
_TAG = re.compile(r"<[^>]*>")
_BREAK = re.compile(r"<(?:br|/p|/div|/h[1-6]|/li|/blockquote)\s*/?>", re.I)


def declared_body(tree: HtmlElement) -> str | None:
    """The page's JSON-LD `articleBody`, as text, one paragraph a line; None when there is
    none, it is a summary, or the page declares several (a live blog's posts, a list of
    stories: none of them is the page's article)."""
    bodies: set[str] = set()
    for script in tree.xpath(_SCRIPTS):
        if "articleBody" not in script or len(script) > MAX_SCRIPT_CHARS:
            continue
        try:
            data = json.loads(script)
        except (ValueError, RecursionError):
            continue  # a CMS's broken JSON is common, and declares nothing
        bodies.update(body.strip() for body in _bodies(data) if body.strip())
    if len(bodies) != 1:
        return None
    # Some CMSs put the story's HTML in the field.
    text = html.unescape(_TAG.sub(" ", _BREAK.sub("\n", bodies.pop())))
    lines = (" ".join(line.split()) for line in text.split("\n"))
    text = "\n".join(line for line in lines if line)
    return text if word_count(text) >= MIN_BODY_WORDS else None


def _bodies(data: object) -> Iterator[str]:
    pending = [data]  # a stack, not recursion: the JSON may nest as deep as the parser allows
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key == "articleBody" and isinstance(value, str):
                    yield value
                elif isinstance(value, dict | list):
                    pending.append(value)
        elif isinstance(item, list):
            pending.extend(item)


def hold_to_declared(markdown: str, body: str) -> str:
    """MARKDOWN held to BODY, the declared article: without the blocks that are mostly not in
    BODY when its long paragraphs are in it; BODY itself when MARKDOWN holds little of it and
    is much shorter; otherwise MARKDOWN as it is. Never empty when either is not."""
    declared = shingles(body).keys()
    blocks = split_blocks(markdown)
    grams = [shingles(block).keys() for block in blocks]
    held = set().union(*grams) & declared
    if len(held) < LOST * len(declared) and word_count(markdown) < LOST * word_count(body):
        return body.replace("\n", "\n\n")
    evidence = [
        own for block, own in zip(blocks, grams, strict=True) if word_count(block) >= LONG_WORDS
    ]
    total = sum(len(own) for own in evidence)
    if not total or sum(len(own & declared) for own in evidence) < COVERED * total:
        return markdown
    inside = [not own or len(own & declared) >= KEPT * len(own) for own in grams]
    solid = [i for i, own in enumerate(grams) if own and inside[i]]
    # A CMS often keeps the story's subheadings out of the field: a heading among the declared
    # blocks is the article's own. Before or after them it is a deck or a teaser's.
    kept = [
        block
        for i, block in enumerate(blocks)
        if inside[i] or (solid[0] < i < solid[-1] and block.startswith("#"))
    ]
    return "\n\n".join(kept) or markdown
