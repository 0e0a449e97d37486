"""Clean mode's held-out F1, estimated from the blind rounds with clean mode as each was drawn.

    .venv/bin/python bench/blind_estimate.py [--tune DIR] [--resamples N] [--level L]
        [--round N ...]

The rounds of bench/articles/ from the fifth on were scored before any rule was chosen from
their failures; later rules were, so today's clean mode overstates itself there. This checks
out, in a git worktree under the system's temporary directory, the revision each round was
drawn at (DRAWN, from bench/articles/README.md) and scores its pages with that revision's clean
mode, beside trafilatura precise and clean mode as the issue found it. The held-out benchmark's
figures for those two (HELD_OUT) plus clean mode's lead over each, pooled over the pages, are
the two estimates; a bootstrap over the pages gives each a 95% interval. `--round` keeps only
those rounds (the latest ones, drawn with the rules as they are, estimate today's clean mode).

A lead is not the same on every page: where trafilatura precise does well clean mode has little
to add, and where it fails clean mode's rules win most (round 24's 2013 pages: precise 0.904,
clean mode +0.057). The held-out pages are easier than the blind rounds taken together (precise
0.964 there), so the lead, added, overstates. The third estimate matches the difficulty: the
pages are weighted by exp(λ · precise's F1 on the page), λ chosen so that precise scores on the
weighted pages what it scores on the held-out set, and clean mode's F1 on the same weighted
pages is the estimate (the weights lean on pages precise did well on, luck included, so if
anything it understates). The fourth matches both baselines at once, exp(λ₁ · precise's page F1
+ λ₂ · clean mode as filed's): the held-out figures of both are known, and together they tell
more of what the held-out pages are like (hard for precision mode, or for trafilatura's defaults,
which clean mode as filed is) than one alone.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.article_quality import ROOT

# The revision each blind round was drawn and first scored at.
DRAWN = {
    5: "f8cc446",
    6: "815b84f",
    7: "283e731",
    8: "6b72c36",
    9: "87e36c9",
    10: "95ace45",
    11: "95ace45",
    12: "7feff07",
    13: "7feff07",
    14: "077141f",
    15: "077141f",
    16: "a158407",
    17: "f9296f1",
    18: "775f6b4",
    19: "0a08e90",
    # Before any rule chosen from rounds 17-19, whose sites round 20 shares.
    20: "e4c24e5",
    21: "cd14fb3",
    # Before any rule chosen from round 21, whose sites round 22 shares, and from rounds 17-20,
    # whose sites round 23 shares.
    22: "cd14fb3",
    23: "e4c24e5",
    24: "a89e1d8",
    25: "8b3a594",
    26: "ad2a89d",
    27: "ad2a89d",
    # No rule was chosen from round 25, whose sites round 28 shares.
    28: "ad2a89d",
    29: "b1be704",
    # No rule is chosen from round 29, whose sites round 30 shares, before round 30 is scored.
    30: "b1be704",
    31: "074b3aa",
    32: "074b3aa",
    33: "5b275a6",
    34: "2d7b563",
    35: "2a035cf",
    36: "4ad606b",
    37: "395e2f8",
    38: "e11b3c3",
    39: "26833f6",
    40: "2443b48",
    41: "21a0071",
    42: "0352f6e",
    43: "83c0bf2",
    44: "cd1b9ca",
    45: "0edd85f",
    46: "9738828",
    47: "4af7d04",
    48: "bc00b56",
    49: "f443a87",
    50: "61a5ed5",
    51: "702901a",
    52: "2c5608e",
    53: "6ffb172",
    54: "d76a7c9",
    55: "01b3ee2",
    56: "232f0c6",
    57: "8211c30",
    58: "fc9e5cb",
}
# The held-out benchmark's F1 for the baselines (issue 9): trafilatura precise, clean mode as
# the issue found it.
HELD_OUT = {"trafilatura precise": 0.964, "sift at filing": 0.959}
EXTRACTORS = ("sift", "trafilatura_precise", "sift_at_filing")
# Run with the worktree first on the path, so that `sift` is that revision's clean mode; then
# with this checkout first (`bench` is a namespace package, searched along the path as it is
# now), so that the scorer and the baselines are today's.
_SCORE = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from bench.clean_quality import sift
sys.path.insert(0, sys.argv[2])
from bench import article_quality as aq
extract = {"sift": sift, "trafilatura_precise": aq.trafilatura_precise,
           "sift_at_filing": aq.sift_at_filing}
rounds = {int(r) for r in sys.argv[4].split(",")}
rows = [[aq.precision_recall(extract[e](html, url) or "", gold) for e in sys.argv[5].split(",")]
        for _, url, html, gold in aq.load_pages(Path(sys.argv[3]), rounds)]
print(json.dumps(rows))
"""
# A page's scores: (precision, recall) for each of EXTRACTORS.
Page = list[tuple[float, float]]


def drawn_scores(tune: Path, workdir: Path, rounds: set[int]) -> dict[int, list[Page]]:
    by_round: dict[int, list[Page]] = {}
    for commit in sorted({DRAWN[number] for number in rounds}):
        tree = workdir / commit
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(tree), commit],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        try:
            for number in sorted(r for r in rounds if DRAWN[r] == commit):
                command = [sys.executable, "-c", _SCORE, str(tree), str(ROOT), str(tune)]
                command += [str(number), ",".join(EXTRACTORS)]
                out = subprocess.run(command, check=True, capture_output=True, text=True)
                by_round[number] = json.loads(out.stdout.splitlines()[-1])
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT)
    return by_round


def f1(pages: list[Page], extractor: int, weights: list[float] | None = None) -> float:
    weights = weights or [1.0] * len(pages)
    total = sum(weights)
    p = sum(w * page[extractor][0] for page, w in zip(pages, weights, strict=True)) / total
    r = sum(w * page[extractor][1] for page, w in zip(pages, weights, strict=True)) / total
    return 2 * p * r / (p + r) if p + r else 0.0


def matched(pages: list[Page], targets: dict[int, float]) -> float:
    """Clean mode's F1 on PAGES weighted by exp(Σ λ_b · baseline b's F1 on the page), the λs
    such that each baseline's weighted F1 is its TARGET (see above)."""
    baselines = list(targets)
    rows = [[f1([page], b) - 1 for b in baselines] for page in pages]

    def weights(lam: list[float]) -> list[float]:
        return [math.exp(sum(k * x for k, x in zip(lam, row, strict=True))) for row in rows]

    def gaps(lam: list[float]) -> list[float]:
        w = weights(lam)
        return [f1(pages, b, w) - targets[b] for b in baselines]

    lam, step = [0.0] * len(baselines), 1e-4
    for _ in range(60):  # Newton's method, the Jacobian by differences
        gap = gaps(lam)
        if max(map(abs, gap)) < 1e-7:
            break
        moved = [gaps([k + step * (i == j) for i, k in enumerate(lam)]) for j in range(len(lam))]
        jacobian = [
            [(moved[j][i] - gap[i]) / step for j in range(len(lam))] for i in range(len(lam))
        ]
        # Steps bounded, and λ too: on a few pages a target can be out of reach, and then the
        # weights go to the pages nearest it, as far as the bound lets them.
        steps = [max(-10.0, min(10.0, d)) for d in _solve(jacobian, gap)]
        lam = [max(-100.0, min(100.0, k - d)) for k, d in zip(lam, steps, strict=True)]
    return f1(pages, 0, weights(lam))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a·x = b (Gauss-Jordan; a is one or two rows here)."""
    n = len(b)
    m = [[*row, value] for row, value in zip(a, b, strict=True)]
    for i in range(n):
        pivot = max(range(i, n), key=lambda r: abs(m[r][i]))
        if abs(m[pivot][i]) < 1e-12:
            return [0.0] * n  # flat: the weights are all on one page, nowhere to go
        m[i], m[pivot] = m[pivot], m[i]
        for r in range(n):
            if r != i:
                factor = m[r][i] / m[i][i]
                m[r] = [x - factor * y for x, y in zip(m[r], m[i], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tune", type=Path, default=ROOT.parent / "shared" / "extraction-tune")
    parser.add_argument("--resamples", type=int, default=4000)
    parser.add_argument("--round", type=int, action="append", choices=sorted(DRAWN))
    # A test's second look at a growing set of rounds asks for a wider interval (stop 39).
    parser.add_argument("--level", type=float, default=0.95, help="the intervals' coverage")
    args = parser.parse_args()
    level = f"{100 * args.level:g}%"
    with tempfile.TemporaryDirectory() as workdir:
        by_round = drawn_scores(args.tune, Path(workdir), set(args.round or DRAWN))
    print(f"{'round':<8}{'pages':>6}" + "".join(f"{e:>22}" for e in EXTRACTORS))
    for number, pages in sorted(by_round.items()):
        figures = "".join(f"{f1(pages, i):>22.4f}" for i in range(len(EXTRACTORS)))
        print(f"{number:<8}{len(pages):>6}{figures}")
    pages = [page for round_pages in by_round.values() for page in round_pages]
    rng = random.Random(2027)
    samples = [[rng.choice(pages) for _ in pages] for _ in range(args.resamples)]
    low, high = _bounds(args.resamples, args.level)
    for i, (baseline, held_out) in enumerate(HELD_OUT.items(), start=1):
        lead = f1(pages, 0) - f1(pages, i)
        leads = sorted(f1(sample, 0) - f1(sample, i) for sample in samples)
        ends = f"{held_out + leads[low]:.3f}-{held_out + leads[high]:.3f}"
        print(
            f"lead over {baseline} {lead:+.4f} on {len(pages)} pages: held-out estimate "
            f"{held_out + lead:.3f} ({level} {ends})"
        )
    # Matched to precise's held-out figure, then to both baselines' (each holds what is known
    # of the held-out pages: how hard they are for precision mode and for trafilatura's defaults).
    for label, targets in (
        ("trafilatura precise's held-out", {1: HELD_OUT["trafilatura precise"]}),
        ("both baselines' held-out", {i: HELD_OUT[b] for i, b in enumerate(HELD_OUT, start=1)}),
    ):
        estimate = matched(pages, targets)
        estimates = sorted(matched(sample, targets) for sample in samples[: args.resamples // 10])
        low, high = _bounds(len(estimates), args.level)
        print(
            f"pages weighted to {label} {'/'.join(map(str, targets.values()))}: held-out "
            f"estimate {estimate:.3f} ({level} {estimates[low]:.3f}-{estimates[high]:.3f})"
        )


def _bounds(count: int, level: float) -> tuple[int, int]:
    """The indices of a central LEVEL interval's ends among COUNT sorted bootstrap figures."""
    tail = (1 - level) / 2
    return round(tail * count), round((1 - tail) * count) - 1


if __name__ == "__main__":
    main()
