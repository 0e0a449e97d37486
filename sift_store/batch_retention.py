"""Batch retention: the TTL sweep and the byte budget, both by whole jobs, never a live one.

Only finished jobs with no target in flight are ever deleted: a live job is the worker's queue
(it progresses, and its lease is bumped on every claim and result), and a cancelled job whose
last target is still running will have that result stored.
"""

from __future__ import annotations

import sqlalchemy as sa

from sift_store.batch import FINISHED, batch_job
from sift_store.engine import Store

# Deleting in slices keeps each write transaction (and SQLite's write lock) short.
SWEEP_SLICE = 500
_EVICT_PAGE = 200
PG_EVICT_LOCK_KEY = int.from_bytes(b"sift:bev", "big")

_j = batch_job.c


def _deletable() -> sa.ColumnElement[bool]:
    return sa.and_(_j.status.in_(FINISHED), _j.inflight_idx.is_(None))


def sweep(store: Store, *, now: float, ttl: float) -> int:
    """Delete finished jobs (targets cascade) whose lease is older than TTL; how many."""
    cutoff = now - ttl
    deleted = 0
    while True:
        with store.write() as conn:
            ids = (
                conn.execute(
                    sa.select(_j.id)
                    .where(_j.lease < cutoff, _deletable())
                    .order_by(_j.lease)
                    .limit(SWEEP_SLICE)
                )
                .scalars()
                .all()
            )
            if not ids:
                return deleted
            # The conditions again: an owner read may have bumped a lease since the select.
            deleted += conn.execute(
                sa.delete(batch_job).where(_j.id.in_(ids), _j.lease < cutoff, _deletable())
            ).rowcount
        if len(ids) < SWEEP_SLICE:
            return deleted


def batch_nbytes(store: Store) -> int:
    """Bytes of stored results, over every job."""
    with store.read() as conn:
        return int(
            conn.execute(sa.select(sa.func.coalesce(sa.func.sum(_j.nbytes), 0))).scalar_one()
        )


def evict_over_budget(store: Store, *, max_bytes: int) -> int:
    """Delete whole finished jobs, oldest lease first, until the results fit MAX_BYTES; how
    many. Live jobs are never evicted, so the total can stay over while they run."""
    evicted = 0
    with store.write() as conn:
        if not store.is_sqlite:
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(PG_EVICT_LOCK_KEY)))
        excess = conn.execute(sa.select(sa.func.coalesce(sa.func.sum(_j.nbytes), 0))).scalar_one()
        excess -= max_bytes
        after: tuple[float, str] | None = None
        while excess > 0:
            # Jobs holding no bytes would go without freeing any: they wait for the sweep.
            page = sa.select(_j.id, _j.lease, _j.nbytes).where(_deletable(), _j.nbytes > 0)
            if after is not None:
                page = page.where(sa.tuple_(_j.lease, _j.id) > sa.tuple_(*after))
            rows = conn.execute(page.order_by(_j.lease, _j.id).limit(_EVICT_PAGE)).all()
            if not rows:
                break
            victims = []
            for row in rows:
                victims.append(row.id)
                excess -= row.nbytes
                if excess <= 0:
                    break
            evicted += conn.execute(
                sa.delete(batch_job).where(_j.id.in_(victims), _deletable())
            ).rowcount
            after = (rows[-1].lease, rows[-1].id)
    return evicted
