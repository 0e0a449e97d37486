"""Clean mode on article pages with full gold text, scored as held-out article benchmarks are.

    .venv/bin/python bench/article_quality.py [--tune DIR] [--blocks] [--only NAME] [--round N]

Each page in bench/articles/ has the whole text of its article written out by hand
(bench/articles/README.md says how); an extraction is scored by the overlap of word 4-grams
with it: precision (share of the extraction's 4-grams that are in the article), recall (share of
the article's 4-grams extracted), per page, then averaged over pages; F1 from the two means.
So a leaked byline, caption, "related" list or comment costs precision, a cut paragraph recall.

Besides the scores it prints where the words were lost: extracted blocks (lines) that are mostly
not article, counted by what they look like (byline, caption, share, related, newsletter,
comment, ...: bench/leak_kinds.py), and article lines mostly missing from the extraction.
`--blocks` lists them.

The scorer knows nothing of Sift: an extractor is any `function(html, url) -> str | None`.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import trafilatura

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.clean_quality import sift
from bench.leak_kinds import kind

ROOT = Path(__file__).resolve().parent.parent
ARTICLES = Path(__file__).parent / "articles"
PAGES = Path(__file__).parent / "pages"
N = 4
# As the held-out benchmark tokenizes: runs of word characters, case kept. Markdown's own marks
# (`#`, `*`, `>`, `|`, backslashes) are not word characters, so they cost nothing, but an escaped
# underscore splits an identifier in two, as it would there.
_TOKEN = re.compile(r"\w+")
# A block counts as leaked (or an article line as cut) when under this share of its 4-grams
# is in the article (or in the extraction).
MOSTLY = 0.5


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def shingles(text: str) -> Counter[tuple[str, ...]]:
    words = tokens(text)
    return Counter(tuple(words[i : i + N]) for i in range(len(words) - N + 1))


def precision_recall(extracted: str, gold: str) -> tuple[float, float]:
    got, want = shingles(extracted), shingles(gold)
    common = sum((got & want).values())
    precision = common / sum(got.values()) if got else 0.0
    recall = common / sum(want.values()) if want else 1.0
    return precision, recall


def lost_lines(text: str, reference: str) -> list[str]:
    """Lines of `text` with under MOSTLY of their 4-grams in `reference`; a line of under four
    words is lost when one of its words is missing there."""
    have, vocabulary = shingles(reference), set(tokens(reference))
    lost = []
    for line in text.splitlines():
        own, words = shingles(line), tokens(line)
        if own:
            missing = sum((own & have).values()) < MOSTLY * own.total()
        else:
            missing = not set(words) <= vocabulary
        if missing:
            lost.append(line.strip())
    return lost


def saved_html(spec: dict[str, str]) -> str:
    """A page kept in this repository: bench/pages/, or the English rounds' pages."""
    if spec["source"] == "english":
        return english_page(spec).decode("utf-8", "replace")
    return (PAGES / spec["file"]).read_text("utf-8")


def english_page(spec: dict[str, str]) -> bytes:
    """An English round's page as it was saved (gzipped in bench/articles/english/)."""
    return gzip.decompress((ARTICLES / "english" / f"{spec['file']}.gz").read_bytes())


def load_pages(tune: Path, rounds: set[int] | None = None) -> list[tuple[str, str, str, str]]:
    """(name, url, html, gold) for every gold text whose page is here (of those rounds only, if
    given: a round's pages were drawn after the rules before it were chosen)."""
    index = json.loads((ARTICLES / "index.json").read_text())
    pages = []
    missing = 0
    for name, spec in sorted(index.items()):
        if rounds and spec["round"] not in rounds:
            continue
        if spec["source"] != "tune":
            html = saved_html(spec)
        elif (tune / "pages" / f"{spec['file']}.gz").exists():
            raw = gzip.decompress((tune / "pages" / f"{spec['file']}.gz").read_bytes())
            html = raw.decode("utf-8", "replace")
        else:
            missing += 1
            continue
        pages.append((name, spec["url"], html, (ARTICLES / name).read_text("utf-8")))
    if missing:
        print(f"({missing} pages skipped: not in {tune}/pages)")
    return pages


def trafilatura_defaults(html: str, url: str) -> str | None:
    return trafilatura.extract(html, url=url)


def trafilatura_precise(html: str, url: str) -> str | None:
    """trafilatura's best published setting on article pages: no comments, favor precision."""
    return trafilatura.extract(html, url=url, include_comments=False, favor_precision=True)


def sift_at_filing(html: str, url: str) -> str | None:
    """Clean mode as issue 9 found it (80cc852): trafilatura's own Markdown, no precision mode,
    no fallbacks. Its held-out F1 is known (0.959), so what clean mode gained over it on pages
    no rule was chosen with in view, added to that, estimates clean mode's held-out figure."""
    return trafilatura.extract(
        html,
        url=url,
        output_format="markdown",
        include_links=False,
        include_images=False,
        include_comments=False,
        deduplicate=False,
        fast=True,
    )


EXTRACTORS: dict[str, Callable[[str, str], str | None]] = {
    "sift clean": sift,
    "sift at filing": sift_at_filing,
    "trafilatura defaults": trafilatura_defaults,
    "trafilatura precise": trafilatura_precise,
}


def score(
    label: str,
    extract: Callable[[str, str], str | None],
    pages: list[tuple[str, str, str, str]],
    show_blocks: bool,
) -> None:
    precisions, recalls = [], []
    leaked: Counter[str] = Counter()
    cut = 0
    details = []
    for name, url, html, gold in pages:
        text = extract(html, url) or ""
        precision, recall = precision_recall(text, gold)
        precisions.append(precision)
        recalls.append(recall)
        extra = lost_lines(text, gold)
        missing = lost_lines(gold, text)
        leaked.update(kind(line) for line in extra)
        cut += len(missing)
        details.append((name, precision, recall, extra, missing))
    p, r = statistics.mean(precisions), statistics.mean(recalls)
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    kinds = "  ".join(f"{k} {n}" for k, n in leaked.most_common())
    print(f"{label:<22}P {p:.3f}  R {r:.3f}  F1 {f1:.3f}   leaked: {kinds or '-'}; cut {cut}")
    if show_blocks:
        for name, precision, recall, extra, missing in details:
            if extra or missing:
                print(f"  {name}: P {precision:.2f} R {recall:.2f}")
                for line in extra:
                    print(f"    + [{kind(line)}] {line[:110]}")
                for line in missing:
                    print(f"    - {line[:110]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tune", type=Path, default=ROOT.parent / "shared" / "extraction-tune")
    parser.add_argument("--blocks", action="store_true", help="list leaked and cut lines")
    parser.add_argument("--only", help="one extractor, by label")
    parser.add_argument(
        "--round", type=int, action="append", help="only the pages drawn in this round"
    )
    args = parser.parse_args()
    pages = load_pages(args.tune, set(args.round) if args.round else None)
    print(f"{len(pages)} article pages with full gold text (bench/articles), word 4-grams")
    for label, extract in EXTRACTORS.items():
        if args.only in (None, label):
            score(label, extract, pages, args.blocks)


if __name__ == "__main__":
    main()
