"""A round's gold texts made from its picks (bench/articles/roundN.picks), and checked against them.

    .venv/bin/python bench/picks.py check [--tune DIR]
    .venv/bin/python bench/picks.py add ROUND FOLDER PICKS_FILE... [--tune DIR]

A picks line is `<name> <ranges>[ ns]`: the page's file without `.html`, the lines of its
`bench/visible_lines.py` listing that are the article (`ns`: `<noscript>` counted as visible).
`check` makes every gold text again from its page and its picks and lists those that differ, so
that a gold text stays what its picks say. `add` files a blind round's pages: each page of an
English pool (`<package>.<file>` names the page FOLDER/<file>.html) is saved gzipped in
`english/`, its gold text written, its entry added to the index (its URL the page's canonical
link, or `http://<package>.fixtures.invalid/<file>.html` where it has none) and its picks line
appended to the round's picks file.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.article_quality import ARTICLES, ROOT, english_page
from bench.blind_order import page_url, site
from bench.visible_lines import picked, visible_lines

INDEX = ARTICLES / "index.json"


def gold_text(html: str, line: str) -> str:
    """The gold text a picks LINE makes of the page HTML."""
    _, ranges, *flags = line.split()
    lines = visible_lines(html, flags == ["ns"])
    return "".join(f"{lines[number]}\n" for number in picked(ranges))


def check(tune: Path) -> int:
    """Gold texts that their picks do not make again; pages that are not here are skipped."""
    index = json.loads(INDEX.read_text("utf-8"))
    by_file = {spec["file"]: (key, spec) for key, spec in index.items()}
    checked, differ = 0, 0
    for picks in sorted(ARTICLES.glob("round*.picks")):
        for line in picks.read_text("utf-8").splitlines():
            name = line.split()[0]
            # A tuning page whose file name has spaces is named by its key, with hyphens.
            key, spec = by_file.get(f"{name}.html") or (f"{name}.txt", index[f"{name}.txt"])
            if spec["source"] == "english":
                raw = english_page(spec)
            elif (page := tune / "pages" / f"{spec['file']}.gz").exists():
                raw = gzip.decompress(page.read_bytes())
            else:
                continue
            checked += 1
            if gold_text(raw.decode("utf-8", "replace"), line) != (ARTICLES / key).read_text():
                differ += 1
                print(f"{picks.name}: {key} differs from its picks")
    print(f"{checked} gold texts checked against their picks, {differ} differ")
    return differ


def add(number: int, folder: Path, picks_files: list[Path]) -> None:
    index = json.loads(INDEX.read_text("utf-8"))
    lines = [line for path in picks_files for line in path.read_text("utf-8").splitlines() if line]
    files = {spec["file"] for spec in index.values()}
    entries = []
    # Every page is named and checked before anything is written, so that a name taken already
    # leaves no page of the round half filed.
    for line in lines:
        package, stem = line.split()[0].split(".", 1)
        raw = (folder / f"{stem}.html").read_bytes()
        html = raw.decode("utf-8", "replace")
        url = page_url("", html)
        if not url.startswith("http"):
            url = f"http://{package}.fixtures.invalid/{stem}.html"
        key, file = f"{site(url) or package}.{stem}.txt", f"{package}.{stem}.html"
        if key in index or file in files:
            raise SystemExit(f"{key} ({file}) is in the index already")
        index[key] = {"file": file, "source": "english", "url": url, "round": number}
        files.add(file)
        entries.append((key, file, raw, html, line))
    for key, file, raw, html, line in entries:
        (ARTICLES / key).write_text(gold_text(html, line), "utf-8")
        (ARTICLES / "english" / f"{file}.gz").write_bytes(gzip.compress(raw, mtime=0))
        print(key)
    INDEX.write_text(json.dumps(index, indent=1) + "\n")
    with (ARTICLES / f"round{number}.picks").open("a", encoding="utf-8") as out:
        out.write("".join(f"{line}\n" for line in lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tune", type=Path, default=ROOT.parent / "shared" / "extraction-tune")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check")
    adding = commands.add_parser("add")
    adding.add_argument("round", type=int)
    adding.add_argument("folder", type=Path)
    adding.add_argument("picks", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "check":
        sys.exit(1 if check(args.tune) else 0)
    add(args.round, args.folder, args.picks)


if __name__ == "__main__":
    main()
