"""Our batch overhead: a real worker process draining a 32-target job from a local site, against
fetching the same 32 pages serially with `fetch_target` in a plain loop; SQLite and PostgreSQL.

Every round uses fresh URLs (a query string), so neither side is served from the cache.

    .venv/bin/python bench/batch_drain.py [--rounds 5] [--targets 32] [--db both]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import anyio
from batch_common import WorkerProcess, article, db_args, dbs, fresh_store, write_config

from sift_fetch.callers import Caller
from sift_fetch.config import load_config
from sift_fetch.pipeline import fetch_target
from sift_fetch.runtime import Runtime
from sift_fetch.target import Target
from sift_store.batch import JobLimits, NewTarget
from sift_store.batch_jobs import create_job, get_job
from sift_store.engine import Store
from tests.support.site import LocalSite, Reply

CALLER = Caller("bench", "standard")


def pages(n: int) -> dict[str, Reply]:
    return {f"/page{i}": Reply(body=article(i)) for i in range(n)}


async def serial(rt: Runtime, urls: list[str]) -> float:
    started = time.perf_counter()
    for url in urls:
        result = await fetch_target(rt, CALLER, Target(url=url), batch=True)
        assert result.outcome == "ok", result.envelope
    return time.perf_counter() - started


def drain(store: Store, urls: list[str]) -> float:
    targets = [NewTarget(u, Target(url=u).options_json()) for u in urls]
    submitted = time.time()
    sub = create_job(
        store,
        caller=CALLER.name,
        caller_class=CALLER.cls,
        targets=targets,
        limits=JobLimits(),
        ttl=86400,
        now=submitted,
    )
    while True:
        job = get_job(store, sub.job_id, caller=CALLER.name)
        assert job is not None
        if job.finished_at is not None:
            assert job.status == "done", job.status
            return job.finished_at - submitted
        # The time comes from the worker's own finished_at: checking often would only take
        # CPU from the worker being measured.
        time.sleep(0.1)


async def measure(store: Store, config_path: Path, site: LocalSite, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    rt = Runtime.open(load_config(config_path), store=store)
    loops, drains = [], []
    try:
        for r in range(args.rounds + 1):  # round 0 warms both sides up
            base = [site.url(f"/page{i}?s={r}") for i in range(args.targets)]
            mine = [site.url(f"/page{i}?b={r}") for i in range(args.targets)]
            loop_s = await serial(rt, base)
            drain_s = await anyio.to_thread.run_sync(drain, store, mine)
            if r:
                loops.append(loop_s)
                drains.append(drain_s)
    finally:
        await rt.aclose()  # the bench's store stays open
    return loops, drains


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--targets", type=int, default=32)
    db_args(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name, LocalSite(pages(args.targets)) as site:
        tmp = Path(tmp_name)
        for kind in dbs(args):
            with fresh_store(kind, tmp) as (store, url):
                config_path = write_config(tmp, url, site.port)
                with WorkerProcess(config_path, tmp / f"worker-{kind}.log"):
                    loops, drains = anyio.run(measure, store, config_path, site, args)
            ratios = [d / s for d, s in zip(drains, loops, strict=True)]
            print(
                f"{kind:<11} {args.targets} targets: serial loop median "
                f"{statistics.median(loops):.3f} s, worker drain median "
                f"{statistics.median(drains):.3f} s"
            )
            print(
                f"{'':<11} drain/loop ratio median {statistics.median(ratios):.3f} "
                f"(min {min(ratios):.3f}, max {max(ratios):.3f}, rounds {len(ratios)})"
            )


if __name__ == "__main__":
    main()
