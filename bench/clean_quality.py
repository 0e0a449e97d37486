"""Clean-mode quality: Sift beside trafilatura alone, on the tuning corpus and the saved pages.

    .venv/bin/python bench/clean_quality.py [--tune DIR] [--limit N] [--leaks]

1. The extraction tuning corpus (default ../shared/extraction-tune beside the repository: real
   pages with snippets that must and must not appear): its own score.py prints precision,
   recall, F1 and pages/s for Sift's render() and for trafilatura.extract() with its defaults.
2. The saved pages in bench/pages/ (expected.json): article phrases kept, boilerplate left out.

`--leaks`: where Sift loses on the tuning corpus instead, counted by kind (bench/leak_kinds.py):
the snippets that must not appear and do, and those that must and do not.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import trafilatura

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.leak_kinds import kind
from sift_fetch.render import Document, render
from sift_fetch.target import Target

ROOT = Path(__file__).resolve().parent.parent

PAGES = Path(__file__).parent / "pages"
MAX_CHARS = 1_000_000  # never cut: the score is about what is extracted


def sift(html: str, url: str) -> str:
    doc = Document(url, "text/html", "utf-8", html.encode("utf-8"))
    return render(doc, Target(url), MAX_CHARS).content


def trafilatura_alone(html: str, url: str) -> str | None:
    return trafilatura.extract(html, url=url)


EXTRACTORS = {"sift clean": "sift", "trafilatura alone": "trafilatura_alone"}


def tuning_corpus(tune: Path, limit: int) -> None:
    print(f"1. {tune} (score.py)")
    for label, function in EXTRACTORS.items():
        command = [sys.executable, str(tune / "score.py"), f"bench.clean_quality:{function}"]
        if limit:
            command += ["--limit", str(limit)]
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
        print(f"{label:<20}{result.stdout.strip().splitlines()[-1]}")
    print()


def words_only(text: str) -> str:
    """As the corpus's score.py compares: Markdown markup and whitespace do not count."""
    return re.sub(r"\s+", " ", re.sub(r"[*_`#>|\\]", "", text)).strip()


def tuning_pages(tune: Path) -> Iterator[tuple[str, dict[str, list[str]], str]]:
    """The tuning corpus's pages as its score.py reads them: (URL, snippets, HTML)."""
    evaldata = json.loads((tune / "evaldata.json").read_text("utf-8"))
    for url, spec in evaldata.items():
        html = gzip.decompress((tune / "pages" / f"{spec['file']}.gz").read_bytes())
        yield url, spec, html.decode("utf-8", "replace")


def leaks(tune: Path, limit: int) -> None:
    leaked: Counter[str] = Counter()
    cut: Counter[str] = Counter()
    for url, spec, html in islice(tuning_pages(tune), limit or None):
        text = words_only(sift(html, url))
        leaked.update(kind(s) for s in spec["without"] if words_only(s) in text)
        cut.update(kind(s) for s in spec["with"] if words_only(s) not in text)
    print(f"sift clean on {tune.name}: snippets that leaked, and that were cut, by kind")
    print("leaked: " + "  ".join(f"{name} {n}" for name, n in leaked.most_common()))
    print("cut:    " + "  ".join(f"{name} {n}" for name, n in cut.most_common()))


def saved_pages() -> None:
    expected = json.loads((PAGES / "expected.json").read_text())
    pages = {name: spec for name, spec in sorted(expected.items()) if not name.startswith("_")}
    print(f"2. bench/pages ({len(pages)} saved pages): article phrases kept, boilerplate left out")
    functions = {"sift clean": sift, "trafilatura alone": trafilatura_alone}
    for label, function in functions.items():
        kept = with_total = clean = without_total = 0
        for name, spec in pages.items():
            text = function((PAGES / name).read_text("utf-8"), spec["url"]) or ""
            kept += sum(phrase in text for phrase in spec["with"])
            clean += sum(phrase not in text for phrase in spec["without"])
            with_total += len(spec["with"])
            without_total += len(spec["without"])
        print(f"{label:<20}kept {kept}/{with_total}  clean {clean}/{without_total}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tune", type=Path, default=ROOT.parent / "shared" / "extraction-tune")
    parser.add_argument("--limit", type=int, default=0, help="first N tuning pages only")
    parser.add_argument("--leaks", action="store_true", help="Sift's losses by kind, only")
    args = parser.parse_args()
    if args.leaks:
        leaks(args.tune.resolve(), args.limit)
        return
    if (args.tune / "score.py").exists():
        tuning_corpus(args.tune.resolve(), args.limit)
    else:
        print(f"1. skipped: no score.py in {args.tune}\n")
    saved_pages()


if __name__ == "__main__":
    main()
