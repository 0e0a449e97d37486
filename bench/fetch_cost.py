"""Where a fetch's time goes, in one process: CPU per call of a plain httpx GET, of Sift's guarded
client, and of `fetch_target` (raw mode, uncached and then from the shared cache), plus the CPU
each store call takes wherever it runs.

No HTTP server in front, so the figures are the pipeline's own. For the server as a whole, run
bench/fetch_bench.py, and to see which functions cost, sample its `sift serve` with
`py-spy record --gil -p PID` (pip install py-spy) while it runs.

    .venv/bin/python bench/fetch_cost.py [--requests 1000] [--store postgresql://…]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from fetch_bench import TOKEN, free_port, local_origin, sift_config
from sqlalchemy import Engine

from sift_cli.launchers import exit_cleanly_on_sigterm
from sift_fetch.config import load_config
from sift_fetch.guard import precheck
from sift_fetch.pipeline import fetch_target
from sift_fetch.recent import Recent
from sift_fetch.runtime import Runtime
from sift_fetch.target import Target
from sift_store.engine import Store, open_store
from sift_store.migrate import migrate

WARMUP = 20


class TimedStore(Store):
    """A store that adds up the thread CPU time of every call, by function, wherever it runs
    (a store thread, or the event loop for a write that finds the lock free)."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()

    def _timed(self, call: Callable[[], Any]) -> Callable[[], Any]:
        name = getattr(call, "func", call).__name__  # the store function, in its partial

        def timed() -> Any:
            started = time.thread_time()
            try:
                return call()
            finally:
                self.seconds[name] += time.thread_time() - started
                self.calls[name] += 1

        return timed

    async def _run_on(self, threads: ThreadPoolExecutor, call: Callable[[], Any]) -> Any:
        return await super()._run_on(threads, self._timed(call))

    def _run_inline(self, call: Callable[[], Any]) -> Any:
        return super()._run_inline(self._timed(call))


async def measure(label: str, call: Callable[[int], Awaitable[object]], n: int) -> None:
    for i in range(WARMUP):
        await call(-1 - i)
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(n):
        await call(i)
    cpu_ms = (time.process_time() - cpu) / n * 1000
    wall_ms = (time.perf_counter() - wall) / n * 1000
    print(f"{label:<30}{cpu_ms:>10.3f}{wall_ms:>10.3f}")


async def run(config_path: Path, site: str, pages: list[str], n: int) -> None:
    config = load_config(config_path)
    # open_store's engine (its URL mapping and SQLite set-up), in a store that times its calls;
    # a disposed engine stays usable, and the first store's threads are gone.
    plain = open_store(config.store_url)
    plain.dispose()
    store = TimedStore(plain.engine)
    migrate(store)
    rt = Runtime.open(config, store=store)
    caller = rt.callers.authenticate(TOKEN)
    assert caller is not None
    round_ = 0

    def url(i: int) -> str:
        return f"{site}/{pages[i % len(pages)]}?round={round_}&i={i}"

    async def plain(i: int) -> None:
        (await client.get(url(i))).raise_for_status()

    async def guarded(i: int) -> None:
        await rt.http.fetch(precheck(url(i), rt.policy), timeout=30)

    async def pipeline(i: int) -> None:
        result = await fetch_target(rt, caller, Target(url(i), mode="raw"))
        assert result.error is None, result.envelope

    print(f"{'per call':<30}{'cpu ms':>10}{'wall ms':>10}")
    async with httpx.AsyncClient() as client:
        await measure("plain httpx GET", plain, n)
        round_ += 1
        await measure("guarded client GET", guarded, n)
        round_ += 1
        await measure("fetch_target raw, uncached", pipeline, n)
        rt.recent = Recent(0)  # nothing in memory: the next round reads the store
        await measure("fetch_target raw, store cache", pipeline, n)
    for name, seconds in store.seconds.items():
        print(f"  store call: {name:<26}{seconds / store.calls[name] * 1000:>8.3f} ms a call")
    await rt.aclose()
    store.dispose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--store", help="a PostgreSQL URL (default: a new SQLite file)")
    args = parser.parse_args()
    exit_cleanly_on_sigterm()  # a killed bench stops the servers it started
    with tempfile.TemporaryDirectory() as name, local_origin(Path(name)) as origin:
        config = sift_config(Path(name), free_port(), origin.port, args.store)
        asyncio.run(run(config, origin.url, origin.pages, args.requests))


if __name__ == "__main__":
    main()
