"""Batch queries the worker makes: claim a target under a row lease, renew it, store its result,
and fail the targets whose worker died.

Each is one transaction. The claim takes SQLite's write lock from its first statement
(`BEGIN IMMEDIATE`), or on PostgreSQL locks the chosen job row `FOR UPDATE SKIP LOCKED`, so two
workers never claim from one job at once. Every later write about a target is fenced on the claim
(`claimed_by` and `status = 'running'`): once a lapsed lease has failed the target, its old
worker's heartbeat and result find nothing and change nothing.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Literal

import sqlalchemy as sa
from sqlalchemy import Connection

from sift_store.batch import (
    LIVE,
    RESTART,
    RESTART_ERROR,
    Claim,
    JobChange,
    JobStatus,
    TargetResult,
    batch_job,
    batch_target,
)
from sift_store.engine import Store

_j = batch_job.c
_t = batch_target.c

LeaseState = Literal["held", "cancelled", "lost"]

RESTART_ENVELOPE = json.dumps({"success": False, "error": RESTART_ERROR, "hint": "retry"})


def has_work(store: Store) -> bool:
    """A read-only look for a claimable job, so a wake-up with nothing to do takes no lock."""
    with store.read() as conn:
        return (
            conn.execute(
                sa.select(_j.id).where(_j.status.in_(LIVE), _j.inflight_idx.is_(None)).limit(1)
            ).first()
            is not None
        )


def claim(store: Store, *, worker: str, now: float, lease_seconds: float) -> Claim | None:
    """Mark the lowest pending target of the live job served longest ago (and not running a
    target now) `running` for WORKER until NOW + LEASE_SECONDS; None when there is none."""
    pick = (
        sa.select(_j.id, _j.caller, _j.caller_class, _j.created_at, _t.idx, _t.url, _t.options)
        .join(batch_target, sa.and_(_t.job_id == _j.id, _t.status == "pending"))
        .where(_j.status.in_(LIVE), _j.inflight_idx.is_(None))
        .order_by(_j.served_at, _j.id, _t.idx)
        .limit(1)
    )
    with store.write() as conn:
        if not store.is_sqlite:
            pick = pick.with_for_update(of=batch_job, skip_locked=True)
        row = conn.execute(pick).first()
        if row is None:
            return None
        conn.execute(
            sa.update(batch_target)
            .where(_t.job_id == row.id, _t.idx == row.idx, _t.status == "pending")
            .values(
                status="running", claimed_by=worker, lease_until=now + lease_seconds, started_at=now
            )
        )
        conn.execute(
            sa.update(batch_job)
            .where(_j.id == row.id)
            .values(
                status="running",
                inflight_idx=row.idx,
                served_at=now,
                lease=now,
                started_at=sa.func.coalesce(_j.started_at, now),
            )
        )
    return Claim(
        job_id=row.id,
        idx=row.idx,
        url=row.url,
        options=row.options,
        caller=row.caller,
        caller_class=row.caller_class,
        worker=worker,
        job_created_at=row.created_at,
    )


def _fenced(claim: Claim) -> sa.ColumnElement[bool]:
    return sa.and_(
        _t.job_id == claim.job_id,
        _t.idx == claim.idx,
        _t.claimed_by == claim.worker,
        _t.status == "running",
    )


def heartbeat(store: Store, claim: Claim, *, now: float, lease_seconds: float) -> LeaseState:
    """Renew the claim's row lease. `lost`: the claim is gone (its lease lapsed and the target
    was failed), stop and write nothing. `cancelled`: held, but the job was cancelled."""
    with store.write() as conn:
        renewed = conn.execute(
            sa.update(batch_target).where(_fenced(claim)).values(lease_until=now + lease_seconds)
        ).rowcount
        if renewed != 1:
            return "lost"
        status = conn.execute(sa.select(_j.status).where(_j.id == claim.job_id)).scalar()
    return "cancelled" if status == "cancelled" else "held"


def complete_target(
    store: Store, claim: Claim, result: TargetResult, *, now: float
) -> JobChange | None:
    """Store the result, count it in `targets_done` once, bump the job's lease, and give the job
    its final status when this was its last target. None: the claim was lost, nothing stored."""
    nbytes = len(result.result.encode())
    with store.write() as conn:
        stored = conn.execute(
            sa.update(batch_target)
            .where(_fenced(claim))
            .values(
                status="done" if result.ok else "failed",
                result=result.result,
                error=result.error,
                hint=result.hint,
                outcome=result.outcome,
                retry_after=result.retry_after,
                nbytes=nbytes,
                busy_attempts=result.busy_attempts,
                lease_until=None,
                finished_at=now,
            )
        ).rowcount
        if stored != 1:
            return None
        status, finished = _count_finished(conn, claim.job_id, now=now, nbytes=nbytes)
    return JobChange(claim.job_id, claim.idx, status, finished, claim.job_created_at, nbytes)


def _count_finished(
    conn: Connection, job_id: str, *, now: float, nbytes: int, error: str | None = None
) -> tuple[JobStatus, bool]:
    """Count one more finished target of JOB_ID (whose running target it was) and settle the
    job: ERROR fails it outright; else its last target picks done, failed or partial."""
    job = conn.execute(
        sa.update(batch_job)
        .where(_j.id == job_id)
        .values(
            targets_done=_j.targets_done + 1,
            nbytes=_j.nbytes + nbytes,
            lease=now,
            inflight_idx=None,
        )
        .returning(_j.status, _j.targets_done, _j.targets_total)
    ).one()
    if job.status not in LIVE:  # cancelled: it keeps that status
        return job.status, False
    final: JobStatus
    if error is not None:
        final = "failed"
    elif job.targets_done == job.targets_total:
        done, failed = conn.execute(
            sa.select(
                sa.func.count().filter(_t.status == "done"),
                sa.func.count().filter(_t.status == "failed"),
            ).where(_t.job_id == job_id)
        ).one()
        final = "done" if failed == 0 else "failed" if done == 0 else "partial"
    else:
        return job.status, False
    conn.execute(
        sa.update(batch_job)
        .where(_j.id == job_id)
        .values(status=final, error=error, finished_at=now)
    )
    return final, True


def _fail_restart(
    conn: Connection, job_id: str, idx: int, worker: str, *, now: float
) -> JobChange | None:
    """Fail a running target `restart` and its job with it; never resumed, so never fetched
    twice. The update re-checks the claim: a result or renewal that won the race stands."""
    failed = conn.execute(
        sa.update(batch_target)
        .where(
            _t.job_id == job_id,
            _t.idx == idx,
            _t.claimed_by == worker,
            _t.status == "running",
        )
        .values(
            status="failed",
            outcome=RESTART,
            error=RESTART_ERROR,
            hint="retry",
            result=RESTART_ENVELOPE,
            lease_until=None,
            finished_at=now,
        )
    ).rowcount
    if failed != 1:
        return None
    created_at = conn.execute(sa.select(_j.created_at).where(_j.id == job_id)).scalar_one()
    status, finished = _count_finished(conn, job_id, now=now, nbytes=0, error=RESTART)
    return JobChange(job_id, idx, status, finished, created_at, 0)


def fail_lapsed(store: Store, *, now: float, dead_workers: Collection[str] = ()) -> list[JobChange]:
    """Fail every running target whose row lease lapsed before NOW, or whose worker is known to
    be dead (DEAD_WORKERS), with `restart`, and its job `failed` (`restart`)."""
    expired = _t.lease_until < now
    if dead_workers:
        expired = sa.or_(expired, _t.claimed_by.in_(list(dead_workers)))
    with store.write() as conn:
        rows = conn.execute(
            sa.select(_t.job_id, _t.idx, _t.claimed_by)
            .join(batch_job, sa.and_(_j.id == _t.job_id, _t.idx == _j.inflight_idx))
            .where(_j.inflight_idx.is_not(None), _t.status == "running", expired)
        ).all()
        changes = [_fail_restart(conn, r.job_id, r.idx, r.claimed_by, now=now) for r in rows]
    return [c for c in changes if c is not None]


def abandon(store: Store, claim: Claim, *, now: float) -> JobChange | None:
    """A worker shutting down gives its target up at once, exactly as if its lease had lapsed,
    instead of leaving it for `fail_lapsed`. None: the claim was already lost."""
    with store.write() as conn:
        return _fail_restart(conn, claim.job_id, claim.idx, claim.worker, now=now)


def running_workers(store: Store) -> list[str]:
    """The workers holding a claim now (for spotting dead ones on this host)."""
    with store.read() as conn:
        return list(
            conn.execute(
                sa.select(_t.claimed_by)
                .join(batch_job, sa.and_(_j.id == _t.job_id, _t.idx == _j.inflight_idx))
                .where(_j.inflight_idx.is_not(None), _t.status == "running")
                .distinct()
            ).scalars()
        )
