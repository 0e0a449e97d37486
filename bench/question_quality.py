"""Question-mode quality: answer recall and tokens returned, on the tuning questions.

    .venv/bin/python bench/question_quality.py [--tune DIR] [--limit N]

Runs the tuning set's own score.py (default ../shared/qa-tune beside the repository: long pages
and questions with gold answers) on Sift's render() with `question`, and on the whole clean page
for scale (every answer, at the cost of every token). Tokens are cl100k_base's with the `bench`
extra installed (`pip install -e '.[bench]'`), else words x 1.3.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sift_fetch.render import Document, render
from sift_fetch.target import Target

ROOT = Path(__file__).resolve().parent.parent

MAX_CHARS = 1_000_000


def _render(html: str, url: str, question: str | None) -> str:
    doc = Document(url, "text/html", "utf-8", html.encode("utf-8"))
    return render(doc, Target(url, question=question), MAX_CHARS).content


def sift(html: str, url: str, question: str) -> str:
    return _render(html, url, question)


def whole_page(html: str, url: str, question: str) -> str:
    return _render(html, url, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tune", type=Path, default=ROOT.parent / "shared" / "qa-tune")
    parser.add_argument("--limit", type=int, default=0, help="first N questions only")
    args = parser.parse_args()
    for label, function in {"sift question": "sift", "whole clean page": "whole_page"}.items():
        command = [sys.executable, str(args.tune.resolve() / "score.py")]
        command += [f"bench.question_quality:{function}"]
        if args.limit:
            command += ["--limit", str(args.limit)]
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
        print(f"{label:<18}{result.stdout.strip().splitlines()[-1]}")


if __name__ == "__main__":
    main()
