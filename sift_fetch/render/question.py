"""`question`: the few passages of the rendered text that answer it best (BM25 via bm25s).

Passages follow the document's structure: headings and blank lines split blocks, a long block
is cut into groups of lines (and an over-long line into groups of sentences) of a few hundred
characters, and a passage shorter than a sentence or two joins the next one of its section.
Each passage is indexed together with its heading, so "how do I install it" finds the text under
"Installation". Tokens are English-stemmed (Snowball via PyStemmer) with English stopwords:
most of what agents read is English, and for other languages stemming errs towards no-ops.
The best TOP_K passages with a positive score come back in document order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import bm25s
import Stemmer

from sift_fetch.render.model import Heading

TOP_K = 5
TARGET = 500  # characters a passage grows to
MIN = 160  # shorter passages merge with the next one in the same section
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
_STEMMER = Stemmer.Stemmer("english")


@dataclass(frozen=True)
class Passage:
    line: int  # 1-based line where the passage starts
    heading: str | None
    text: str


def _pieces(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A block's lines, with over-long lines cut into sentence groups."""
    pieces: list[tuple[int, str]] = []
    for number, line in lines:
        if len(line) <= TARGET:
            pieces.append((number, line))
            continue
        group = ""
        for sentence in _SENTENCE_END.split(line):
            if group and len(group) + len(sentence) > TARGET:
                pieces.append((number, group))
                group = ""
            group = f"{group} {sentence}" if group else sentence
        if group:
            pieces.append((number, group))
    return pieces


def _grouped(block: list[tuple[int, str]], heading: str | None) -> list[Passage]:
    passages: list[Passage] = []
    start, size = 0, 0
    texts: list[str] = []
    for number, piece in _pieces(block):
        if texts and size + len(piece) > TARGET:
            passages.append(Passage(start, heading, "\n".join(texts)))
            texts, size = [], 0
        if not texts:
            start = number
        texts.append(piece)
        size += len(piece) + 1
    if texts:
        passages.append(Passage(start, heading, "\n".join(texts)))
    return passages


def _merged(passages: list[Passage]) -> list[Passage]:
    merged: list[Passage] = []
    for passage in passages:
        last = merged[-1] if merged else None
        if (
            last is not None
            and last.heading == passage.heading
            and len(last.text) < MIN
            and len(last.text) + len(passage.text) <= TARGET + MIN
        ):
            merged[-1] = Passage(last.line, last.heading, f"{last.text}\n{passage.text}")
        else:
            merged.append(passage)
    return merged


def split_passages(text: str, headings: list[Heading]) -> list[Passage]:
    heading_at = {h.line: h.text for h in headings}
    passages: list[Passage] = []
    block: list[tuple[int, str]] = []
    current: str | None = None

    def close() -> None:
        if block:
            passages.extend(_grouped(block, current))
            block.clear()

    for index, line in enumerate(text.split("\n")):
        if index in heading_at:
            close()
            current = heading_at[index]
        elif not line.strip():
            close()
        else:
            block.append((index + 1, line.strip()))
    close()
    return _merged(passages)


def _tokens(texts: list[str]) -> list[list[str]]:
    return bm25s.tokenize(
        texts, stopwords="en", stemmer=_STEMMER, return_ids=False, show_progress=False
    )


def best_passages(question: str, passages: list[Passage], k: int = TOP_K) -> list[Passage]:
    """Up to `k` passages that share terms with the question, in document order."""
    query = _tokens([question])
    if not passages or not query[0]:
        return []
    corpus = _tokens([f"{p.heading}\n{p.text}" if p.heading else p.text for p in passages])
    if not any(corpus):
        return []  # only stopwords and punctuation: nothing to rank (and bm25s would fail)
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=False)
    ids, scores = retriever.retrieve(query, k=min(k, len(passages)), show_progress=False)
    chosen = sorted(int(i) for i, s in zip(ids[0], scores[0], strict=True) if s > 0)
    return [passages[i] for i in chosen]
