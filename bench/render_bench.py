"""Clean-mode rendering speed on saved real pages, beside trafilatura called directly.

    .venv/bin/python bench/render_bench.py [--reps N] [--tune DIR [--step N]]

Prints three tables:
1. trafilatura's settings (favor_precision, fast = no fallback extractors): median CPU ms per
   page, pages/s, and quality on bench/pages/expected.json (article phrases kept, boilerplate
   phrases left out);
2. Sift's render() in-process against trafilatura alone (trafilatura.extract() with its
   defaults, and with Sift's settings): what a page through clean mode costs, as a ratio;
3. render() through RenderPool with 1 and 2 worker processes against in-process calls: wall-clock
   throughput and median latency per request, including pickling and the process hop;
4. with `--tune DIR` (the tuning corpus, ../shared/extraction-tune), the same ratio as table 2
   over every `--step`th of its 949 pages, once each, mean and median: bench/pages are long
   articles, where clean mode never asks for a second opinion, and these pages are not.
Measurements are interleaved so that other load on the machine affects every variant alike.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path

import trafilatura

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.clean_quality import tuning_pages
from sift_fetch.render import Document, RenderPool, render
from sift_fetch.render.html import EXTRACT_OPTIONS
from sift_fetch.target import Target

PAGES = Path(__file__).parent / "pages"
MAX_CHARS = 60_000


def load() -> list[tuple[str, dict, bytes]]:
    expected = json.loads((PAGES / "expected.json").read_text())
    return [
        (name, spec, (PAGES / name).read_bytes())
        for name, spec in sorted(expected.items())
        if not name.startswith("_")
    ]


def cpu_time(fn: Callable[[], object]) -> tuple[float, object]:
    """CPU seconds one call takes, and its result.

    CPU time of this process, not wall time: the in-process figures then hold on a shared
    machine where other work competes for the cores.
    """
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def quality(text: str, spec: dict) -> tuple[int, int, int, int]:
    kept = sum(phrase in text for phrase in spec["with"])
    clean = sum(phrase not in text for phrase in spec["without"])
    return kept, len(spec["with"]), clean, len(spec["without"])


def settings_table(pages: list[tuple[str, dict, bytes]], reps: int) -> None:
    variants = {
        "default (fallbacks on)": {"favor_precision": False, "fast": False},
        "favor_precision (Sift)": {"favor_precision": True, "fast": False},
        "fast (no fallback)": {"favor_precision": False, "fast": True},
        "favor_precision + fast": {"favor_precision": True, "fast": True},
    }
    docs = [(body.decode("utf-8"), spec) for _, spec, body in pages]
    samples: dict[str, list[list[float]]] = {v: [[] for _ in docs] for v in variants}
    outputs: dict[str, list[str]] = {v: [""] * len(docs) for v in variants}
    # Interleaved (every variant on every page, then again) so drift in machine load hits all
    # variants alike instead of whichever ran last.
    for _ in range(reps):
        for label, flags in variants.items():
            options = {**EXTRACT_OPTIONS, **flags}
            for index, (html, spec) in enumerate(docs):
                seconds, text = cpu_time(
                    lambda h=html, s=spec, o=options: trafilatura.extract(h, url=s["url"], **o)
                )
                samples[label][index].append(seconds)
                outputs[label][index] = str(text or "")
    print(f"1. trafilatura settings on {len(pages)} saved pages ({reps} runs each, median CPU ms)")
    print(f"{'settings':<26}{'ms/page':>9}{'pages/s':>9}{'kept':>8}{'clean':>8}{'chars':>8}")
    for label in variants:
        medians = [statistics.median(times) for times in samples[label]]
        scores = [0, 0, 0, 0]
        for text, (_, spec) in zip(outputs[label], docs, strict=True):
            scores = [a + b for a, b in zip(scores, quality(text, spec), strict=True)]
        chars = sum(len(text) for text in outputs[label])
        print(
            f"{label:<26}{statistics.median(medians) * 1e3:>9.1f}{len(docs) / sum(medians):>9.1f}"
            f"{scores[0]:>5}/{scores[1]:<2}{scores[2]:>5}/{scores[3]:<2}{chars:>8}"
        )
    print()


def overhead_table(pages: list[tuple[str, dict, bytes]], reps: int) -> None:
    calls: dict[str, Callable[[str, Document], object]] = {
        "trafilatura.extract() defaults": lambda html, doc: trafilatura.extract(html, url=doc.url),
        "trafilatura, Sift's settings": lambda html, doc: trafilatura.extract(
            html, url=doc.url, **EXTRACT_OPTIONS
        ),
        "sift render()": lambda html, doc: render(doc, Target(doc.url), MAX_CHARS),
    }
    samples: dict[str, list[list[float]]] = {label: [[] for _ in pages] for label in calls}
    for _ in range(reps):  # interleaved, as above
        for index, (_, spec, body) in enumerate(pages):
            html = body.decode("utf-8")
            doc = Document(spec["url"], "text/html", None, body)
            for label, call in calls.items():
                samples[label][index].append(
                    cpu_time(lambda c=call, h=html, d=doc: c(h, d))[0]  # type: ignore[misc]
                )
    print("2. clean mode in-process (CPU ms): Sift render() beside trafilatura alone")
    print(f"{'':<32}{'ms/page':>9}{'docs/s':>9}")
    medians = {}
    for label, times in samples.items():
        per_page = [statistics.median(t) for t in times]
        medians[label] = statistics.median(per_page)
        print(f"{label:<32}{medians[label] * 1e3:>9.1f}{len(pages) / sum(per_page):>9.1f}")
    ours = medians["sift render()"]
    for label in list(calls)[:2]:
        print(f"cost ratio (median ms, sift / {label}): {ours / medians[label]:.2f}")
    print()


def corpus_table(tune: Path, step: int) -> None:
    ours, theirs = [], []
    for url, _, html in islice(tuning_pages(tune), 0, None, step):
        doc = Document(url, "text/html", "utf-8", html.encode("utf-8"))
        ours.append(cpu_time(lambda d=doc: render(d, Target(d.url), MAX_CHARS))[0])
        theirs.append(cpu_time(lambda h=html, u=url: trafilatura.extract(h, url=u))[0])
    print(f"4. clean mode on {len(ours)} tuning pages (one in {step}, CPU ms, one run each)")
    print(f"{'':<32}{'mean ms':>9}{'median':>9}")
    print(
        f"{'trafilatura.extract() defaults':<32}{statistics.mean(theirs) * 1e3:>9.1f}"
        f"{statistics.median(theirs) * 1e3:>9.1f}"
    )
    print(
        f"{'sift render()':<32}{statistics.mean(ours) * 1e3:>9.1f}"
        f"{statistics.median(ours) * 1e3:>9.1f}"
    )
    mean_ratio = sum(ours) / sum(theirs)
    median_ratio = statistics.median(ours) / statistics.median(theirs)
    print(
        f"cost ratio (sift / trafilatura defaults): mean {mean_ratio:.2f},"
        f" median {median_ratio:.2f}"
    )


Job = tuple[Document, Target]


def inprocess_pass(jobs: list[Job]) -> tuple[list[float], float]:
    latencies = []
    start = time.perf_counter()
    for doc, target in jobs:
        began = time.perf_counter()
        render(doc, target, MAX_CHARS)
        latencies.append(time.perf_counter() - began)
    return latencies, time.perf_counter() - start


async def pool_pass(pool: RenderPool, jobs: list[Job], in_flight: int) -> tuple[list[float], float]:
    latencies: list[float] = []
    limit = asyncio.Semaphore(in_flight)

    async def one(doc: Document, target: Target) -> None:
        async with limit:
            began = time.perf_counter()
            await pool.render(doc, target, MAX_CHARS)
            latencies.append(time.perf_counter() - began)

    start = time.perf_counter()
    await asyncio.gather(*(one(doc, target) for doc, target in jobs))
    return latencies, time.perf_counter() - start


async def pool_table(pages: list[tuple[str, dict, bytes]], reps: int) -> None:
    jobs = [(Document(s["url"], "text/html", None, b), Target(s["url"])) for _, s, b in pages]
    jobs *= reps
    pools = {workers: RenderPool(workers, 2 * workers, timeout=30.0) for workers in (1, 2)}
    results: dict[str, list[tuple[list[float], float]]] = {}
    try:
        for workers, pool in pools.items():  # start the workers before measuring
            await asyncio.gather(*(pool.render(d, t, MAX_CHARS) for d, t in jobs[:workers]))
        # Alternating passes, so a burst of load elsewhere on the machine hits all three.
        for _ in range(3):
            results.setdefault("render() in-process, 1 thread", []).append(inprocess_pass(jobs))
            for workers, pool in pools.items():
                label = f"RenderPool, {workers} worker{'s' if workers > 1 else ''}"
                results.setdefault(label, []).append(await pool_pass(pool, jobs, 2 * workers))
    finally:
        for pool in pools.values():
            pool.close()
    print("3. clean mode through RenderPool (wall clock; latency includes queueing, 2 requests")
    print(f"   in flight per worker; median of 3 alternating passes of {len(jobs)} requests)")
    print(f"{'':<32}{'ms/req':>9}{'docs/s':>9}")
    rates = {}
    for label, passes in results.items():
        latency = statistics.median(statistics.median(lat) for lat, _ in passes)
        rates[label] = statistics.median(len(lat) / elapsed for lat, elapsed in passes)
        print(f"{label:<32}{latency * 1e3:>9.1f}{rates[label]:>9.1f}")
    base = rates["render() in-process, 1 thread"]
    for label, rate in rates.items():
        if label.startswith("RenderPool"):
            print(f"{label} throughput / in-process: {rate / base:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=15, help="runs per page (default 15)")
    parser.add_argument("--tune", type=Path, help="the tuning corpus, for table 4")
    parser.add_argument("--step", type=int, default=3, help="every STEPth tuning page (3)")
    args = parser.parse_args()
    reps = args.reps
    pages = load()
    size = sum(len(body) for _, _, body in pages)
    load1, _, _ = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load1:.2f} at start")
    print(
        f"{len(pages)} pages, {size / 1024:.0f} KiB of HTML; Sift clean settings: "
        f"favor_precision={EXTRACT_OPTIONS['favor_precision']}, fast={EXTRACT_OPTIONS['fast']}\n"
    )
    settings_table(pages, reps)
    overhead_table(pages, reps)
    asyncio.run(pool_table(pages, reps))
    if args.tune:
        print()
        corpus_table(args.tune, args.step)


if __name__ == "__main__":
    main()
