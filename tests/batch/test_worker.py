"""The worker loop (seed §12 item 2) on both databases, with an injected fetch: serial order,
failure isolation, exceptions, idempotent resubmit, cancel, round-robin, busy retry, deadlines,
lost leases and shutdown."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from structlog.testing import capture_logs

from sift_fetch.callers import Caller
from sift_fetch.config import BatchConfig
from sift_fetch.target import Target
from sift_store.batch import RESTART, NewTarget, Submitted
from sift_store.batch_claims import fail_lapsed
from sift_store.batch_jobs import cancel
from sift_store.engine import Store
from sift_worker.settings import WorkerSettings
from tests.batch.helpers import new_targets, submit, urls
from tests.batch.worker_harness import (
    FAST,
    Recorder,
    Reply,
    eventually,
    fail_reply,
    finished,
    job,
    ok_reply,
    run_worker,
)
from tests.support.site import LocalSite
from tests.support.site import Reply as SiteReply

PATHS = [f"/p{i}" for i in range(6)]


def enqueue(store: Store, targets: list[NewTarget] | int = 3, **kw: Any) -> Submitted:
    """Submit on the real clock: the worker's sweep and timings run on it."""
    return submit(store, targets, now=kw.pop("now", time.time()), **kw)


@pytest.fixture
def site() -> Iterator[LocalSite]:
    routes = {p: SiteReply(body=f"<p>{p}</p>".encode(), delay=0.03) for p in PATHS}
    with LocalSite(routes) as s:  # type: ignore[arg-type]
        yield s


def http_fetch() -> Recorder:
    client = httpx.AsyncClient(trust_env=False)

    async def get(_caller: Caller, target: Target) -> Reply:
        response = await client.get(target.url)
        return Reply({"success": True, "url": target.url, "content": response.text})

    return Recorder(get)


def test_one_job_drains_serially_in_order_even_with_two_loops(
    store: Store, site: LocalSite
) -> None:
    sub = enqueue(store, new_targets([site.url(p) for p in PATHS]))
    run_worker(store, http_fetch(), finished(store, sub.job_id), batch=BatchConfig(workers=2))
    view = job(store, sub.job_id)
    assert view.status == "done" and view.targets_done == len(PATHS)
    assert site.hits == PATHS  # in idx order, each once
    assert site.peak_inflight == 1  # measured by the server: never two at once
    for t, path in zip(view.targets, PATHS, strict=True):
        assert json.loads(t.result or "")["content"] == f"<p>{path}</p>"
        assert t.outcome == "ok" and t.started_at is not None and t.finished_at is not None


def test_one_failing_target_leaves_the_job_partial(store: Store) -> None:
    def reply(_c: Caller, target: Target) -> Reply:
        if target.url.endswith("p1"):
            return fail_reply("upstream_5xx", "upstream: the site answered 503", status=503)
        return ok_reply(target)

    sub = enqueue(store, 3)
    run_worker(store, Recorder(reply), finished(store, sub.job_id))
    view = job(store, sub.job_id)
    assert view.status == "partial"
    assert [t.status for t in view.targets] == ["done", "failed", "done"]
    bad = view.targets[1]
    assert (bad.error, bad.hint, bad.outcome) == (
        "upstream: the site answered 503",
        "retry",
        "upstream_5xx",
    )
    assert json.loads(bad.result or "")["status"] == 503


def test_an_exception_fails_that_target_only_and_the_worker_carries_on(store: Store) -> None:
    secret = "https://secret.example/p1"

    def reply(_c: Caller, target: Target) -> Reply:
        if target.url == secret:
            raise RuntimeError(f"boom while fetching {target.url}")
        return ok_reply(target)

    first = enqueue(store, new_targets(["https://example.com/a", secret, "https://example.com/c"]))
    second = enqueue(store, new_targets(urls(2, "https://bob.example/")), caller="bob")
    with capture_logs() as logs:
        run_worker(
            store,
            Recorder(reply),
            lambda: finished(store, first.job_id)() and finished(store, second.job_id, "bob")(),
        )
    view = job(store, first.job_id)
    assert view.status == "partial"
    assert view.targets[1].outcome == "other" and view.targets[1].status == "failed"
    assert view.targets[1].error == "error: internal error while fetching this target"
    assert job(store, second.job_id, "bob").status == "done"
    crash = [e for e in logs if e["event"] == "batch.target.exception"]
    assert [(e["job"], e["idx"], e["error_type"]) for e in crash] == [
        (first.job_id, 1, "RuntimeError")
    ]
    assert "secret.example" not in repr(logs)


def test_resubmitting_the_list_never_drains_it_twice(store: Store) -> None:
    gate = anyio.Event()
    resubmitted: list[bool] = []

    async def reply(_c: Caller, target: Target) -> Reply:
        await gate.wait()
        return ok_reply(target)

    fetch = Recorder(reply)
    sub = enqueue(store, 3)

    async def meanwhile() -> None:
        await eventually(lambda: len(fetch.calls) == 1)
        again = await anyio.to_thread.run_sync(lambda: enqueue(store, 3))
        resubmitted.append(again.reused and again.job_id == sub.job_id)
        gate.set()

    run_worker(store, fetch, finished(store, sub.job_id), meanwhile=meanwhile)
    assert resubmitted == [True]
    done = enqueue(store, 3)
    assert done.reused and done.job_id == sub.job_id and done.status == "done"
    other = enqueue(store, new_targets(["https://bob.example/"]), caller="bob")
    run_worker(store, fetch, finished(store, other.job_id, "bob"))
    assert sorted(url for _, url in fetch.calls) == sorted([*urls(3), "https://bob.example/"])


def test_cancel_lets_the_inflight_target_finish_and_leaves_the_rest_pending(store: Store) -> None:
    gate = anyio.Event()

    async def reply(_c: Caller, target: Target) -> Reply:
        await gate.wait()
        return ok_reply(target)

    fetch = Recorder(reply)
    sub = enqueue(store, 3, now=time.time() - 1)
    # Bob's job keeps the worker busy after the cancel, to show it never returns to Alice's.
    other = enqueue(store, new_targets(urls(2, "https://bob.example/")), caller="bob")

    async def meanwhile() -> None:
        await eventually(lambda: any(u == urls(3)[0] for _, u in fetch.calls))
        out = await anyio.to_thread.run_sync(
            lambda: cancel(store, sub.job_id, caller="alice", now=time.time())
        )
        assert out is not None and out.changed
        gate.set()

    run_worker(
        store,
        fetch,
        lambda: finished(store, sub.job_id)() and finished(store, other.job_id, "bob")(),
        meanwhile=meanwhile,
    )
    view = job(store, sub.job_id)
    assert view.status == "cancelled"
    assert [t.status for t in view.targets] == ["done", "pending", "pending"]
    assert json.loads(view.targets[0].result or "")["success"] is True
    assert [u for c, u in fetch.calls if c == "alice"] == [urls(3)[0]]


def test_two_jobs_take_turns_on_one_loop(store: Store) -> None:
    a = enqueue(store, new_targets(urls(3, "https://a.example/")), caller="a", now=time.time() - 2)
    b = enqueue(store, new_targets(urls(3, "https://b.example/")), caller="b", now=time.time() - 1)
    fetch = Recorder()
    run_worker(
        store, fetch, lambda: finished(store, a.job_id, "a")() and finished(store, b.job_id, "b")()
    )
    assert [c for c, _ in fetch.calls] == ["a", "b", "a", "b", "a", "b"]


def test_two_loops_serve_two_jobs_at_once(store: Store) -> None:
    started = {"a": anyio.Event(), "b": anyio.Event()}

    async def reply(caller: Caller, target: Target) -> Reply:
        started[caller.name].set()
        # Each job's first target waits until the other job's has started: only two loops
        # working at once can get past this.
        await started["b" if caller.name == "a" else "a"].wait()
        return ok_reply(target)

    a = enqueue(store, new_targets(urls(2, "https://a.example/")), caller="a")
    b = enqueue(store, new_targets(urls(2, "https://b.example/")), caller="b")
    run_worker(
        store,
        Recorder(reply),
        lambda: finished(store, a.job_id, "a")() and finished(store, b.job_id, "b")(),
        batch=BatchConfig(workers=2),
    )
    assert job(store, a.job_id, "a").status == job(store, b.job_id, "b").status == "done"


def busy(retry_after: float = 0.001) -> Reply:
    return fail_reply("busy", "busy: too many fetches in flight", retry_after=retry_after)


def test_a_busy_target_is_retried_then_stored(store: Store) -> None:
    answers = [busy(), busy()]

    def reply(_c: Caller, target: Target) -> Reply:
        return answers.pop(0) if answers else ok_reply(target)

    fetch = Recorder(reply)
    sub = enqueue(store, 1)
    run_worker(store, fetch, finished(store, sub.job_id))
    view = job(store, sub.job_id)
    assert view.status == "done" and view.targets[0].busy_attempts == 2
    assert len(fetch.calls) == 3


def test_a_target_busy_for_too_long_fails_busy(store: Store) -> None:
    sub = enqueue(store, 2)
    run_worker(
        store,
        Recorder(lambda _c, _t: busy()),
        finished(store, sub.job_id),
        batch=BatchConfig(busy_retry_for=0.05),
    )
    view = job(store, sub.job_id)
    assert view.status == "failed"
    assert {t.outcome for t in view.targets} == {"busy"}
    assert all(t.busy_attempts >= 1 and t.retry_after is not None for t in view.targets)


def test_cancel_during_busy_retries_fails_the_waiting_target_cancel(store: Store) -> None:
    sub = enqueue(store, 2)
    fetch = Recorder(lambda _c, _t: busy(retry_after=60.0))
    slow_pauses = WorkerSettings(**{**FAST.__dict__, "busy_pause_max": 60.0})

    async def meanwhile() -> None:
        await eventually(lambda: len(fetch.calls) == 1)
        await anyio.to_thread.run_sync(
            lambda: cancel(store, sub.job_id, caller="alice", now=time.time())
        )

    run_worker(store, fetch, finished(store, sub.job_id), settings=slow_pauses, meanwhile=meanwhile)
    view = job(store, sub.job_id)
    assert view.status == "cancelled"
    assert (view.targets[0].status, view.targets[0].outcome) == ("failed", "cancel")
    assert view.targets[1].status == "pending"


def test_a_hung_fetch_ends_at_the_deadline(store: Store) -> None:
    async def hang(_c: Caller, _t: Target) -> Reply:
        await anyio.sleep_forever()
        raise AssertionError

    sub = enqueue(store, 1)
    run_worker(store, Recorder(hang), finished(store, sub.job_id), deadline=0.05)
    target = job(store, sub.job_id).targets[0]
    assert (target.status, target.outcome, target.hint) == ("failed", "timeout", "retry")


def test_a_worker_that_lost_its_lease_stops_and_writes_nothing(store: Store) -> None:
    cancelled = []

    async def slow(_c: Caller, _t: Target) -> Reply:
        try:
            await anyio.sleep_forever()
        finally:
            cancelled.append(True)
        raise AssertionError

    fetch = Recorder(slow)
    sub = enqueue(store, 2)

    async def meanwhile() -> None:
        await eventually(lambda: len(fetch.calls) == 1)
        # As another worker would once this one's lease had lapsed.
        await anyio.to_thread.run_sync(lambda: fail_lapsed(store, now=time.time() + 3600))

    with capture_logs() as logs:
        run_worker(
            store,
            fetch,
            lambda: bool(cancelled) and finished(store, sub.job_id)(),
            meanwhile=meanwhile,
        )
    view = job(store, sub.job_id)
    assert (view.status, view.error) == ("failed", RESTART)
    assert [t.status for t in view.targets] == ["failed", "pending"]
    assert view.targets[0].outcome == RESTART
    assert [e["event"] for e in logs if e["event"].startswith("batch.target")] == [
        "batch.target.lost"
    ]


def _stop_mid_target(store: Store, grace: float, fetch_seconds: float) -> tuple[str, Recorder]:
    async def slow(_c: Caller, target: Target) -> Reply:
        await anyio.sleep(fetch_seconds)
        return ok_reply(target)

    fetch = Recorder(slow)
    sub = enqueue(store, 3)
    settings = WorkerSettings(**{**FAST.__dict__, "grace_seconds": grace})

    async def main() -> None:
        from sift_worker.worker import Worker

        worker = Worker(store, BatchConfig(), fetch, deadline=60, settings=settings)
        stop = anyio.Event()
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                tg.start_soon(worker.run, stop)
                await eventually(lambda: len(fetch.calls) == 1)
                stop.set()

    anyio.run(main)
    return sub.job_id, fetch


def test_stop_lets_the_inflight_target_finish_within_the_grace(store: Store) -> None:
    job_id, fetch = _stop_mid_target(store, grace=10.0, fetch_seconds=0.1)
    view = job(store, job_id)
    assert len(fetch.calls) == 1  # no claim after the stop
    assert [t.status for t in view.targets] == ["done", "pending", "pending"]
    assert view.status == "running"  # live: the next worker carries on with target 1


def test_stop_gives_up_a_target_that_outlasts_the_grace(store: Store) -> None:
    job_id, _ = _stop_mid_target(store, grace=0.05, fetch_seconds=60)
    view = job(store, job_id)
    assert (view.status, view.error) == ("failed", RESTART)
    assert [t.status for t in view.targets] == ["failed", "pending", "pending"]


def test_batch_log_lines_never_carry_a_url_or_host(store: Store) -> None:
    def reply(_c: Caller, target: Target) -> Reply:
        if target.url.endswith("1"):
            return fail_reply("blocked", "blocked: private.sift-test.dev resolves to 10.0.0.1")
        return ok_reply(target)

    sub = submit(
        store,
        new_targets(urls(3, "https://private.sift-test.dev/")),
        caller="spook",
        caller_class="restricted",
    )
    with capture_logs() as logs:
        run_worker(store, Recorder(reply), finished(store, sub.job_id, "spook"))
    events = {e["event"] for e in logs}
    assert {"batch.claim", "batch.target", "batch.job"} <= events
    assert "sift-test.dev" not in repr(logs) and "10.0.0.1" not in repr(logs)
    assert "spook" not in repr(logs)  # a restricted caller is logged by class only
    lines = [e for e in logs if e["event"] == "batch.target"]
    assert [(e["job"], e["idx"], e["outcome"]) for e in lines] == [
        (sub.job_id, 0, "ok"),
        (sub.job_id, 1, "blocked"),
        (sub.job_id, 2, "ok"),
    ]
    assert all("duration_ms" in e for e in lines)
