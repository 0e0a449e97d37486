"""A rule-based state machine over the batch store with a fake clock: submit, claim, complete
(live and stale claims), heartbeat, cancel, lapse, sweep, evict and touch in any order, with the
invariants checked against the rows after every step."""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from sift_store.batch import (
    FINISHED,
    LIVE,
    BatchCapError,
    Claim,
    JobLimits,
    TargetResult,
    batch_job,
    batch_target,
)
from sift_store.batch_claims import (
    claim,
    complete_and_claim,
    complete_target,
    fail_lapsed,
    heartbeat,
)
from sift_store.batch_jobs import cancel, touch
from sift_store.batch_retention import evict_over_budget, sweep
from sift_store.engine import Store
from tests.batch.helpers import job_rows, new_targets, submit, target_rows

LIMITS = JobLimits(targets_per_job=4, jobs_per_caller=1, jobs_total=3)
TTL = 100.0
LEASE = 10.0
CALLERS = ("a", "b", "c", "d")
LISTS = [
    new_targets([f"https://example.com/{n}/{i}" for i in range(k)]) for n, k in enumerate((1, 2, 4))
]
JOB_RANK = {"queued": 0, "running": 1, "done": 2, "partial": 2, "failed": 2, "cancelled": 2}
TARGET_RANK = {"pending": 0, "running": 1, "done": 2, "failed": 2}


class BatchMachine(RuleBasedStateMachine):
    def __init__(self, store: Store) -> None:
        super().__init__()
        self.store = store
        with store.write() as conn:
            conn.execute(sa.delete(batch_target))
            conn.execute(sa.delete(batch_job))
        self.now = 1000.0
        self.claims: list[Claim] = []
        self.jobs: dict[str, Any] = {}  # last seen rows
        self.targets: dict[str, list[Any]] = {}
        self.may_delete = False

    # -- rules ------------------------------------------------------------------------------

    @rule(dt=st.sampled_from([0.5, 3.0, 60.0]))
    def tick(self, dt: float) -> None:
        self.now += dt

    @rule(caller=st.sampled_from(CALLERS), which=st.integers(0, len(LISTS) - 1))
    def submit(self, caller: str, which: int) -> None:
        before = job_rows(self.store)
        try:
            sub = submit(
                self.store, LISTS[which], caller=caller, limits=LIMITS, ttl=TTL, now=self.now
            )
        except BatchCapError:
            live = [r for r in before.values() if r["status"] in LIVE]
            assert (
                len(live) >= LIMITS.jobs_total
                or sum(r["caller"] == caller for r in live) >= LIMITS.jobs_per_caller
            )
            return
        if sub.reused:
            old = before[sub.job_id]
            assert old["caller"] == caller and old["status"] not in ("failed", "cancelled")
            assert old["lease"] >= self.now - TTL
        else:
            assert sub.job_id not in before

    @rule(worker=st.sampled_from(["w1", "w2"]))
    def claim(self, worker: str) -> None:
        got = claim(self.store, worker=worker, now=self.now, lease_seconds=LEASE)
        if got is None:
            claimable = [
                j
                for j, r in job_rows(self.store).items()
                if r["status"] in LIVE and r["inflight_idx"] is None
            ]
            assert claimable == []
            return
        job = self.jobs.get(got.job_id)
        assert job is None or job["status"] in LIVE
        self.claims.append(got)

    @precondition(lambda self: self.claims)
    @rule(data=st.data(), good=st.booleans(), size=st.integers(0, 300), then_claim=st.booleans())
    def complete(self, data: st.DataObject, good: bool, size: int, then_claim: bool) -> None:
        got = data.draw(st.sampled_from(self.claims))
        held = self._holds(got)
        body = json.dumps({"success": good, "content": "x" * size})
        result = TargetResult(ok=good, outcome="ok" if good else "timeout", result=body)
        if then_claim:
            change, following = complete_and_claim(
                self.store, got, result, now=self.now, lease_seconds=LEASE
            )
            if following is not None:
                self.claims.append(following)
        else:
            change = complete_target(self.store, got, result, now=self.now)
        assert (change is not None) == held
        self.claims.remove(got)

    @precondition(lambda self: self.claims)
    @rule(data=st.data())
    def heartbeat(self, data: st.DataObject) -> None:
        got = data.draw(st.sampled_from(self.claims))
        held = self._holds(got)
        state = heartbeat(self.store, got, now=self.now, lease_seconds=LEASE)
        assert (state != "lost") == held

    @rule(caller=st.sampled_from(CALLERS), pick=st.integers(0, 10))
    def cancel(self, caller: str, pick: int) -> None:
        ids = self._ids()
        if not ids:
            return
        job_id = ids[pick % len(ids)]
        out = cancel(self.store, job_id, caller=caller, now=self.now)
        owner = self.jobs[job_id]["caller"]
        assert (out is None) == (owner != caller)
        if out is not None:
            assert out.changed == (self.jobs[job_id]["status"] in LIVE)

    @rule(late=st.booleans())
    def lapse(self, late: bool) -> None:
        if late:
            self.now += LEASE + 1  # every lease taken so far has lapsed
        for change in fail_lapsed(self.store, now=self.now):
            assert self.jobs[change.job_id]["inflight_idx"] == change.idx

    @rule()
    def sweep(self) -> None:
        self.may_delete = True
        sweep(self.store, now=self.now, ttl=TTL)

    @rule(budget=st.sampled_from([0, 200, 1000]))
    def evict(self, budget: int) -> None:
        self.may_delete = True
        evict_over_budget(self.store, max_bytes=budget)

    @rule(pick=st.integers(0, 10))
    def touch(self, pick: int) -> None:
        ids = self._ids()
        if ids:
            job_id = ids[pick % len(ids)]
            assert touch(self.store, job_id, caller=self.jobs[job_id]["caller"], now=self.now)

    def _ids(self) -> list[str]:
        # By submit time, not by id: ids are random, and a replayed run must pick the same job.
        return sorted(self.jobs, key=lambda j: self.jobs[j]["created_at"])

    def _holds(self, got: Claim) -> bool:
        rows = target_rows(self.store).get(got.job_id, [])
        return any(
            r["idx"] == got.idx and r["status"] == "running" and r["claimed_by"] == got.worker
            for r in rows
        )

    # -- invariants, against the rows ---------------------------------------------------------

    @invariant()
    def rows_are_consistent(self) -> None:
        jobs, targets = job_rows(self.store), target_rows(self.store)
        for job_id, old in self.jobs.items():
            if job_id not in jobs:
                # Only the sweep or the eviction deletes, and never a live job.
                assert self.may_delete and old["status"] in FINISHED
        live = [j for j in jobs.values() if j["status"] in LIVE]
        assert len(live) <= LIMITS.jobs_total
        for caller in CALLERS:
            assert sum(j["caller"] == caller for j in live) <= LIMITS.jobs_per_caller
        for job_id, job in jobs.items():
            rows = targets[job_id]
            statuses = [r["status"] for r in rows]
            assert [r["idx"] for r in rows] == list(range(job["targets_total"]))
            finished = sum(s in ("done", "failed") for s in statuses)
            assert job["targets_done"] == finished
            assert job["nbytes"] == sum(r["nbytes"] for r in rows)
            running = [r["idx"] for r in rows if r["status"] == "running"]
            assert len(running) <= 1
            assert job["inflight_idx"] == (running[0] if running else None)
            # Serial: finished targets, then at most one running, then pending ones.
            ranks = [TARGET_RANK[s] for s in statuses]
            assert ranks == sorted(ranks, reverse=True)
            if job["status"] == "done":
                assert set(statuses) == {"done"}
            if job["status"] == "partial":
                assert {"done", "failed"} <= set(statuses) and finished == len(rows)
            if job["status"] == "failed" and job["error"] is None:
                assert set(statuses) == {"failed"}
            if job["status"] in ("queued", "running"):
                assert finished < len(rows)
            if job["status"] == "queued":
                assert set(statuses) == {"pending"}
            old = self.jobs.get(job_id)
            if old is not None:
                assert JOB_RANK[job["status"]] >= JOB_RANK[old["status"]]
                if JOB_RANK[old["status"]] == 2:
                    assert job["status"] == old["status"]
                for before, after in zip(self.targets[job_id], rows, strict=True):
                    assert TARGET_RANK[after["status"]] >= TARGET_RANK[before["status"]]
                    if TARGET_RANK[before["status"]] == 2:
                        assert after["status"] == before["status"]
                        assert after["result"] == before["result"]
        self.jobs, self.targets = jobs, targets
        self.may_delete = False
        # A millisecond per step: no two writes share a time, so no tie is broken by a random
        # job id (which would make a replayed run take a different path).
        self.now += 0.001


def _run(store: Store, examples: int, steps: int) -> None:
    run_state_machine_as_test(
        lambda: BatchMachine(store),
        settings=settings(
            max_examples=examples,
            stateful_step_count=steps,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )


def test_batch_store_state_machine(store: Store) -> None:
    _run(store, examples=40, steps=40)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_batch_store_state_machine_soak(store: Store) -> None:
    _run(store, examples=1000, steps=80)
