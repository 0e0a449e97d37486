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
from typing import Any, Literal

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
    is_live,
)
from sift_store.engine import Store

_j = batch_job.c
_t = batch_target.c

LeaseState = Literal["held", "cancelled", "lost"]

RESTART_ENVELOPE = json.dumps({"success": False, "error": RESTART_ERROR, "hint": "retry"})


def _p(name: str) -> sa.BindParameter[Any]:
    return sa.bindparam(f"p_{name}")


# The statements of the per-target path, built once: building a SQLAlchemy statement costs more
# CPU than running it on SQLite, and a draining worker runs these for every target.

_HAS_WORK = sa.select(_j.id).where(is_live(), _j.inflight_idx.is_(None)).limit(1)

# The job first, from batch_job alone: a join would let a planner without statistics start
# from the targets and wade through every pending target of every cancelled job.
_PICK_JOB = (
    sa.select(_j.id, _j.caller, _j.caller_class, _j.created_at)
    .where(
        is_live(),
        _j.inflight_idx.is_(None),
        sa.exists().where(_t.job_id == _j.id, _t.status == "pending"),
    )
    .order_by(_j.served_at, _j.id)
    .limit(1)
)
_PICK_JOB_SKIP_LOCKED = _PICK_JOB.with_for_update(skip_locked=True)
_FIRST_PENDING = (
    sa.select(_t.idx, _t.url, _t.options)
    .where(_t.job_id == _p("job"), _t.status == "pending")
    .order_by(_t.idx)
    .limit(1)
)
_START_TARGET = (
    sa.update(batch_target)
    .where(_t.job_id == _p("job"), _t.idx == _p("idx"))
    .values(
        status="running", claimed_by=_p("worker"), lease_until=_p("until"), started_at=_p("now")
    )
)
_START_JOB = (
    sa.update(batch_job)
    .where(_j.id == _p("job"))
    .values(
        status="running",
        inflight_idx=_p("idx"),
        served_at=_p("now"),
        lease=_p("now"),
        started_at=sa.func.coalesce(_j.started_at, _p("now")),
    )
)
# Every write about a claimed target holds only while the claim does.
_FENCE = sa.and_(
    _t.job_id == _p("job"),
    _t.idx == _p("idx"),
    _t.claimed_by == _p("worker"),
    _t.status == "running",
)
_RENEW = sa.update(batch_target).where(_FENCE).values(lease_until=_p("until"))
_JOB_STATUS = sa.select(_j.status).where(_j.id == _p("job"))
_STORE_RESULT = (
    sa.update(batch_target)
    .where(_FENCE)
    .values(
        status=_p("status"),
        result=_p("result"),
        error=_p("error"),
        hint=_p("hint"),
        outcome=_p("outcome"),
        retry_after=_p("retry_after"),
        nbytes=_p("nbytes"),
        busy_attempts=_p("busy_attempts"),
        lease_until=None,
        finished_at=_p("now"),
    )
)
_COUNT_ONE = (
    sa.update(batch_job)
    .where(_j.id == _p("job"))
    .values(
        targets_done=_j.targets_done + 1,
        nbytes=_j.nbytes + _p("nbytes"),
        lease=_p("now"),
        inflight_idx=None,
    )
    .returning(_j.status, _j.targets_done, _j.targets_total)
)
_TALLY = sa.select(
    sa.func.count().filter(_t.status == "done"),
    sa.func.count().filter(_t.status == "failed"),
).where(_t.job_id == _p("job"))
_SETTLE = (
    sa.update(batch_job)
    .where(_j.id == _p("job"))
    .values(status=_p("status"), error=_p("error"), finished_at=_p("now"))
)


def _claim_keys(claim: Claim) -> dict[str, Any]:
    return {"p_job": claim.job_id, "p_idx": claim.idx, "p_worker": claim.worker}


def has_work(store: Store) -> bool:
    """A read-only look for a claimable job, so a wake-up with nothing to do takes no lock."""
    with store.read() as conn:
        return conn.execute(_HAS_WORK).first() is not None


def claim(store: Store, *, worker: str, now: float, lease_seconds: float) -> Claim | None:
    """Mark the lowest pending target of the live job served longest ago (and not running a
    target now) `running` for WORKER until NOW + LEASE_SECONDS; None when there is none."""
    with store.write() as conn:
        return _claim(conn, store.is_sqlite, worker=worker, now=now, lease_seconds=lease_seconds)


def _claim(
    conn: Connection, is_sqlite: bool, *, worker: str, now: float, lease_seconds: float
) -> Claim | None:
    job = conn.execute(_PICK_JOB if is_sqlite else _PICK_JOB_SKIP_LOCKED).first()
    if job is None:
        return None
    target = conn.execute(_FIRST_PENDING, {"p_job": job.id}).one()
    keys = {"p_job": job.id, "p_idx": target.idx, "p_now": now}
    conn.execute(_START_TARGET, {**keys, "p_worker": worker, "p_until": now + lease_seconds})
    conn.execute(_START_JOB, keys)
    return Claim(
        job_id=job.id,
        idx=target.idx,
        url=target.url,
        options=target.options,
        caller=job.caller,
        caller_class=job.caller_class,
        worker=worker,
        job_created_at=job.created_at,
    )


def heartbeat(store: Store, claim: Claim, *, now: float, lease_seconds: float) -> LeaseState:
    """Renew the claim's row lease. `lost`: the claim is gone (its lease lapsed and the target
    was failed), stop and write nothing. `cancelled`: held, but the job was cancelled."""
    with store.write() as conn:
        renewed = conn.execute(
            _RENEW, {**_claim_keys(claim), "p_until": now + lease_seconds}
        ).rowcount
        if renewed != 1:
            return "lost"
        status = conn.execute(_JOB_STATUS, {"p_job": claim.job_id}).scalar()
    return "cancelled" if status == "cancelled" else "held"


def complete_target(
    store: Store, claim: Claim, result: TargetResult, *, now: float
) -> JobChange | None:
    """Store the result, count it in `targets_done` once, bump the job's lease, and give the job
    its final status when this was its last target. None: the claim was lost, nothing stored."""
    with store.write() as conn:
        return _complete(conn, claim, result, now=now)


def complete_and_claim(
    store: Store, claim: Claim, result: TargetResult, *, now: float, lease_seconds: float
) -> tuple[JobChange | None, Claim | None]:
    """`complete_target`, then `claim` for the same worker, in one transaction: a draining
    worker pays one commit per target instead of two."""
    with store.write() as conn:
        change = _complete(conn, claim, result, now=now)
        got = _claim(
            conn, store.is_sqlite, worker=claim.worker, now=now, lease_seconds=lease_seconds
        )
    return change, got


def _complete(
    conn: Connection, claim: Claim, result: TargetResult, *, now: float
) -> JobChange | None:
    nbytes = len(result.result.encode())
    stored = conn.execute(
        _STORE_RESULT,
        {
            **_claim_keys(claim),
            "p_status": "done" if result.ok else "failed",
            "p_result": result.result,
            "p_error": result.error,
            "p_hint": result.hint,
            "p_outcome": result.outcome,
            "p_retry_after": result.retry_after,
            "p_nbytes": nbytes,
            "p_busy_attempts": result.busy_attempts,
            "p_now": now,
        },
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
    job = conn.execute(_COUNT_ONE, {"p_job": job_id, "p_nbytes": nbytes, "p_now": now}).one()
    if job.status not in LIVE:  # cancelled: it keeps that status
        return job.status, False
    final: JobStatus
    if error is not None:
        final = "failed"
    elif job.targets_done == job.targets_total:
        done, failed = conn.execute(_TALLY, {"p_job": job_id}).one()
        final = "done" if failed == 0 else "failed" if done == 0 else "partial"
    else:
        return job.status, False
    conn.execute(_SETTLE, {"p_job": job_id, "p_status": final, "p_error": error, "p_now": now})
    return final, True


def _fail_restart(
    conn: Connection,
    job_id: str,
    idx: int,
    worker: str,
    *,
    now: float,
    because: sa.ColumnElement[bool] | None = None,
) -> JobChange | None:
    """Fail a running target `restart` and its job with it; never resumed, so never fetched
    twice. The update re-checks the claim and BECAUSE: a result or a renewal that won the race
    (on PostgreSQL, another worker's commit since our select) stands."""
    failed = conn.execute(
        sa.update(batch_target)
        .where(
            _t.job_id == job_id,
            _t.idx == idx,
            _t.claimed_by == worker,
            _t.status == "running",
            sa.true() if because is None else because,
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
        changes = [
            _fail_restart(conn, r.job_id, r.idx, r.claimed_by, now=now, because=expired)
            for r in rows
        ]
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
