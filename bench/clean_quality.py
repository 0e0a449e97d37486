"""Clean-mode quality: Sift beside trafilatura alone, on the tuning corpus and the saved pages.

    .venv/bin/python bench/clean_quality.py [--tune DIR] [--limit N]

1. The extraction tuning corpus (default ../shared/extraction-tune beside the repository: real
   pages with snippets that must and must not appear): its own score.py prints precision,
   recall, F1 and pages/s for Sift's render() and for trafilatura.extract() with its defaults.
2. The saved pages in bench/pages/ (expected.json): article phrases kept, boilerplate left out.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import trafilatura

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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
    args = parser.parse_args()
    if (args.tune / "score.py").exists():
        tuning_corpus(args.tune.resolve(), args.limit)
    else:
        print(f"1. skipped: no score.py in {args.tune}\n")
    saved_pages()


if __name__ == "__main__":
    main()
