"""Concurrent submits: the caps and idempotency hold by construction, not by timing.

50 threads, or 50 processes, submit at once, released together by a barrier."""

from __future__ import annotations

import multiprocessing as mp
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.synchronize import Barrier
from typing import Any

from sift_store.batch import BatchCapError, CallerBusy, JobLimits, NewTarget
from sift_store.engine import Store, open_store
from tests.batch.helpers import job_rows, new_targets, submit, urls

N = 50


def _attempt(store: Store, targets: list[NewTarget], caller: str, limits: JobLimits) -> Any:
    try:
        sub = submit(store, targets, caller=caller, limits=limits)
    except BatchCapError as exc:
        return type(exc).__name__
    return (sub.job_id, sub.reused)


def _threads(
    store: Store, lists: list[list[NewTarget]], callers: list[str], limits: JobLimits
) -> list[Any]:
    barrier = threading.Barrier(len(lists))

    def one(i: int) -> Any:
        barrier.wait(timeout=30)
        return _attempt(store, lists[i], callers[i], limits)

    with ThreadPoolExecutor(len(lists)) as pool:
        return list(pool.map(one, range(len(lists))))


def _proc(barrier: Barrier, out: mp.Queue, url: str, targets: list[NewTarget], caller: str) -> None:
    store = open_store(url)
    try:
        barrier.wait(timeout=30)
        out.put(_attempt(store, targets, caller, JobLimits()))
    except Exception as exc:
        out.put(repr(exc))
    finally:
        store.dispose()


def _fork_all(url: str, lists: list[list[NewTarget]], callers: list[str], done: mp.Queue) -> None:
    """Fork one submitter per list (they start in milliseconds, everything imported, each with
    its own engine); put what they answered and their exit codes on DONE."""
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(len(lists))
    out = ctx.Queue()
    procs = [
        ctx.Process(target=_proc, args=(barrier, out, url, lists[i], callers[i]))
        for i in range(len(lists))
    ]
    for p in procs:
        p.start()
    results = [out.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    done.put((results, [p.exitcode for p in procs]))


def _processes(url: str, lists: list[list[NewTarget]], callers: list[str]) -> list[Any]:
    # The submitters are forked from a spawned process that runs no other thread. Forked from
    # this one, a child could inherit SQLite's mutexes held by the test store's checkpoint
    # thread and hang opening its own database (21 of 100 forks did, checkpointing nonstop).
    ctx = mp.get_context("spawn")
    done = ctx.Queue()
    forker = ctx.Process(target=_fork_all, args=(url, lists, callers, done))
    forker.start()
    results, exitcodes = done.get(timeout=120)
    forker.join(timeout=30)
    assert forker.exitcode == 0
    assert exitcodes == [0] * len(lists)
    return results


def _one_job(results: list[Any]) -> None:
    assert all(isinstance(r, tuple) for r in results), results
    assert len({job_id for job_id, _ in results}) == 1
    assert sorted(reused for _, reused in results) == [False] + [True] * (N - 1)


def test_same_list_from_many_threads_makes_one_job(store: Store) -> None:
    targets = new_targets(urls(32))
    results = _threads(store, [targets] * N, ["alice"] * N, JobLimits())
    _one_job(results)
    assert len(job_rows(store)) == 1


def test_different_lists_from_one_caller_make_one_live_job(store: Store) -> None:
    lists = [new_targets(urls(3, prefix=f"https://example.com/{i}/")) for i in range(N)]
    results = _threads(store, lists, ["alice"] * N, JobLimits())
    assert Counter(r if isinstance(r, str) else "created" for r in results) == {
        "created": 1,
        CallerBusy.__name__: N - 1,
    }
    assert len(job_rows(store)) == 1


def test_many_callers_never_exceed_the_total_cap(store: Store) -> None:
    lists = [new_targets(urls(2, prefix=f"https://example.com/{i}/")) for i in range(N)]
    limits = JobLimits(jobs_total=8, jobs_per_caller=1)
    results = _threads(store, lists, [f"c{i}" for i in range(N)], limits)
    assert sum(isinstance(r, tuple) for r in results) == 8
    assert len(job_rows(store)) == 8


def _url(store: Store) -> str:
    return store.engine.url.render_as_string(hide_password=False)


def test_same_list_from_many_processes_makes_one_job(store: Store) -> None:
    results = _processes(_url(store), [new_targets(urls(32))] * N, ["alice"] * N)
    _one_job(results)
    assert len(job_rows(store)) == 1


def test_different_lists_from_many_processes_make_one_live_job(store: Store) -> None:
    lists = [new_targets(urls(3, prefix=f"https://example.com/{i}/")) for i in range(N)]
    results = _processes(_url(store), lists, ["alice"] * N)
    assert sum(isinstance(r, tuple) for r in results) == 1
    assert results.count(CallerBusy.__name__) == N - 1
    assert len(job_rows(store)) == 1
