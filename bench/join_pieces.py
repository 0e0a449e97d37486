"""Join a page copied out of the search tool's index in pieces, and check the copy's length.

    .venv/bin/python bench/join_pieces.py PIECES_FOLDER TOTAL_CHARS OUT_FILE

The index's reader returns a file 16,000 characters at a time; a helper session writes each
piece it was given, exactly, to PIECES_FOLDER/<offset> (0, 16000, 32000, ...), with the brief in
bench/articles/copy_brief.md. Rounds 35 and 36 were copied so. OUT_FILE (UTF-8) is written only
when the pieces follow on from one another and their length is the index's count, TOTAL_CHARS.

A page saved with Windows line ends comes through the copying session without its carriage
returns (round 37's accu.org page). HTML's parsing turns CR LF into LF before anything reads the
text, so such a copy is the same document; it is taken when the whole falls short by exactly its
line breaks, every one of them, and each piece by its own (one more or less where a CR LF is
split between two pieces). A shortfall of some other size is a character the copy lost, not a
line end: round 39's gflownet page lost two in its formulas and was first taken for a page with
two CR LFs. It says so, and by how many characters.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

PIECE = 16_000  # characters the index's reader returns a call


def join(pieces: Path, total: int) -> tuple[str, int]:
    """The pieces' text and the carriage returns it lacks, or SystemExit saying where the copy
    is wrong."""
    paths = sorted(pieces.iterdir(), key=lambda path: int(path.name))
    if [int(path.name) for path in paths] != list(range(0, PIECE * len(paths), PIECE)):
        sys.exit(f"{pieces}: the pieces are not at every {PIECE} characters from 0")
    # Without newline translation: a piece that kept a page's CR LF holds 16,000 characters, and
    # Python's universal newlines would count (and write) them as LF alone (round 45's
    # motherjones.com, three CR LF lines in a script).
    texts = [_read(path) for path in paths]
    for path, piece in zip(paths[:-1], texts[:-1], strict=True):
        if not _line_ends_only(PIECE - len(piece), piece.count("\n"), slack=1):
            sys.exit(f"{path}: {len(piece)} characters, not {PIECE}")
    text = "".join(texts)
    if not _line_ends_only(total - len(text), text.count("\n"), slack=0):
        sys.exit(f"{pieces}: the copy has {len(text)} characters, the index {total}")
    return text, total - len(text)


def _read(path: Path) -> str:
    with path.open(encoding="utf-8", newline="") as piece:
        return piece.read()


def _line_ends_only(short: int, line_breaks: int, slack: int) -> bool:
    """Whether a copy SHORT characters short is exact, or lacks the CR of every line break."""
    return short == 0 or (short > 0 and abs(short - line_breaks) <= slack)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pieces", type=Path)
    parser.add_argument("total", type=int)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text, returns = join(args.pieces, args.total)
    with args.out.open("w", encoding="utf-8", newline="") as out:
        out.write(text)
    lacking = f", without {returns} carriage returns" if returns else ""
    print(f"{args.out}: OK {args.total}{lacking}")


if __name__ == "__main__":
    main()
