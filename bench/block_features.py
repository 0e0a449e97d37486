"""Candidate blocks of a page's main content and the evidence about each, for bench/block_model.py.

The candidates are the union of trafilatura's precise and balanced extractions, in page order;
each is described by which extraction kept it, its own text, and the DOM element it came from
(link density, class and id tokens of it and its ancestors, the tags around it).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from lxml.html import HtmlElement

_WORD = re.compile(r"\w+")
_TOKEN = re.compile(r"[a-z]+")
_PUNCT = re.compile(r"[^\w\s]")
_SENTENCE_END = re.compile(r"[.!?:;\"'\u201d\u2019\u00bb)]\s*$")
_BYLINE = re.compile(r"^\W*(by|von|par|por|written by|posted|published|updated)\b", re.I)
# class/id tokens, grouped by what they tend to mark; a group's feature is 1 when a class, id or
# itemprop token of the block's element or of its ANCESTORS nearest ancestors is one of the
# group's stems, or (stems over three letters) contains one.
CLASS_GROUPS: dict[str, tuple[str, ...]] = {
    "byline": ("byline", "author", "meta", "date", "time", "posted", "dateline"),
    "caption": ("caption", "credit", "figure", "photo", "image", "img", "media", "gallery"),
    "related": ("related", "recommend", "more", "teaser", "trending", "popular", "read"),
    "share": ("share", "social", "sharing", "follow", "tweet", "facebook"),
    "promo": ("newsletter", "subscribe", "signup", "promo", "ad", "ads", "advert", "sponsor"),
    "comment": ("comment", "reply", "disqus", "respond", "discussion"),
    "bio": ("bio", "about", "profile", "contributor", "note", "disclaimer"),
    "chrome": ("footer", "header", "nav", "menu", "sidebar", "widget", "breadcrumb", "tag"),
    "body": ("content", "article", "entry", "post", "body", "story", "text", "main"),
    "video": ("video", "player", "embed", "youtube"),
}
_STEM_GROUP = {stem: group for group, stems in CLASS_GROUPS.items() for stem in stems}
ANCESTORS = 6
# The elements trafilatura's blocks come from (inline elements are not looked at).
_SOURCE_TAGS = (
    *("p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "dl", "dd", "dt", "blockquote"),
    *("pre", "code", "table", "tr", "td", "th", "div", "section", "article", "figcaption"),
    *("header", "footer", "aside", "span", "font", "center", "address", "summary", "details"),
)
PREFIX = 8  # words an element's text is indexed by (whole texts cost a subtree's length each)
REPEATED = 0.5  # a balanced-only block with more of its 4-grams in precise blocks adds nothing
_AROUND = ("figure", "figcaption", "aside", "footer", "header", "nav", "article", "main", "li")
BLOCK_TAGS = ("p", "head", "list", "quote", "table", "code")


@dataclass
class Candidate:
    """One block of an extraction, as Markdown, and where it was found."""

    markdown: str
    tag: str
    precise: bool = False
    balanced: bool = False
    features: dict[str, float] = field(default_factory=dict)


def key(text: str) -> str:
    """Words only, lower-cased: how a block's Markdown and a DOM element's text are matched."""
    return " ".join(_WORD.findall(text.lower()))


def union(
    precise: Sequence[tuple[str, str]], balanced: Sequence[tuple[str, str]]
) -> list[Candidate]:
    """Both extractions' blocks (tag, Markdown) in page order, a block both kept once.

    A balanced-only block whose words are mostly in the precise blocks already (the same
    paragraph cut differently, or a container of several) is left out: it adds nothing new.
    """
    a, b = [key(m) for _, m in precise], [key(m) for _, m in balanced]
    held = set().union(*(_grams(m) for _, m in precise)) if precise else set()
    out: list[Candidate] = []
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            out += [Candidate(m, t, True, True) for t, m in precise[i1:i2]]
            continue
        out += [Candidate(m, t, precise=True) for t, m in precise[i1:i2]]
        for t, m in balanced[j1:j2]:
            own = _grams(m)
            if len(own & held) <= REPEATED * len(own):
                out.append(Candidate(m, t, balanced=True))
    return out


def _prefix(el: HtmlElement) -> str:
    words: list[str] = []
    for piece in el.itertext():
        words += _WORD.findall(piece.lower())
        if len(words) >= PREFIX:
            break
    return " ".join(words[:PREFIX])


Found = dict[str, list[tuple[int, HtmlElement]]]


def dom_index(tree: HtmlElement, wanted: set[str]) -> tuple[Found, int]:
    """The elements whose text opens with one of the `wanted` prefixes, with their positions in
    document order, and
    how many elements the page has. Only prefixes are read: an element's whole text costs the
    length of its subtree, and the page's outer elements would be read again and again."""
    found: Found = {}
    total = 0
    for total, el in enumerate(tree.iter(*_SOURCE_TAGS), 1):
        prefix = _prefix(el)
        if prefix in wanted:
            found.setdefault(prefix, []).append((total, el))
    return found, total


def _source(found: Found, text: str) -> tuple[int, HtmlElement] | None:
    """The deepest element whose text is exactly the block's words, and its position."""
    words = key(text).split()
    for position, el in reversed(found.get(" ".join(words[:PREFIX]), [])):
        if len(_WORD.findall(el.text_content())) == len(words):
            return position, el
    return None


def _class_tokens(el: HtmlElement) -> set[str]:
    raw = f"{el.get('class') or ''} {el.get('id') or ''} {el.get('itemprop') or ''}".lower()
    return set(_TOKEN.findall(raw))


def _dom_features(el: HtmlElement, position: float) -> dict[str, float]:
    words = len(_WORD.findall(el.text_content())) or 1
    link_words = sum(len(_WORD.findall(a.text_content())) for a in el.iter("a"))
    features = {
        "dom_found": 1.0,
        "link_density": min(link_words / words, 1.0),
        "links": min(sum(1 for _ in el.iter("a")) / 5, 1.0),
        "dom_position": position,
    }
    depth = 0
    node: HtmlElement | None = el
    while node is not None:
        if depth <= ANCESTORS:
            for token in _class_tokens(node):
                group = _STEM_GROUP.get(token)
                if group is None:
                    group = next(
                        (g for s, g in _STEM_GROUP.items() if len(s) > 3 and s in token), None
                    )
                if group:
                    features[f"class_{group}"] = 1.0
        if node.tag in _AROUND and node is not el:
            features[f"in_{node.tag}"] = 1.0
        node = node.getparent()
        depth += 1
    features["depth"] = min(depth / 30, 1.0)
    return features


def _grams(text: str) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return {tuple(words[i : i + 4]) for i in range(len(words) - 3)}


def describe(candidates: list[Candidate], tree: HtmlElement, page_words: int) -> list[Candidate]:
    """Fill each candidate's features (names -> values; absent means 0)."""
    found, total = dom_index(tree, {" ".join(key(c.markdown).split()[:PREFIX]) for c in candidates})
    agreed = [i for i, c in enumerate(candidates) if c.precise and c.balanced]
    first, last = (agreed[0], agreed[-1]) if agreed else (len(candidates), -1)
    precise_words = sum(len(_WORD.findall(c.markdown)) for c in candidates if c.precise)
    balanced_words = sum(len(_WORD.findall(c.markdown)) for c in candidates if c.balanced)
    n = max(len(candidates) - 1, 1)
    grams = [_grams(c.markdown) for c in candidates]
    seen: dict[tuple[str, ...], int] = {}
    for own in grams:
        for gram in own:
            seen[gram] = seen.get(gram, 0) + 1
    for i, c in enumerate(candidates):
        text = c.markdown
        words = _WORD.findall(text)
        f = c.features
        f["bias"] = 1.0
        f["precise"] = float(c.precise)
        f["balanced"] = float(c.balanced)
        f["both"] = float(c.precise and c.balanced)
        f["log_words"] = math.log1p(len(words)) / 6
        f["long"] = float(len(words) > 150)
        # A block whose words another candidate holds too: a container of other blocks, or the
        # same paragraph cut differently by the two extractions.
        f["repeated"] = sum(seen[g] > 1 for g in grams[i]) / max(len(grams[i]), 1)
        f["short"] = float(len(words) < 10)
        f["punct"] = min(len(_PUNCT.findall(text)) / max(len(words), 1), 1.0)
        f["sentence_end"] = float(bool(_SENTENCE_END.search(text)))
        f["byline_start"] = float(bool(_BYLINE.match(text)))
        f["digits"] = sum(w.isdigit() for w in words) / max(len(words), 1)
        f[f"tag_{c.tag if c.tag in BLOCK_TAGS else 'other'}"] = 1.0
        f["position"] = i / n
        f["before_agreed"] = float(i < first)
        f["after_agreed"] = float(i > last)
        f["first"] = float(i == 0)
        f["last"] = float(i == len(candidates) - 1)
        f["precise_share"] = min(precise_words / max(page_words, 1), 1.0)
        f["balanced_gain"] = min(balanced_words / max(precise_words, 1) - 1, 3.0) / 3
        source = _source(found, text)
        if source is not None:
            f.update(_dom_features(source[1], source[0] / total))
    return candidates
