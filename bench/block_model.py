"""Per-block keep/drop decisions for clean mode, learnt from evidence: measured, not kept.

    .venv/bin/python bench/block_model.py dump [--tune DIR] [--precise-fast] [--limit N]
    .venv/bin/python bench/block_model.py cv [--folds K] [--l2 C] [--cut P,B ...] [--drop F ...]
    .venv/bin/python bench/block_model.py diff [--cut P,B]

`dump` runs trafilatura's precise extraction (`--precise-fast`: without its fallbacks) and a
balanced one without fallbacks on every page of the tuning corpus and of the article set
(bench/articles), takes the union of their blocks with each block's features
(bench/block_features.py), rebuilds today's clean mode beside them, and writes it all to a
JSON-lines cache ($BLOCK_CACHE, default /tmp/sift-block-cache.jsonl; about a minute).

`cv` fits a logistic regression on the tuning corpus's labelled blocks (a block holding a `with`
snippet is content, one holding a `without` snippet boilerplate, others unlabelled), k-fold by
page, and scores every held-out page as the corpus's score.py does. Then it fits on the tuning
corpus minus the article-set pages (never on the article set) and scores the article set with
full gold text as bench/article_quality.py does. A block is kept when its probability reaches P
(a block the precise extraction kept) or B (one only the balanced extraction kept). Pages where
the precise extraction is thin keep today's path (balanced extraction refereed by readability).
`diff` lists, per article page, the blocks where the model and today's clean mode differ.
docs/clean-mode.md has the figures and why this was not kept.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import statistics
import sys
import time
from copy import deepcopy
from pathlib import Path
from typing import Any

import numpy as np
from trafilatura.external import try_readability

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import block_features
from bench.article_quality import ARTICLES, lost_lines, precision_recall, saved_html
from sift_fetch.render.html import (
    SECOND_OPINION_SHARE,
    _agreement,
    _drop_anchor_icons,
    extract_blocks,
    join_blocks,
    parse,
    visible_text,
)
from sift_fetch.render.text import shingles

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("BLOCK_CACHE", "/tmp/sift-block-cache.jsonl"))
_WORDS = re.compile(r"\w+")
Page = dict[str, Any]
Cut = tuple[float, float]


def _norm(s: str) -> str:
    """As the corpus's score.py compares: Markdown markup and whitespace do not count."""
    return re.sub(r"\s+", " ", re.sub(r"[*_`#>|\\]", "", s)).strip()


def _words(text: str) -> int:
    return len(_WORDS.findall(text))


def pages(tune: Path, limit: int) -> list[Page]:
    evaldata = json.loads((tune / "evaldata.json").read_text("utf-8"))
    index = json.loads((ARTICLES / "index.json").read_text())
    article_files = {spec["file"]: name for name, spec in index.items() if spec["source"] == "tune"}
    out = []
    for url, spec in list(evaldata.items())[: limit or None]:
        raw = gzip.decompress((tune / "pages" / f"{spec['file']}.gz").read_bytes())
        out.append(
            {
                "url": url,
                "html": raw.decode("utf-8", "replace"),
                "with": spec["with"],
                "without": spec["without"],
                "article": article_files.get(spec["file"]),
            }
        )
    for name, spec in index.items():
        if spec["source"] != "tune":
            html = saved_html(spec)
            out.append({"url": spec["url"], "html": html, "article": name, "saved": True})
    return out


def today(tree: Any, url: str, page_words: int) -> str:
    """Clean mode as it is: precise, unless thin and readability prefers the balanced one."""
    precise = join_blocks([m for _, m in extract_blocks(tree, url)])
    if _words(precise) >= SECOND_OPINION_SHARE * page_words:
        return precise
    balanced = join_blocks([m for _, m in extract_blocks(tree, url, favor_precision=False)])
    reference = shingles(" ".join(try_readability(deepcopy(tree)).itertext()))
    if reference and _agreement(precise, reference) > _agreement(balanced, reference):
        return precise
    return balanced or precise


def dump(tune: Path, limit: int, precise_fast: bool) -> None:
    with CACHE.open("w") as sink:
        for number, page in enumerate(pages(tune, limit)):
            url, html = page.pop("url"), page.pop("html")
            times = {}
            start = time.process_time()
            tree = parse(html)
            _drop_anchor_icons(tree)
            precise = extract_blocks(tree, url, fast=precise_fast)
            times["precise"] = time.process_time() - start
            start = time.process_time()
            balanced = extract_blocks(tree, url, favor_precision=False, fast=True)
            times["balanced"] = time.process_time() - start
            start = time.process_time()
            page_words = _words(visible_text(tree)[0])
            union = block_features.union(precise, balanced)
            candidates = block_features.describe(union, tree, page_words)
            times["features"] = time.process_time() - start
            page.update(
                url=url,
                baseline=today(tree, url, page_words),
                blocks=[{"md": c.markdown, "tag": c.tag, "f": c.features} for c in candidates],
            )
            sink.write(json.dumps(page) + "\n")
            if number % 100 == 0:
                print(number, url, {k: round(v * 1e3) for k, v in times.items()}, flush=True)


def load() -> list[Page]:
    return [json.loads(line) for line in CACHE.open()]


def labels(page: Page) -> list[int | None]:
    """Per block: content (1) when it holds a `with` snippet, boilerplate (0) when it holds a
    `without` one, unlabelled when it holds both or neither."""
    out: list[int | None] = []
    for text in (_norm(b["md"]) for b in page["blocks"]):
        good = any(_norm(s) in text for s in page.get("with", []))
        bad = any(_norm(s) in text for s in page.get("without", []))
        out.append(None if good == bad else int(good))
    return out


def names(data: list[Page], drop: list[str]) -> list[str]:
    found = {name for page in data for b in page["blocks"] for name in b["f"]}
    return sorted(found - set(drop))


def matrix(page_blocks: list[dict[str, Any]], features: list[str]) -> np.ndarray:
    return np.array([[b["f"].get(n, 0.0) for n in features] for b in page_blocks], dtype=float)


def fit(train: list[Page], features: list[str], l2: float) -> np.ndarray:
    """Logistic regression weights by Newton's method, L2-penalised."""
    rows, ys = [], []
    for page in train:
        for b, y in zip(page["blocks"], labels(page), strict=True):
            if y is not None:
                rows.append(b)
                ys.append(y)
    x, y = matrix(rows, features), np.array(ys, dtype=float)
    w = np.zeros(x.shape[1])
    penalty = np.diag(np.full(x.shape[1], l2))
    for _ in range(30):
        p = 1 / (1 + np.exp(-(x @ w)))
        step = np.linalg.solve(
            (x * (p * (1 - p))[:, None]).T @ x + penalty, x.T @ (p - y) + penalty @ w
        )
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return w


def probabilities(page: Page, w: np.ndarray, features: list[str]) -> np.ndarray:
    return 1 / (1 + np.exp(-(matrix(page["blocks"], features) @ w)))


def thin(page: Page) -> bool:
    return not page["blocks"] or page["blocks"][0]["f"]["precise_share"] < SECOND_OPINION_SHARE


def keep(block: dict[str, Any], p: float, cut: Cut) -> bool:
    return p >= (cut[0] if block["f"]["precise"] else cut[1])


def selected(page: Page, w: np.ndarray, features: list[str], cut: Cut) -> str:
    if thin(page):
        return str(page["baseline"])
    p = probabilities(page, w, features)
    blocks = page["blocks"]
    return join_blocks([b["md"] for b, q in zip(blocks, p, strict=True) if keep(b, q, cut)])


Figures = tuple[float, float, float]


def snippet_score(results: list[tuple[Page, str]]) -> Figures:
    tp = fn = fp = 0
    for page, out in results:
        text = _norm(out)
        found = sum(_norm(s) in text for s in page["with"])
        tp, fn = tp + found, fn + len(page["with"]) - found
        fp += sum(_norm(s) in text for s in page["without"])
    p, r = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
    return p, r, 2 * p * r / max(p + r, 1e-9)


def gold_score(results: list[tuple[Page, str]]) -> Figures:
    scores = [
        precision_recall(out, (ARTICLES / page["article"]).read_text()) for page, out in results
    ]
    p, r = statistics.mean(s[0] for s in scores), statistics.mean(s[1] for s in scores)
    return p, r, 2 * p * r / (p + r)


def line(label: str, figures: Figures) -> str:
    return f"{label:<30}P {figures[0]:.3f}  R {figures[1]:.3f}  F1 {figures[2]:.3f}"


def split(data: list[Page]) -> tuple[list[Page], list[Page]]:
    return [p for p in data if not p.get("saved")], [p for p in data if p.get("article")]


def cv(folds: int, l2: float, cuts: list[Cut], drop: list[str]) -> None:
    data = load()
    tune, articles = split(data)
    features = names(data, drop)
    order = list(range(len(tune)))
    random.Random(9).shuffle(order)
    print(f"{len(tune)} tuning pages, {len(articles)} article pages, {len(features)} features")
    print(line("tuning: clean mode today", snippet_score([(p, p["baseline"]) for p in tune])))
    for cut in cuts:
        results = []
        for k in range(folds):
            held = {order[i] for i in range(k, len(tune), folds)}
            w = fit([p for i, p in enumerate(tune) if i not in held], features, l2)
            results += [(tune[i], selected(tune[i], w, features, cut)) for i in held]
        print(line(f"tuning: CV{folds}, cut {cut[0]},{cut[1]}", snippet_score(results)))
    print(line("articles: clean mode today", gold_score([(p, p["baseline"]) for p in articles])))
    w = fit([p for p in tune if not p.get("article")], features, l2)
    for cut in cuts:
        results = [(p, selected(p, w, features, cut)) for p in articles]
        print(line(f"articles: cut {cut[0]},{cut[1]}", gold_score(results)))
    print("weights (fitted without the article pages):")
    for name, weight in sorted(zip(features, w, strict=True), key=lambda nw: -abs(nw[1])):
        print(f"  {name:<20}{weight:+.2f}")


def diff(l2: float, cut: Cut) -> None:
    data = load()
    tune, articles = split(data)
    features = names(data, [])
    w = fit([p for p in tune if not p.get("article")], features, l2)
    for page in articles:
        gold = (ARTICLES / page["article"]).read_text()
        before = precision_recall(page["baseline"], gold)
        after = precision_recall(selected(page, w, features, cut), gold)
        if thin(page) or before == after:
            continue
        name = page["article"]
        print(f"{name}: P {before[0]:.2f} -> {after[0]:.2f}, R {before[1]:.2f} -> {after[1]:.2f}")
        for block, p in zip(page["blocks"], probabilities(page, w, features), strict=True):
            kept = keep(block, p, cut)
            wrong = bool(lost_lines(block["md"], gold))
            if kept == wrong:  # kept and not article, or dropped and article
                source = "precise" if block["f"]["precise"] else "balanced"
                verdict = "kept, not article" if kept else "dropped, article"
                print(f"   {p:.2f} {source:<8} {verdict}: {block['md'][:80]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["dump", "cv", "diff"])
    parser.add_argument("--tune", type=Path, default=ROOT.parent / "shared" / "extraction-tune")
    parser.add_argument("--limit", type=int, default=0, help="first N tuning pages only")
    parser.add_argument("--precise-fast", action="store_true", help="precise without fallbacks")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--cut", nargs="+", default=["0.3,0.7"], help="P,B thresholds")
    parser.add_argument("--drop", nargs="*", default=[], help="features left out")
    args = parser.parse_args()
    cuts = [(float(c.split(",")[0]), float(c.split(",")[1])) for c in args.cut]
    if args.command == "dump":
        dump(args.tune, args.limit, args.precise_fast)
    elif args.command == "cv":
        cv(args.folds, args.l2, cuts, args.drop)
    else:
        diff(args.l2, cuts[0])


if __name__ == "__main__":
    main()
