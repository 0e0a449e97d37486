"""`question`: the sentences of the rendered text that answer it best (BM25 via bm25s).

The text is cut into sentences, block by block (headings and blank lines end a block; a full
stop after an abbreviation or an initial, or before a lower-case word, ends no sentence). Each
window of WINDOW consecutive sentences of one block is ranked with BM25, indexed together with
its section heading, so "how do I install it" finds the text under "Installation". Tokens are
English-stemmed (Snowball via PyStemmer), accents folded, with English stopwords plus question
words and auxiliaries: most of what agents read is English, and for other languages stemming
errs towards no-ops.

At most TOP_K windows come back, and only those scoring at least CUT of the best one: where the
scores drop, the rest is noise that costs the agent tokens. A short block (one that fits in
SHORT_BLOCK characters) comes back whole. Chosen sentences that touch merge into one passage,
and passages come back in page order.

Measured on qa-tune (600 questions about 16 long pages) with
`python ../shared/qa-tune/score.py bench.question_quality:sift`: answer recall 0.983 at a median
of 238 tokens (mean share of the page 0.053), against 0.972 at 244 (0.042) with Lucene's
stopwords only, TOP_K 12 and CUT 0.45. CUT is chosen by page-level cross-validation
(bench/question_cv.py: best recall at a median of at most 280 tokens on the other pages):
leave-one-page-out picks 0.40-0.42 and scores 0.983 at 262 (0.972 before); two-fold splits score
0.983 on the held-out half on average, 0.969 at worst. Of the two, 0.42 leaves the median room
on harder questions: with one content word taken out of every question (less overlap with the
answer), 0.40 gives 0.970 at 318 tokens and 0.42 0.968 at 278, and with two 0.42 still keeps the
median at 292 (bench/question_cv.py --drop-words N; on the questions as they are, 0.987 at 262
and 0.983 at 238). TOP_K bounds the uncertain questions:
twelve overlapping windows capped recall at 0.978 whatever the cut, 16 gave 0.980 and 20 0.983
at CUT 0.40, 30 and 50 both 0.987, at the same median. Measured and not kept: a budget of
characters instead of a relative cut (0.953 at 256), the cut at the widest score gap (0.982 at
245, no better than the share), a floor of 300 characters (+0.002, but it returns unrelated
windows on short pages), a boost for numbers in "when"/"how many" answers (no change),
5-letter prefixes as extra terms (0.982 at 266), BM25 k1 0.9-2.0 and b 0.3-0.9 (flat), windows
of one sentence (0.938 at 145) or three (0.985 at 359) at CUT 0.40, and the heading counted
0, 1 or 3 times (flat here: qa-tune's headings are "Section N").

The heading counts twice: a section's title is the author's own label for what it answers.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from itertools import pairwise

import bm25s
import Stemmer
from bm25s.stopwords import STOPWORDS_EN

from sift_fetch.render.model import Heading

TOP_K = 30  # windows at most
WINDOW = 2  # sentences per window
CUT = 0.42  # a window scoring below this share of the best one is left out
HEADING_WEIGHT = 2  # a section's heading is indexed this many times with each of its windows
SHORT_BLOCK = 400  # characters: a block this short is returned whole
MAX_SENTENCE = 600  # characters: longer runs without a full stop are cut at a space
_SENTENCE_END = re.compile(r"[.!?…]\s+")
_ACCENTS = re.compile("[\u0300-\u036f]")  # the combining marks of Latin, Greek and Cyrillic
# Lower-cased words that a full stop follows inside a sentence: "St. Lawrence", "Dr. Watson".
ABBREVIATIONS = frozenset(
    {"c", "ca", "cf", "dr", "e.g", "fig", "i.e", "jr", "mr", "mrs", "ms", "mt", "no", "prof"}
    | {"sr", "st", "vs"}
)
# bm25s's English list (Lucene's) keeps question words and auxiliaries, which nearly every
# question has and which match whatever sentences happen to say "what" or "were".
QUESTION_WORDS = {"what", "when", "where", "which", "who", "whom", "whose", "why", "how"}
AUXILIARIES = {"do", "does", "did", "was", "were", "has", "have", "had", "been", "being"}
AUXILIARIES |= {"would", "could", "should"}
STOPWORDS = sorted({*STOPWORDS_EN, *QUESTION_WORDS, *AUXILIARIES})
_STEMMER = Stemmer.Stemmer("english")


@dataclass(frozen=True)
class Sentence:
    line: int  # 1-based line of the text it sits on
    block: int  # sentences of one paragraph, list or table share a block number
    heading: str | None
    text: str


@dataclass(frozen=True)
class Passage:
    line: int  # 1-based line where the passage starts
    heading: str | None
    text: str


def _cut(sentence: str) -> list[str]:
    """An over-long sentence (minified text, a run-on table cell) in pieces of whole words."""
    pieces: list[str] = []
    while len(sentence) > MAX_SENTENCE:
        space = sentence.rfind(" ", 0, MAX_SENTENCE)
        at = space if space > 0 else MAX_SENTENCE
        pieces.append(sentence[:at])
        sentence = sentence[at:].lstrip()
    return [*pieces, sentence] if sentence else pieces


def _continues(before: str, after: str) -> bool:
    """Whether the stop ending `before` sits inside a sentence that goes on with `after`."""
    if after[:1].islower():
        return True  # "e.g. the", "approx. five": a new sentence starts with a capital
    if not before.endswith("."):
        return False
    word = before.rsplit(maxsplit=1)[-1].lstrip("([\"'").removesuffix(".")
    return (len(word) == 1 and word.isupper()) or word.lower() in ABBREVIATIONS  # "W. Bush"


def _sentences(line: str) -> list[str]:
    sentences, start = [], 0
    for end in _SENTENCE_END.finditer(line):
        if not _continues(line[start : end.start() + 1], line[end.end() :]):
            sentences.append(line[start : end.start() + 1])
            start = end.end()
    return [*sentences, line[start:]]


def split_sentences(text: str, headings: list[Heading]) -> list[Sentence]:
    heading_at = {h.line: h.text for h in headings}
    sentences: list[Sentence] = []
    block, current = 0, None
    for index, line in enumerate(text.split("\n")):
        if index in heading_at:
            current = heading_at[index]
            block += 1
        elif not line.strip():
            block += 1
        else:
            for sentence in _sentences(line.strip()):
                sentences.extend(Sentence(index + 1, block, current, p) for p in _cut(sentence))
    return sentences


def _folded(text: str) -> str:
    """`text` without accents: a question may say "fiancee" of a page that says "fiancée"."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", _ACCENTS.sub("", unicodedata.normalize("NFKD", text)))


def _tokens(texts: list[str]) -> list[list[str]]:
    return bm25s.tokenize(
        [_folded(text) for text in texts],
        stopwords=STOPWORDS,
        stemmer=_STEMMER,
        return_ids=False,
        show_progress=False,
    )


def _windows(sentences: list[Sentence]) -> list[range]:
    """For each sentence, the window it starts: up to WINDOW sentences of its block."""
    windows = []
    for start, first in enumerate(sentences):
        end = start + 1
        while end < len(sentences) and end - start < WINDOW:
            if sentences[end].block != first.block:
                break
            end += 1
        windows.append(range(start, end))
    return windows


def _indexed(sentences: list[Sentence], window: range) -> str:
    heading = sentences[window[0]].heading or ""
    return " ".join([*[heading] * HEADING_WEIGHT, *(sentences[i].text for i in window)])


def _joined(sentences: list[Sentence]) -> str:
    """Sentences of one line joined by a space, lines kept apart (list items, table rows)."""
    text = sentences[0].text
    for before, sentence in pairwise(sentences):
        text += (" " if sentence.line == before.line else "\n") + sentence.text
    return text


def _passages(sentences: list[Sentence], chosen: set[int]) -> list[Passage]:
    passages: list[Passage] = []
    run: list[Sentence] = []
    for index in sorted(chosen):
        if run and (index - 1 not in chosen or sentences[index].block != run[-1].block):
            passages.append(Passage(run[0].line, run[0].heading, _joined(run)))
            run = []
        run.append(sentences[index])
    if run:
        passages.append(Passage(run[0].line, run[0].heading, _joined(run)))
    return passages


def ranked_windows(question: str, sentences: list[Sentence]) -> list[tuple[range, float]]:
    """The TOP_K best windows that share a term with the question, with their scores, best first."""
    query = _tokens([question])
    if not sentences or not query[0]:
        return []
    windows = _windows(sentences)
    corpus = _tokens([_indexed(sentences, window) for window in windows])
    if not any(corpus):
        return []  # only stopwords and punctuation: nothing to rank (and bm25s would fail)
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=False)
    ids, scores = retriever.retrieve(query, k=min(TOP_K, len(windows)), show_progress=False)
    ranked = zip(ids[0], scores[0], strict=True)
    return [(windows[int(window)], float(score)) for window, score in ranked if score > 0]


def chosen_passages(
    sentences: list[Sentence], ranked: list[tuple[range, float]], cut: float = CUT
) -> list[Passage]:
    """The passages of the ranked windows that score at least `cut` of the best, in page order."""
    if not ranked:
        return []
    best = ranked[0][1]
    chosen = {index for window, score in ranked if score >= cut * best for index in window}
    blocks: dict[int, list[int]] = {}
    for index, sentence in enumerate(sentences):
        blocks.setdefault(sentence.block, []).append(index)
    for block in {sentences[i].block for i in chosen}:
        members = blocks[block]
        if sum(len(sentences[i].text) + 1 for i in members) <= SHORT_BLOCK:
            chosen.update(members)
    return _passages(sentences, chosen)


def best_passages(question: str, sentences: list[Sentence]) -> list[Passage]:
    """The passages around the best-matching sentence windows, in page order."""
    return chosen_passages(sentences, ranked_windows(question, sentences))
