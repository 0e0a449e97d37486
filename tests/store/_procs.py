"""Bodies of the real processes the store tests start (spawned: importable, picklable)."""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from multiprocessing.synchronize import Barrier
from typing import Any

from sift_store.engine import open_store
from sift_store.gates import Full, GateLimits, acquire_slot
from sift_store.migrate import migrate


def run_spawned(target: Callable[..., Any], args_per_proc: list[tuple[Any, ...]]) -> list[Any]:
    """Run TARGET in one spawned process per ARGS tuple, all released at once by a barrier
    (passed as the first argument); returns what each put on the queue, in no order."""
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(len(args_per_proc))
    results = ctx.Queue()
    procs = [ctx.Process(target=target, args=(barrier, results, *a)) for a in args_per_proc]
    for p in procs:
        p.start()
    out = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0, f"process exited {p.exitcode}"
    return out


def migrate_proc(barrier: Barrier, results: mp.Queue, url: str) -> None:
    store = open_store(url)
    barrier.wait(timeout=30)
    try:
        migrate(store)
        results.put("ok")
    except Exception as exc:
        results.put(repr(exc))
    finally:
        store.dispose()


def acquire_proc(
    barrier: Barrier, results: mp.Queue, url: str, attempts: int, limits: GateLimits
) -> None:
    store = open_store(url)
    barrier.wait(timeout=30)
    got = []
    try:
        for i in range(attempts):
            slot = acquire_slot(
                store,
                holder=f"proc-{i}",
                host="example.com",
                caller="alice",
                limits=limits,
                lease_seconds=60,
                now=1000.0,
            )
            if not isinstance(slot, Full):
                got.append(slot)
        results.put(got)
    except Exception as exc:
        results.put(repr(exc))
    finally:
        store.dispose()
