"""Batch queries the API makes: submit (idempotency + caps + insert in one transaction), reads
that never write, touch, cancel, and the two gauges.

Every read and write is scoped by caller: another caller's job is simply not found, so the API
answers 404 without a separate ownership check.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy import Connection

from sift_store.batch import (
    LIVE,
    NOTIFY_CHANNEL,
    REUSABLE,
    CallerBusy,
    CancelOutcome,
    Gauges,
    JobLimits,
    JobsBusy,
    JobView,
    NewTarget,
    Submitted,
    TargetView,
    TooManyTargets,
    batch_job,
    batch_target,
    idem_key,
    is_live,
)
from sift_store.engine import Store

# Serialises submits on PostgreSQL (SQLite's BEGIN IMMEDIATE already does): the caps count rows
# that a concurrent submit could be inserting, and READ COMMITTED would not see them.
PG_SUBMIT_LOCK_KEY = int.from_bytes(b"sift:bat", "big")

_j = batch_job.c
_t = batch_target.c
_HEX = frozenset("0123456789abcdef")


def is_job_id(value: str) -> bool:
    """Whether VALUE could name a job: 32 lowercase hex digits, as `create_job` makes them.
    Anything else names no job and need not reach a query (PostgreSQL refuses a NUL in one)."""
    return len(value) == 32 and _HEX.issuperset(value)


def create_job(
    store: Store,
    *,
    caller: str,
    caller_class: str,
    targets: Sequence[NewTarget],
    limits: JobLimits,
    ttl: float,
    now: float,
) -> Submitted:
    """The caller's live-or-finished job for this exact list if its lease holds (its lease
    bumped), else a new queued job. Raises TooManyTargets, CallerBusy or JobsBusy."""
    if not targets:
        raise ValueError("a batch needs at least one target")
    if len(targets) > limits.targets_per_job:
        raise TooManyTargets(
            f"{len(targets)} targets; a batch takes at most {limits.targets_per_job}"
        )
    key = idem_key(caller, targets)
    with store.write() as conn:
        if not store.is_sqlite:
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(PG_SUBMIT_LOCK_KEY)))
        reused = _reuse(conn, key, caller, ttl=ttl, now=now)
        if reused is not None:
            return reused
        mine, everyone = conn.execute(
            sa.select(sa.func.count().filter(_j.caller == caller), sa.func.count()).where(is_live())
        ).one()
        if mine >= limits.jobs_per_caller:
            raise CallerBusy(
                f"you already have {mine} batch job(s) queued or running "
                f"(at most {limits.jobs_per_caller}); wait for it to finish or cancel it"
            )
        if everyone >= limits.jobs_total:
            raise JobsBusy(
                f"{everyone} batch jobs are queued or running (at most {limits.jobs_total})"
            )
        job_id = uuid.uuid4().hex
        conn.execute(
            sa.insert(batch_job).values(
                id=job_id,
                caller=caller,
                caller_class=caller_class,
                idem_key=key,
                status="queued",
                targets_total=len(targets),
                targets_done=0,
                created_at=now,
                # A new job joins the round-robin behind every job served before it arrived.
                served_at=now,
                lease=now,
                nbytes=0,
            )
        )
        conn.execute(
            sa.insert(batch_target),
            [
                {
                    "job_id": job_id,
                    "idx": idx,
                    "url": t.url,
                    "options": t.options,
                    "status": "pending",
                    "nbytes": 0,
                    "busy_attempts": 0,
                }
                for idx, t in enumerate(targets)
            ],
        )
        if not store.is_sqlite:
            conn.execute(sa.select(sa.func.pg_notify(NOTIFY_CHANNEL, "")))
    return Submitted(job_id, "queued", len(targets), reused=False)


def _reuse(conn: Connection, key: str, caller: str, *, ttl: float, now: float) -> Submitted | None:
    found = conn.execute(
        sa.select(_j.id)
        .where(
            _j.idem_key == key,
            _j.caller == caller,
            _j.status.in_(REUSABLE),
            _j.lease >= now - ttl,
        )
        .order_by(_j.created_at.desc())
        .limit(1)
    ).scalar()
    if found is None:
        return None
    # The status is checked again by the update itself, so a job that turned failed since the
    # select (on PostgreSQL, another worker) is not handed out.
    row = conn.execute(
        sa.update(batch_job)
        .where(_j.id == found, _j.status.in_(REUSABLE))
        .values(lease=now)
        .returning(_j.status, _j.targets_total)
    ).first()
    if row is None:
        return None
    return Submitted(found, row.status, row.targets_total, reused=True)


def get_job(store: Store, job_id: str, *, caller: str, results: bool = False) -> JobView | None:
    """The job and its targets in order; `results` includes each finished envelope."""
    with store.read() as conn:
        job = conn.execute(sa.select(batch_job).where(_j.id == job_id, _j.caller == caller)).first()
        if job is None:
            return None
        columns = [c for c in batch_target.c if c.name != "result" or results]
        rows = conn.execute(sa.select(*columns).where(_t.job_id == job_id).order_by(_t.idx)).all()
    return JobView(
        job_id=job.id,
        caller=job.caller,
        caller_class=job.caller_class,
        status=job.status,
        error=job.error,
        targets_total=job.targets_total,
        targets_done=job.targets_done,
        created_at=job.created_at,
        started_at=job.started_at,
        finished_at=job.finished_at,
        lease=job.lease,
        nbytes=job.nbytes,
        targets=[_target_view(r._mapping) for r in rows],
    )


def get_target(store: Store, job_id: str, idx: int, *, caller: str) -> TargetView | None:
    """One target with its result; None when the job is not this caller's or has no IDX."""
    with store.read() as conn:
        row = conn.execute(
            sa.select(batch_target)
            .join(batch_job, _j.id == _t.job_id)
            .where(_t.job_id == job_id, _t.idx == idx, _j.caller == caller)
        ).first()
    return None if row is None else _target_view(row._mapping)


def _target_view(row: sa.RowMapping) -> TargetView:
    return TargetView(
        idx=row["idx"],
        url=row["url"],
        options=row["options"],
        status=row["status"],
        result=row.get("result"),
        error=row["error"],
        hint=row["hint"],
        outcome=row["outcome"],
        retry_after=row["retry_after"],
        nbytes=row["nbytes"],
        busy_attempts=row["busy_attempts"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
    )


def touch(store: Store, job_id: str, *, caller: str, now: float) -> bool:
    """Bump the job's lease (an owner read); False when there is no such job for CALLER."""
    with store.write() as conn:
        done = conn.execute(
            sa.update(batch_job).where(_j.id == job_id, _j.caller == caller).values(lease=now)
        )
        return done.rowcount == 1


def cancel(store: Store, job_id: str, *, caller: str, now: float) -> CancelOutcome | None:
    """Flip a live job to cancelled: its in-flight target still finishes and is stored, later
    targets stay pending. A finished job is left as it is. None: no such job for CALLER."""
    with store.write() as conn:
        changed = conn.execute(
            sa.update(batch_job)
            .where(_j.id == job_id, _j.caller == caller, _j.status.in_(LIVE))
            .values(status="cancelled", finished_at=now, lease=now)
        ).rowcount
        row = conn.execute(
            sa.select(_j.status, _j.created_at).where(_j.id == job_id, _j.caller == caller)
        ).first()
    return None if row is None else CancelOutcome(row.status, changed == 1, row.created_at)


def batch_gauges(store: Store) -> Gauges:
    """Pending targets of live jobs, and running targets; both from the few live rows."""
    inflight = sa.case((_j.inflight_idx.is_not(None), 1), else_=0)
    with store.read() as conn:
        depth = conn.execute(
            sa.select(
                sa.func.coalesce(sa.func.sum(_j.targets_total - _j.targets_done - inflight), 0)
            ).where(is_live())
        ).scalar_one()
        running = conn.execute(
            sa.select(sa.func.count()).where(_j.inflight_idx.is_not(None))
        ).scalar_one()
    return Gauges(queue_depth=int(depth), inflight=int(running))
