"""The batch store on both databases (seed §12 item 1): round trip, idempotency, caps, ordered
claims, exactly-once counting, fencing, restart, cancel, sweep, eviction, gauges."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from sift_store.batch import (
    RESTART,
    CallerBusy,
    Claim,
    JobLimits,
    JobsBusy,
    TargetResult,
    TooManyTargets,
    batch_job,
    batch_target,
)
from sift_store.batch_claims import (
    abandon,
    claim,
    complete_and_claim,
    complete_target,
    fail_lapsed,
    has_work,
    heartbeat,
    running_workers,
)
from sift_store.batch_jobs import batch_gauges, cancel, get_job, get_target, touch
from sift_store.batch_retention import batch_nbytes, evict_over_budget, sweep
from sift_store.engine import Store
from tests.batch.helpers import NOW, TTL, job_rows, new_targets, submit, target_rows, urls

WIDE = JobLimits(targets_per_job=32, jobs_per_caller=50, jobs_total=50)
LEASE = 30.0


def ok(body: str = "page") -> TargetResult:
    return TargetResult(
        ok=True, outcome="ok", result=json.dumps({"success": True, "content": body})
    )


def bad(outcome: str = "upstream_5xx") -> TargetResult:
    env = {"success": False, "error": "upstream: the site answered 503", "hint": "retry"}
    return TargetResult(
        ok=False, outcome=outcome, result=json.dumps(env), error=env["error"], hint="retry"
    )


def take(store: Store, worker: str = "w1", now: float = NOW) -> Claim:
    got = claim(store, worker=worker, now=now, lease_seconds=LEASE)
    assert got is not None
    return got


def drain(store: Store, results: list[TargetResult], now: float = NOW) -> None:
    for result in results:
        got = take(store, now=now)
        assert complete_target(store, got, result, now=now) is not None


def test_round_trip(store: Store) -> None:
    targets = new_targets(urls(3), mode="raw", grep="x")
    sub = submit(store, targets)
    assert (sub.status, sub.targets_total, sub.reused) == ("queued", 3, False)
    job = get_job(store, sub.job_id, caller="alice")
    assert job is not None
    assert (job.status, job.targets_total, job.targets_done, job.created_at) == (
        "queued",
        3,
        0,
        NOW,
    )
    assert [t.idx for t in job.targets] == [0, 1, 2]
    assert [t.url for t in job.targets] == urls(3)
    assert json.loads(job.targets[1].options)["grep"] == "x"
    assert {t.status for t in job.targets} == {"pending"}

    drain(store, [ok("zero")], now=NOW + 1)
    summary = get_job(store, sub.job_id, caller="alice")
    full = get_job(store, sub.job_id, caller="alice", results=True)
    assert summary is not None and full is not None
    assert summary.targets[0].result is None  # a summary leaves results out
    assert json.loads(full.targets[0].result or "")["content"] == "zero"
    one = get_target(store, sub.job_id, 0, caller="alice")
    assert one is not None and one.status == "done" and one.outcome == "ok"
    assert json.loads(one.result or "")["content"] == "zero"
    assert get_target(store, sub.job_id, 7, caller="alice") is None


def test_another_callers_job_is_not_found(store: Store) -> None:
    sub = submit(store)
    assert get_job(store, sub.job_id, caller="bob") is None
    assert get_target(store, sub.job_id, 0, caller="bob") is None
    assert touch(store, sub.job_id, caller="bob", now=NOW + 5) is False
    assert cancel(store, sub.job_id, caller="bob", now=NOW + 5) is None
    assert get_job(store, "no-such-job", caller="alice") is None


def test_reads_never_write_and_touch_bumps_the_lease(store: Store) -> None:
    sub = submit(store)
    before = job_rows(store), target_rows(store)
    get_job(store, sub.job_id, caller="alice", results=True)
    get_target(store, sub.job_id, 0, caller="alice")
    batch_gauges(store)
    batch_nbytes(store)
    has_work(store)
    assert (job_rows(store), target_rows(store)) == before
    assert touch(store, sub.job_id, caller="alice", now=NOW + 60) is True
    assert job_rows(store)[sub.job_id]["lease"] == NOW + 60


def test_resubmit_returns_the_job_and_bumps_its_lease(store: Store) -> None:
    first = submit(store, 3)
    again = submit(store, 3, now=NOW + 10)
    assert again.job_id == first.job_id and again.reused
    assert job_rows(store)[first.job_id]["lease"] == NOW + 10
    assert len(job_rows(store)) == 1


def test_idempotency_is_scoped_to_the_caller_and_the_exact_list(store: Store) -> None:
    base = submit(store, 3, limits=WIDE)
    other_caller = submit(store, 3, caller="bob", limits=WIDE)
    other_options = submit(store, new_targets(urls(3), mode="raw"), limits=WIDE)
    other_order = submit(store, new_targets(list(reversed(urls(3)))), limits=WIDE)
    ids = {base.job_id, other_caller.job_id, other_options.job_id, other_order.job_id}
    assert len(ids) == 4
    assert not any(s.reused for s in (other_caller, other_options, other_order))
    # Defaults spelled out are the same list.
    spelled = submit(store, new_targets(urls(3), mode="clean", context=False), limits=WIDE)
    assert spelled.reused and spelled.job_id == base.job_id


def test_reuse_ends_with_the_lease(store: Store) -> None:
    first = submit(store, 1)
    drain(store, [ok()], now=NOW + 1)
    assert submit(store, 1, now=NOW + 1 + TTL).reused  # the lease still holds at the edge
    later = submit(store, 1, now=NOW + 1 + 2 * TTL + 1)
    assert not later.reused and later.job_id != first.job_id


@pytest.mark.parametrize("final", ["done", "partial"])
def test_finished_jobs_with_results_are_reused(store: Store, final: str) -> None:
    sub = submit(store, 2)
    drain(store, [ok(), ok() if final == "done" else bad()], now=NOW + 1)
    assert job_rows(store)[sub.job_id]["status"] == final
    again = submit(store, 2, now=NOW + 2)
    assert again.reused and again.job_id == sub.job_id and again.status == final


def test_failed_and_cancelled_jobs_are_never_reused(store: Store) -> None:
    failed = submit(store, 1)
    drain(store, [bad()], now=NOW + 1)
    assert job_rows(store)[failed.job_id]["status"] == "failed"
    retry = submit(store, 1, now=NOW + 2)
    assert not retry.reused and retry.job_id != failed.job_id
    assert cancel(store, retry.job_id, caller="alice", now=NOW + 3) is not None
    again = submit(store, 1, now=NOW + 4)
    assert not again.reused and again.job_id not in (failed.job_id, retry.job_id)


def test_the_three_caps(store: Store) -> None:
    with pytest.raises(TooManyTargets):
        submit(store, 33)
    assert TooManyTargets.http_status == 422
    assert submit(store, 32).targets_total == 32
    with pytest.raises(CallerBusy):
        submit(store, 2)  # a different list, same caller, one job still live
    assert CallerBusy.http_status == 429
    for i in range(7):
        submit(store, 1, caller=f"c{i}")
    with pytest.raises(JobsBusy):
        submit(store, 1, caller="latecomer")
    assert JobsBusy.http_status == 429
    assert len(job_rows(store)) == 8
    # Live is by status: once a job ends, its caller and the total have room again.
    first = next(i for i, r in job_rows(store).items() if r["caller"] == "c0")
    assert cancel(store, first, caller="c0", now=NOW + 1) is not None
    assert not submit(store, 1, caller="latecomer").reused


def test_targets_are_claimed_in_order_one_at_a_time(store: Store) -> None:
    sub = submit(store, 3)
    first = take(store)
    assert (first.job_id, first.idx, first.url) == (sub.job_id, 0, urls(3)[0])
    assert claim(store, worker="w2", now=NOW, lease_seconds=LEASE) is None  # serial per job
    assert not has_work(store)
    complete_target(store, first, ok(), now=NOW + 1)
    assert has_work(store)
    assert take(store, "w2").idx == 1
    rows = target_rows(store)[sub.job_id]
    assert [r["status"] for r in rows] == ["done", "running", "pending"]
    assert job_rows(store)[sub.job_id]["status"] == "running"


def test_claims_round_robin_across_jobs(store: Store) -> None:
    a = submit(store, 3, caller="a", now=NOW)
    b = submit(store, 3, caller="b", now=NOW + 1)
    order = []
    for step in range(6):
        got = take(store, now=NOW + 10 + step)
        order.append((got.job_id, got.idx))
        complete_target(store, got, ok(), now=NOW + 10 + step)
    assert order == [(j, i) for i in range(3) for j in (a.job_id, b.job_id)]


def test_complete_and_claim_stores_then_takes_the_next_turn(store: Store) -> None:
    a = submit(store, 2, caller="a", now=NOW)
    b = submit(store, 1, caller="b", now=NOW + 1)
    got = take(store, now=NOW + 2)
    change, following = complete_and_claim(store, got, ok(), now=NOW + 3, lease_seconds=LEASE)
    assert change is not None and change.job_id == a.job_id
    assert following is not None and (following.job_id, following.idx) == (b.job_id, 0)
    change, following = complete_and_claim(store, following, ok(), now=NOW + 4, lease_seconds=LEASE)
    assert change is not None and change.job_finished
    assert following is not None and (following.job_id, following.idx) == (a.job_id, 1)
    # A stale result stores nothing; a's last target is running, so there is nothing to take.
    stale, after = complete_and_claim(store, got, ok(), now=NOW + 5, lease_seconds=LEASE)
    assert stale is None and after is None


def test_targets_done_counts_once_and_bumps_the_lease(store: Store) -> None:
    sub = submit(store, 2)
    got = take(store, now=NOW + 1)
    change = complete_target(store, got, ok(), now=NOW + 5)
    assert change is not None and not change.job_finished and change.job_status == "running"
    assert complete_target(store, got, ok(), now=NOW + 6) is None
    row = job_rows(store)[sub.job_id]
    assert (row["targets_done"], row["lease"]) == (1, NOW + 5)
    got = take(store, now=NOW + 7)
    change = complete_target(store, got, bad(), now=NOW + 8)
    assert change is not None and change.job_finished and change.job_status == "partial"
    assert job_rows(store)[sub.job_id]["targets_done"] == 2


@pytest.mark.parametrize(
    ("results", "final"),
    [((True, True), "done"), ((False, False), "failed"), ((True, False), "partial")],
)
def test_final_status(store: Store, results: tuple[bool, ...], final: str) -> None:
    sub = submit(store, len(results))
    drain(store, [ok() if r else bad() for r in results], now=NOW + 1)
    job = get_job(store, sub.job_id, caller="alice")
    assert job is not None and job.status == final and job.finished_at == NOW + 1
    assert job.error is None


def test_a_stale_workers_late_result_is_discarded(store: Store) -> None:
    sub = submit(store, 2)
    stale = take(store, "old", now=NOW)
    assert heartbeat(store, stale, now=NOW + 10, lease_seconds=LEASE) == "held"
    # The old worker goes quiet; its lease (renewed to NOW + 40) lapses.
    changes = fail_lapsed(store, now=NOW + 41)
    assert [(c.job_id, c.idx, c.job_status, c.job_finished) for c in changes] == [
        (sub.job_id, 0, "failed", True)
    ]
    assert heartbeat(store, stale, now=NOW + 42, lease_seconds=LEASE) == "lost"
    assert complete_target(store, stale, ok("late"), now=NOW + 43) is None
    t0 = get_target(store, sub.job_id, 0, caller="alice")
    assert t0 is not None and t0.status == "failed" and t0.outcome == RESTART
    assert json.loads(t0.result or "")["error"].startswith("restart")
    job = get_job(store, sub.job_id, caller="alice")
    assert job is not None
    assert (job.status, job.error, job.targets_done) == ("failed", RESTART, 1)
    assert job.targets[1].status == "pending"  # never resumed
    assert claim(store, worker="new", now=NOW + 44, lease_seconds=LEASE) is None


def test_fail_lapsed_touches_only_lapsed_or_dead_claims(store: Store) -> None:
    a = submit(store, 2, caller="a", now=NOW)
    b = submit(store, 2, caller="b", now=NOW + 1)
    c = submit(store, 2, caller="c", now=NOW + 2)
    ca = take(store, "wa", now=NOW)
    take(store, "wb", now=NOW + 20)
    take(store, "wc", now=NOW + 20)
    assert sorted(running_workers(store)) == ["wa", "wb", "wc"]
    assert [x.job_id for x in fail_lapsed(store, now=NOW + 31)] == [a.job_id]
    assert [x.job_id for x in fail_lapsed(store, now=NOW + 31, dead_workers=["wc"])] == [c.job_id]
    rows = job_rows(store)
    assert rows[b.job_id]["status"] == "running"
    assert complete_target(store, ca, ok(), now=NOW + 32) is None
    assert fail_lapsed(store, now=NOW + 32) == []


def test_abandon_fails_the_target_at_once(store: Store) -> None:
    sub = submit(store, 2)
    got = take(store)
    change = abandon(store, got, now=NOW + 1)
    assert change is not None and change.job_status == "failed" and change.job_finished
    assert abandon(store, got, now=NOW + 2) is None
    assert job_rows(store)[sub.job_id]["error"] == RESTART


def test_cancel_keeps_the_inflight_target_and_leaves_the_rest_pending(store: Store) -> None:
    sub = submit(store, 3)
    got = take(store)
    out = cancel(store, sub.job_id, caller="alice", now=NOW + 1)
    assert out is not None and (out.status, out.changed, out.created_at) == ("cancelled", True, NOW)
    assert heartbeat(store, got, now=NOW + 2, lease_seconds=LEASE) == "cancelled"
    change = complete_target(store, got, ok("kept"), now=NOW + 3)
    assert change is not None and change.job_status == "cancelled" and not change.job_finished
    assert claim(store, worker="w1", now=NOW + 4, lease_seconds=LEASE) is None
    job = get_job(store, sub.job_id, caller="alice", results=True)
    assert job is not None
    assert [t.status for t in job.targets] == ["done", "pending", "pending"]
    assert job.status == "cancelled" and job.targets_done == 1
    assert json.loads(job.targets[0].result or "")["content"] == "kept"
    again = cancel(store, sub.job_id, caller="alice", now=NOW + 5)
    assert again is not None and (again.status, again.changed) == ("cancelled", False)


def test_cancel_of_a_finished_job_changes_nothing(store: Store) -> None:
    sub = submit(store, 1)
    drain(store, [ok()], now=NOW + 1)
    out = cancel(store, sub.job_id, caller="alice", now=NOW + 2)
    assert out is not None and (out.status, out.changed) == ("done", False)


def test_a_cancelled_jobs_lapsed_target_fails_and_the_job_stays_cancelled(store: Store) -> None:
    sub = submit(store, 2)
    take(store)
    cancel(store, sub.job_id, caller="alice", now=NOW + 1)
    (change,) = fail_lapsed(store, now=NOW + LEASE + 1)
    assert change.job_status == "cancelled" and not change.job_finished
    row = job_rows(store)[sub.job_id]
    assert (row["status"], row["targets_done"], row["inflight_idx"]) == ("cancelled", 1, None)


def test_sweep_deletes_expired_finished_jobs_only(store: Store) -> None:
    old = submit(store, 1, caller="a", now=NOW)
    drain(store, [ok()], now=NOW)
    fresh = submit(store, 1, caller="b", now=NOW + TTL)
    drain(store, [bad()], now=NOW + TTL)
    ancient_live = submit(store, 2, caller="c", now=NOW - TTL)  # queued, lease long expired
    assert sweep(store, now=NOW + TTL + 1, ttl=TTL) == 1
    assert set(job_rows(store)) == {fresh.job_id, ancient_live.job_id}
    assert old.job_id not in target_rows(store)  # its targets went with it


def test_sweep_works_in_slices(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sift_store.batch_retention.SWEEP_SLICE", 2)
    for i in range(5):
        submit(store, 1, caller=f"c{i}", now=NOW + i)
        drain(store, [bad()], now=NOW + i)
    assert sweep(store, now=NOW + 10 + TTL, ttl=TTL) == 5
    assert job_rows(store) == {}


def test_evict_over_budget_oldest_lease_first_never_live(store: Store) -> None:
    jobs = []
    for i in range(4):
        sub = submit(store, 1, caller=f"c{i}", now=NOW + i)
        drain(store, [ok("x" * 1000)], now=NOW + i)
        jobs.append(sub.job_id)
    live = submit(store, 2, caller="live", now=NOW)
    got = take(store, now=NOW + 10)
    complete_target(store, got, ok("y" * 5000), now=NOW + 10)  # a live job with many bytes
    touch(store, jobs[0], caller="c0", now=NOW + 20)  # a read keeps the oldest job alive
    per_job = job_rows(store)[jobs[1]]["nbytes"]
    total = batch_nbytes(store)
    assert total == sum(r["nbytes"] for r in job_rows(store).values())
    assert evict_over_budget(store, max_bytes=total) == 0
    assert evict_over_budget(store, max_bytes=total - per_job - 1) == 2
    remaining = job_rows(store)
    assert jobs[1] not in remaining and jobs[2] not in remaining
    assert {jobs[0], jobs[3], live.job_id} <= set(remaining)
    assert evict_over_budget(store, max_bytes=0) == 2
    assert set(job_rows(store)) == {live.job_id}
    assert batch_nbytes(store) > 0  # over budget, but a live job is never evicted


def test_gauges(store: Store) -> None:
    assert (batch_gauges(store).queue_depth, batch_gauges(store).inflight) == (0, 0)
    a = submit(store, 3, caller="a", now=NOW - 2)
    submit(store, 2, caller="b", now=NOW - 1)
    assert (batch_gauges(store).queue_depth, batch_gauges(store).inflight) == (5, 0)
    got = take(store)
    assert (batch_gauges(store).queue_depth, batch_gauges(store).inflight) == (4, 1)
    complete_target(store, got, ok(), now=NOW + 1)
    assert (batch_gauges(store).queue_depth, batch_gauges(store).inflight) == (4, 0)
    take(store, now=NOW + 2)
    cancel(store, a.job_id, caller="a", now=NOW + 3)
    assert (batch_gauges(store).queue_depth, batch_gauges(store).inflight) == (1, 1)


def test_one_running_target_per_job_is_enforced_by_the_database(store: Store) -> None:
    sub = submit(store, 2)
    take(store)
    with pytest.raises(sa.exc.IntegrityError), store.write() as conn:
        conn.execute(
            sa.update(batch_target)
            .where(batch_target.c.job_id == sub.job_id, batch_target.c.idx == 1)
            .values(status="running")
        )


def _finished_jobs(store: Store, n: int, *, analyze: bool) -> None:
    """N finished jobs of two targets (a third of them cancelled before they began), inserted
    in bulk: the skew the planners must live with."""
    jobs = [
        {
            "id": f"old{i}",
            "caller": f"c{i % 50}",
            "caller_class": "standard",
            "idem_key": f"k{i}",
            "status": "cancelled" if i % 3 == 0 else "done",
            "targets_total": 2,
            "targets_done": 2,
            "created_at": NOW + i,
            "served_at": NOW + i,
            "lease": NOW + i,
            "nbytes": 10,
        }
        for i in range(n)
    ]
    targets = [
        {
            "job_id": f"old{i}",
            "idx": k,
            "url": "u",
            "options": "{}",
            "status": "done",
            "nbytes": 5,
            "busy_attempts": 0,
        }
        for i in range(n)
        for k in range(2)
    ]
    with store.write() as conn:
        conn.execute(sa.insert(batch_job), jobs)
        conn.execute(sa.insert(batch_target), targets)
        if analyze:
            conn.exec_driver_sql("ANALYZE")


@pytest.mark.parametrize("analyze", [False, True], ids=["no-stats", "analyzed"])
def test_every_hot_query_uses_an_index(store: Store, analyze: bool) -> None:
    # With or without statistics over many finished jobs: SQLite's plans must not scan the
    # tables; PostgreSQL (which would rightly scan tables this small) must have an index to use.
    _finished_jobs(store, 3000, analyze=analyze)
    seen: list[tuple[str, object]] = []

    def capture(_conn, _cursor, statement, parameters, _context, executemany) -> None:  # type: ignore[no-untyped-def]
        if (
            statement.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE"))
            and not executemany
        ):
            seen.append((statement, parameters))

    sa.event.listen(store.engine, "before_cursor_execute", capture)
    try:
        sub = submit(store, 32, caller="x", now=NOW + 5000)
        submit(store, 32, caller="x", now=NOW + 5000)
        has_work(store)
        got = take(store, now=NOW + 5001)
        heartbeat(store, got, now=NOW + 5002, lease_seconds=LEASE)
        running_workers(store)
        fail_lapsed(store, now=NOW + 5003, dead_workers=["gone"])
        complete_target(store, got, ok(), now=NOW + 5004)
        get_job(store, sub.job_id, caller="x", results=True)
        get_target(store, sub.job_id, 0, caller="x")
        touch(store, sub.job_id, caller="x", now=NOW + 5005)
        batch_gauges(store)
        cancel(store, sub.job_id, caller="x", now=NOW + 5006)
        sweep(store, now=NOW + 100, ttl=TTL)
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", capture)
    assert len(seen) > 20
    with store.read() as conn:
        if not store.is_sqlite:
            conn.exec_driver_sql("SET LOCAL enable_seqscan = off")
        for statement, params in seen:
            if store.is_sqlite:
                rows = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, params)  # type: ignore[arg-type]
                plan = " | ".join(r[-1] for r in rows)
                # Scanning a partial index of the few live or running rows is fine.
                small = (
                    "ix_batch_job_live",
                    "ix_batch_job_inflight",
                    "ux_batch_target_one_running",
                )
                scans = [
                    step
                    for step in plan.split(" | ")
                    if step.startswith("SCAN") and not any(name in step for name in small)
                ]
            else:
                rows = conn.exec_driver_sql("EXPLAIN " + statement, params)  # type: ignore[arg-type]
                plan = " | ".join(r[0] for r in rows)
                scans = [plan] if "Seq Scan" in plan else []
            assert scans == [], f"{statement}\n{plan}"
