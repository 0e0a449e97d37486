"""Join a page copied out of the search tool's index in pieces, and check the copy's length.

    .venv/bin/python bench/join_pieces.py PIECES_FOLDER TOTAL_CHARS OUT_FILE

The index's reader returns a file 16,000 characters at a time; a helper session writes each
piece it was given, exactly, to PIECES_FOLDER/<offset> (0, 16000, 32000, ...), with the brief in
bench/articles/copy_brief.md. Rounds 35 and 36 were copied so. OUT_FILE (UTF-8) is written only
when the pieces follow on from one another and their length is the index's count, TOTAL_CHARS.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def join(pieces: Path, total: int) -> str:
    """The pieces' text, or SystemExit saying where the copy is wrong."""
    text = ""
    for piece in sorted(pieces.iterdir(), key=lambda path: int(path.name)):
        if int(piece.name) != len(text):
            sys.exit(f"{pieces}: a piece at {piece.name}, where {len(text)} was expected")
        text += piece.read_text("utf-8")
    if len(text) != total:
        sys.exit(f"{pieces}: the copy has {len(text)} characters, the index {total}")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pieces", type=Path)
    parser.add_argument("total", type=int)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(join(args.pieces, args.total), "utf-8")
    print(f"{args.out}: OK {args.total}")


if __name__ == "__main__":
    main()
