"""Shared helpers for the batch tests: target lists, submits and row dumps on a fake clock."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from sift_fetch.target import Target
from sift_store.batch import JobLimits, NewTarget, Submitted, batch_job, batch_target
from sift_store.batch_jobs import create_job
from sift_store.engine import Store

NOW = 1_000_000.0
TTL = 86_400.0
LIMITS = JobLimits(targets_per_job=32, jobs_per_caller=1, jobs_total=8)


def new_targets(urls: Sequence[str], **options: object) -> list[NewTarget]:
    return [NewTarget(u, Target(url=u, **options).options_json()) for u in urls]  # type: ignore[arg-type]


def urls(n: int, prefix: str = "https://example.com/p") -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


def submit(
    store: Store,
    targets: Sequence[NewTarget] | int = 3,
    *,
    caller: str = "alice",
    caller_class: str = "standard",
    now: float = NOW,
    limits: JobLimits = LIMITS,
    ttl: float = TTL,
) -> Submitted:
    if isinstance(targets, int):
        targets = new_targets(urls(targets))
    return create_job(
        store,
        caller=caller,
        caller_class=caller_class,
        targets=targets,
        limits=limits,
        ttl=ttl,
        now=now,
    )


def job_rows(store: Store) -> dict[str, sa.RowMapping]:
    with store.read() as conn:
        return {r["id"]: r for r in conn.execute(sa.select(batch_job)).mappings()}


def target_rows(store: Store) -> dict[str, list[sa.RowMapping]]:
    out: dict[str, list[sa.RowMapping]] = {}
    with store.read() as conn:
        rows = conn.execute(
            sa.select(batch_target).order_by(batch_target.c.job_id, batch_target.c.idx)
        ).mappings()
        for r in rows:
            out.setdefault(r["job_id"], []).append(r)
    return out
