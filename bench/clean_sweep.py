"""Clean mode on both yardsticks at once, and what a change moved: for trying a rule.

    .venv/bin/python bench/clean_sweep.py [--tune DIR] [--procs N] [--save FILE] [--against FILE]

Renders the tuning corpus's pages (default ../shared/extraction-tune) and the article pages of
bench/articles/ in N processes (default 2, ~35 s on 2 cores), then prints the tuning corpus's
precision, recall and F1 as its score.py counts them (snippets that must and must not appear)
and the article pages' as bench/article_quality.py does (word 4-grams against the gold text),
for all of them and round by round: the later rounds were drawn after the earlier rounds' rules,
so they are the out-of-sample evidence.

`--save FILE` keeps every output (JSON); `--against FILE` compares this run with one saved
before it (another revision's, or this one's without the change): the tuning pages whose
snippets moved, and the article pages whose precision or recall moved, with the blocks that
came and went.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.article_quality import ARTICLES, load_pages, precision_recall
from bench.clean_quality import sift, tuning_pages, words_only

ROOT = Path(__file__).resolve().parent.parent
# A page: its key ("t:" and the tuning URL, or "a:" and the article's gold file), URL and HTML.
Page = tuple[str, str, str]
Snippets = dict[str, dict[str, list[str]]]


def render(page: Page) -> tuple[str, str]:
    key, url, html = page
    return key, sift(html, url)


def tuning_score(evaldata: Snippets, outputs: dict[str, str]) -> str:
    found = missed = leaked = 0
    for url, spec in evaldata.items():
        text = words_only(outputs[f"t:{url}"])
        hits = sum(words_only(s) in text for s in spec["with"])
        found, missed = found + hits, missed + len(spec["with"]) - hits
        leaked += sum(words_only(s) in text for s in spec["without"])
    return _figures(found / max(found + leaked, 1), found / max(found + missed, 1))


def article_score(scores: list[tuple[float, float]]) -> str:
    p, r = statistics.mean(s[0] for s in scores), statistics.mean(s[1] for s in scores)
    return f"{_figures(p, r)}  ({len(scores)} pages)"


def _figures(p: float, r: float) -> str:
    return f"P {p:.4f}  R {r:.4f}  F1 {2 * p * r / max(p + r, 1e-9):.4f}"


def compare(
    evaldata: Snippets,
    golds: dict[str, str],
    before: dict[str, str],
    after: dict[str, str],
) -> None:
    print("\nchanged against the saved run:")
    moved = 0
    for url, spec in evaldata.items():
        old, new = words_only(before[f"t:{url}"]), words_only(after[f"t:{url}"])
        for label, snippets in (("with", spec["with"]), ("without", spec["without"])):
            for s in snippets:
                was, now = words_only(s) in old, words_only(s) in new
                if was != now:
                    moved += 1
                    print(f"  {url[:70]}: {label} {'lost' if was else 'now found'}: {s[:80]}")
    for name, gold in golds.items():
        if f"a:{name}" not in before:  # a page drawn after the saved run
            continue
        old, new = before[f"a:{name}"], after[f"a:{name}"]
        if old == new:
            continue
        moved += 1
        (p0, r0), (p1, r1) = precision_recall(old, gold), precision_recall(new, gold)
        print(f"  {name}: P {p0:.3f} -> {p1:.3f}  R {r0:.3f} -> {r1:.3f}")
        old_blocks, new_blocks = old.split("\n\n"), new.split("\n\n")
        for block in set(old_blocks) - set(new_blocks):
            print(f"    - {' '.join(block.split())[:110]}")
        for block in set(new_blocks) - set(old_blocks):
            print(f"    + {' '.join(block.split())[:110]}")
    if not moved:
        print("  nothing: no snippet found or lost, no article page's output changed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tune", type=Path, default=ROOT.parent / "shared" / "extraction-tune")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--save", type=Path, help="keep every output in this JSON file")
    parser.add_argument("--against", type=Path, help="list what moved since this saved run")
    args = parser.parse_args()
    evaldata: Snippets = {}
    pages: list[Page] = []
    for url, spec, html in tuning_pages(args.tune):
        evaldata[url] = spec
        pages.append((f"t:{url}", url, html))
    articles = load_pages(args.tune)
    rounds = json.loads((ARTICLES / "index.json").read_text())
    golds = {name: gold for name, _, _, gold in articles}
    pages += [(f"a:{name}", url, html) for name, url, html, _ in articles]
    with Pool(args.procs) as pool:
        outputs = dict(pool.imap_unordered(render, pages, chunksize=8))
    print(f"{f'tuning corpus, {len(evaldata)} pages':<28}{tuning_score(evaldata, outputs)}")
    by_round: dict[int, list[tuple[float, float]]] = {}
    for name, gold in golds.items():
        by_round.setdefault(rounds[name]["round"], []).append(
            precision_recall(outputs[f"a:{name}"], gold)
        )
    every = [score for scores in by_round.values() for score in scores]
    print(f"{'article pages':<28}{article_score(every)}")
    for number, scores in sorted(by_round.items()):
        print(f"{f'  round {number}':<28}{article_score(scores)}")
    if args.save:
        args.save.write_text(json.dumps(outputs))
    if args.against:
        compare(evaldata, golds, json.loads(args.against.read_text()), outputs)


if __name__ == "__main__":
    main()
