"""Interactive fetches are never starved by the batch, per host too: with two worker loops
draining jobs whose targets share one host, that host still has a slot for `/v1/fetch`."""

from __future__ import annotations

import time
from pathlib import Path

import anyio

from sift_fetch.callers import Caller
from sift_fetch.pipeline import fetch_target
from sift_fetch.runtime import Runtime
from sift_fetch.target import Target
from sift_store.batch_jobs import get_job
from sift_store.engine import Store
from tests.batch.helpers import new_targets, submit
from tests.batch.worker_harness import finished, job, run_pipeline_worker
from tests.support.config import make_config
from tests.support.site import LocalSite, Reply

PAGE = b"<html><body><article><p>Slow page on a shared host.</p></article></body></html>"
TARGETS_PER_JOB = 4


def test_two_loops_on_one_host_leave_interactive_fetches_a_slot(
    tmp_path: Path, store: Store
) -> None:
    with LocalSite() as site:
        site.routes["/batch"] = Reply(body=PAGE, delay=0.4)
        site.routes["/now"] = Reply(body=PAGE)
        config = make_config(tmp_path, [site.port], fetch={"per_host": 2})
        jobs = [
            submit(
                store,
                new_targets([site.url(f"/batch?{who}={i}") for i in range(TARGETS_PER_JOB)]),
                caller=who,
                now=time.time(),
            ).job_id
            for who in ("alice", "bob")
        ]
        done = [finished(store, jobs[0]), finished(store, jobs[1], "bob")]

        def both_done() -> bool:
            return all(check() for check in done)

        outcomes: list[str] = []

        def batch_running() -> bool:
            views = [get_job(store, jobs[0], caller="alice"), get_job(store, jobs[1], caller="bob")]
            return all(v is not None and v.status == "running" for v in views)

        async def interactive(rt: Runtime) -> None:
            while not await anyio.to_thread.run_sync(batch_running):
                await anyio.sleep(0.01)
            n = 0
            while not await anyio.to_thread.run_sync(both_done):
                n += 1
                target = Target(url=site.url(f"/now?n={n}"))
                result = await fetch_target(rt, Caller("carol", "standard"), target)
                outcomes.append(result.outcome)
                await anyio.sleep(0.05)

        run_pipeline_worker(config, store, both_done, loops=2, meanwhile=interactive)

    assert len(outcomes) >= 5, "too few interactive fetches ran beside the batch to tell"
    assert set(outcomes) == {"ok"}, outcomes
    assert job(store, jobs[0]).status == "done"
    assert job(store, jobs[1], "bob").status == "done"
    assert site.peak_inflight <= 2  # the per-host gate held throughout
