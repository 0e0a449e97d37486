"""Question mode's CUT under page-level cross-validation, on the tuning questions.

    .venv/bin/python bench/question_cv.py [--tune DIR] [--budget TOKENS] [--splits N]
                                          [--drop-words N]

The goal is recall on other questions about other pages, so a CUT is only as good as it is
when chosen without the pages it is scored on. Every question's windows are ranked once
(sift_fetch.render.question), then every CUT of a grid is scored the way the tuning set's own
score.py scores (default ../shared/qa-tune beside the repository; its token count and answer
match): a question is answered when one of its gold answers is in the passages.

On the pages chosen on, the CUT with the best answer recall at a median of at most --budget
tokens wins (the cheaper one on a tie); it is then scored on the pages left out. Prints the grid
on all pages, leave-one-page-out (16 choices, the held-out answers pooled) and two-fold splits
(--splits random halves of the pages, each half chosen on and scored on in turn).

`--drop-words N` asks harder questions: N content words (not stopwords) are taken out of each
question at random (seeded), so questions share fewer words with their answers, as paraphrased
ones do; it shows what each CUT's recall and median cost become then.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sift_fetch.render import Document
from sift_fetch.render.decode import decode
from sift_fetch.render.html import render_html
from sift_fetch.render.question import (
    STOPWORDS,
    Sentence,
    chosen_passages,
    ranked_windows,
    split_sentences,
)

ROOT = Path(__file__).resolve().parent.parent
_STOPWORDS = frozenset(STOPWORDS)
CUTS = [round(0.30 + 0.02 * step, 2) for step in range(16)]  # 0.30 to 0.60


@dataclass(frozen=True)
class Outcome:
    page: str
    answered: dict[float, bool]  # by CUT
    tokens: dict[float, int]


def _score_module(tune: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("qa_score", tune / "score.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sentences(tune: Path, path: str) -> list[Sentence]:
    url = "http://127.0.0.1/" + path
    doc = Document(url, "text/html", "utf-8", (tune / path).read_bytes())
    body = render_html(doc, decode(doc, sniff_html=True), "clean", context=False)
    return split_sentences(body.text, body.headings)


def harder(question: str, drop: int, rng: random.Random) -> str:
    """QUESTION without DROP of its content words, chosen by RNG."""
    words = question.split()
    content = [i for i, w in enumerate(words) if w.strip("?,.\"'").casefold() not in _STOPWORDS]
    gone = set(rng.sample(content, min(drop, max(len(content) - 1, 0))))
    return " ".join(w for i, w in enumerate(words) if i not in gone)


def outcomes(tune: Path, drop: int = 0) -> list[Outcome]:
    score = _score_module(tune)
    count: Callable[[str], int] = score.token_counter()[1]
    norm: Callable[[str], str] = score.norm
    pages: dict[str, list[Sentence]] = {}
    found = []
    rng = random.Random(7)
    for line in (tune / "questions.jsonl").read_text("utf-8").splitlines():
        question = json.loads(line)
        path = question["path"]
        if path not in pages:
            pages[path] = _sentences(tune, path)
        sentences = pages[path]
        ranked = ranked_windows(harder(question["question"], drop, rng), sentences)
        answered, tokens = {}, {}
        for cut in CUTS:
            text = "\n\n".join(p.text for p in chosen_passages(sentences, ranked, cut))
            answered[cut] = any(norm(a) in norm(text) for a in question["answers"])
            tokens[cut] = count(text) if text else 0
        found.append(Outcome(question["page_id"], answered, tokens))
    return found


def recall(results: list[Outcome], cut: float) -> float:
    return sum(r.answered[cut] for r in results) / len(results)


def median_tokens(results: list[Outcome], cut: float) -> float:
    return statistics.median(r.tokens[cut] for r in results)


def best_cut(results: list[Outcome], budget: float) -> float:
    """The CUT with the best recall within the budget; the highest CUT when none fits."""
    fitting = [cut for cut in CUTS if median_tokens(results, cut) <= budget] or [CUTS[-1]]
    return max(fitting, key=lambda cut: (recall(results, cut), cut))


def _held_out(
    results: list[Outcome], held: set[str], budget: float
) -> tuple[float, list[bool], list[int]]:
    cut = best_cut([r for r in results if r.page not in held], budget)
    scored = [r for r in results if r.page in held]
    return cut, [r.answered[cut] for r in scored], [r.tokens[cut] for r in scored]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tune", type=Path, default=ROOT.parent / "shared" / "qa-tune")
    parser.add_argument("--budget", type=float, default=280, help="median tokens at most")
    parser.add_argument("--splits", type=int, default=20, help="random halvings of the pages")
    parser.add_argument("--drop-words", type=int, default=0, help="content words to take out")
    args = parser.parse_args()
    results = outcomes(args.tune.resolve(), args.drop_words)
    pages = sorted({r.page for r in results})
    print("CUT   recall  median tokens  (all pages)")
    for cut in CUTS:
        print(f"{cut:.2f}  {recall(results, cut):.3f}   {median_tokens(results, cut):.0f}")

    cuts, answered, tokens = [], [], []
    for page in pages:
        cut, hits, counts = _held_out(results, {page}, args.budget)
        cuts.append(cut)
        answered += hits
        tokens += counts
    print(
        f"leave one page out: recall {sum(answered) / len(answered):.3f}  median tokens "
        f"{statistics.median(tokens):.0f}  CUT chosen {min(cuts):.2f}-{max(cuts):.2f}"
    )

    shuffle = random.Random(9)
    recalls, medians = [], []
    for _ in range(args.splits):
        half = set(shuffle.sample(pages, len(pages) // 2))
        for held in (half, set(pages) - half):
            _, hits, counts = _held_out(results, held, args.budget)
            recalls.append(sum(hits) / len(hits))
            medians.append(statistics.median(counts))
    print(
        f"two-fold, {args.splits} splits: held-out recall mean {statistics.mean(recalls):.3f} "
        f"min {min(recalls):.3f}  median tokens mean {statistics.mean(medians):.0f} "
        f"max {max(medians):.0f}"
    )


if __name__ == "__main__":
    main()
