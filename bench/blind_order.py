"""The order in which rounds 7-9 of bench/articles/ were drawn, and later rounds can go on.

    .venv/bin/python bench/blind_order.py [--tune DIR] [--start N] [--count N]

The rule was fixed before any page was looked at (bench/articles/README.md, seventh round): the
tuning corpus's entries whose URL (the key, or for an entry keyed without one the page's
canonical link or `og:url`) has an article-like path, on a site (`tld.get_fld`) that no page of
rounds 1-6 is on; pages whose visible text is a fifth or more Han, Kana, Thai, Lao, Khmer,
Myanmar or Tibetan letters left out; sorted by URL, shuffled with `random.Random(2030)`, the first
page met of each site. Rounds 7-9 took candidates 0-143, in slices of 12, the first five pages
judged articles in each slice. Prints one candidate a line, numbered: site, tuning file, URL.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from pathlib import Path

import lxml.html
from tld import get_fld

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.article_quality import ARTICLES, ROOT
from bench.visible_lines import visible_lines

SEED = 2030
FIRST_BLIND_ROUND = 7
_ARTICLE_PATH = re.compile(r"[/-](?:19|20)\d\d[/-]|/news/|/blogs?/|/article|/(?:[^/]*-){4,}[^/]*")
_UNSPACED = re.compile(
    r"[\u4e00-\u9fff\u3040-\u30ff\u0e00-\u0eff\u1780-\u17ff\u1000-\u109f\u0f00-\u0fff]"
)


def site(url: str) -> str:
    return str(get_fld(url, fail_silently=True) or "")


def unspaced(html: str) -> bool:
    """Whether a fifth or more of the page's visible letters are of scripts written without
    spaces between words, where word 4-grams mean nothing."""
    text = "".join(visible_lines(html))
    return len(_UNSPACED.findall(text)) >= 0.2 * max(sum(c.isalpha() for c in text), 1)


def page_url(key: str, html: str) -> str:
    """The entry's URL: its key, or the page's canonical link or og:url."""
    if key.startswith("http"):
        return key
    try:
        tree = lxml.html.fromstring(html.encode())
    except (ValueError, lxml.etree.ParserError):
        return ""
    found = tree.xpath("//link[@rel='canonical']/@href") or tree.xpath(
        "//meta[@property='og:url']/@content"
    )
    return str(found[0]).strip() if found else ""


def candidates(tune: Path) -> list[dict[str, str]]:
    index = json.loads((ARTICLES / "index.json").read_text("utf-8"))
    known = {site(spec["url"]) for spec in index.values() if spec["round"] < FIRST_BLIND_ROUND}
    evaldata = json.loads((tune / "evaldata.json").read_text("utf-8"))
    rows = []
    for key, spec in evaldata.items():
        raw = gzip.decompress((tune / "pages" / f"{spec['file']}.gz").read_bytes())
        html = raw.decode("utf-8", "replace")
        url = page_url(key, html)
        name = site(url) if url.startswith("http") else ""
        if not name or name in known:
            continue
        if not _ARTICLE_PATH.search(re.sub(r"^https?://[^/]+", "", url)):
            continue
        if unspaced(html):
            continue
        rows.append((url, spec["file"], name))
    rows.sort()
    random.Random(SEED).shuffle(rows)
    seen: set[str] = set()
    order = []
    for url, file, name in rows:
        if name not in seen:
            seen.add(name)
            order.append({"site": name, "file": file, "url": url})
    return order


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--tune",
        type=Path,
        default=ROOT.parent / "shared" / "extraction-tune",
    )
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=12)
    args = parser.parse_args()
    order = candidates(args.tune)
    for number, row in enumerate(order[args.start : args.start + args.count], args.start):
        print(number, row["site"], row["file"], row["url"])


if __name__ == "__main__":
    main()
