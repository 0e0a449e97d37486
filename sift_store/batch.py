"""Batch storage: the job and target tables, the shapes the batch functions take and return, and
the typed cap errors. The queries live in `batch_jobs` (what the API does) and `batch_claims`
(what the worker does).

A job row carries a little denormalised state so the hot paths never scan targets:
`inflight_idx` (the index of its running target, NULL when none) makes "a live job with no
running target" a one-row predicate for the claim, and `served_at` (the last claim) orders
the round-robin. Live jobs are at most `jobs_total` rows, so every index the worker's queries
use starts from a handful of rows however many finished jobs the store holds.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import sqlalchemy as sa

from sift_store.meta import metadata

JobStatus = Literal["queued", "running", "done", "partial", "failed", "cancelled"]
TargetStatus = Literal["pending", "running", "done", "failed"]

LIVE: tuple[JobStatus, ...] = ("queued", "running")
# Live jobs are a handful of rows among any number of finished ones, a skew SQLite's statistics
# cannot express: after ANALYZE its planner would rather scan the table than use an index on
# `status`. So live rows get a partial index of their own, and every query after live jobs spells
# the index's predicate with these literal values, which is what lets either planner use it.
LIVE_PREDICATE = "status IN ({})".format(", ".join(f"'{s}'" for s in LIVE))
# A resubmitted list returns one of these while its lease holds; failed/cancelled never.
REUSABLE: tuple[JobStatus, ...] = ("queued", "running", "done", "partial")
FINISHED: tuple[JobStatus, ...] = ("done", "partial", "failed", "cancelled")

# The job error and the target outcome of a target whose worker died (or gave it up).
RESTART = "restart"
RESTART_ERROR = "restart: the worker stopped while fetching this target; it is not retried"

# Sent (PostgreSQL) in the transaction that creates a job, so idle workers wake on commit.
NOTIFY_CHANNEL = "sift_batch"

batch_job = sa.Table(
    "batch_job",
    metadata,
    sa.Column("id", sa.Text(), primary_key=True),
    sa.Column("caller", sa.Text(), nullable=False),
    sa.Column("caller_class", sa.Text(), nullable=False),
    sa.Column("idem_key", sa.Text(), nullable=False),
    sa.Column("status", sa.Text(), nullable=False),
    sa.Column("error", sa.Text()),
    sa.Column("targets_total", sa.Integer(), nullable=False),
    sa.Column("targets_done", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.Double(), nullable=False),
    sa.Column("started_at", sa.Double()),
    sa.Column("finished_at", sa.Double()),
    sa.Column("served_at", sa.Double(), nullable=False),
    sa.Column("lease", sa.Double(), nullable=False),
    sa.Column("nbytes", sa.BigInteger(), nullable=False),
    sa.Column("inflight_idx", sa.Integer()),
    sa.Index("ix_batch_job_idem_key", "idem_key"),
    sa.Index(
        "ix_batch_job_live",
        "served_at",
        sqlite_where=sa.text(LIVE_PREDICATE),
        postgresql_where=sa.text(LIVE_PREDICATE),
    ),
    sa.Index("ix_batch_job_lease", "lease"),
    sa.Index(
        "ix_batch_job_inflight",
        "inflight_idx",
        sqlite_where=sa.text("inflight_idx IS NOT NULL"),
        postgresql_where=sa.text("inflight_idx IS NOT NULL"),
    ),
)

batch_target = sa.Table(
    "batch_target",
    metadata,
    sa.Column(
        "job_id",
        sa.Text(),
        sa.ForeignKey("batch_job.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("idx", sa.Integer(), primary_key=True, autoincrement=False),
    sa.Column("url", sa.Text(), nullable=False),
    sa.Column("options", sa.Text(), nullable=False),
    sa.Column("status", sa.Text(), nullable=False),
    sa.Column("result", sa.Text()),
    sa.Column("error", sa.Text()),
    sa.Column("hint", sa.Text()),
    sa.Column("outcome", sa.Text()),
    sa.Column("retry_after", sa.Double()),
    sa.Column("nbytes", sa.Integer(), nullable=False),
    sa.Column("busy_attempts", sa.Integer(), nullable=False),
    sa.Column("claimed_by", sa.Text()),
    sa.Column("lease_until", sa.Double()),
    sa.Column("started_at", sa.Double()),
    sa.Column("finished_at", sa.Double()),
    # The database itself refuses a second running target in one job.
    sa.Index(
        "ux_batch_target_one_running",
        "job_id",
        unique=True,
        sqlite_where=sa.text("status = 'running'"),
        postgresql_where=sa.text("status = 'running'"),
    ),
)


def is_live() -> sa.TextClause:
    """`batch_job` is queued or running, in the form the partial index matches."""
    return sa.text(f"batch_job.{LIVE_PREDICATE}")


class BatchCapError(Exception):
    """A submit over one of the caps; the API maps each subclass to its status code."""

    http_status = 429


class TooManyTargets(BatchCapError):
    http_status = 422


class CallerBusy(BatchCapError):
    pass


class JobsBusy(BatchCapError):
    pass


@dataclass(frozen=True)
class JobLimits:
    targets_per_job: int = 32
    jobs_per_caller: int = 1
    jobs_total: int = 8


@dataclass(frozen=True)
class NewTarget:
    url: str
    options: str  # canonical JSON of the target's options (Target.options_json())


@dataclass(frozen=True)
class Submitted:
    job_id: str
    status: JobStatus
    targets_total: int
    reused: bool


@dataclass(frozen=True)
class TargetView:
    idx: int
    url: str
    options: str
    status: TargetStatus
    result: str | None  # the envelope JSON; None while unfinished or when not asked for
    error: str | None
    hint: str | None
    outcome: str | None
    retry_after: float | None
    nbytes: int
    busy_attempts: int
    started_at: float | None
    finished_at: float | None


@dataclass(frozen=True)
class JobView:
    job_id: str
    caller: str
    caller_class: str
    status: JobStatus
    error: str | None
    targets_total: int
    targets_done: int
    created_at: float
    started_at: float | None
    finished_at: float | None
    lease: float
    nbytes: int
    targets: list[TargetView]


@dataclass(frozen=True)
class CancelOutcome:
    status: JobStatus
    changed: bool  # False: the job had already finished (or was cancelled before)
    created_at: float


@dataclass(frozen=True)
class Claim:
    """One running target and the worker that holds it; every later write is fenced on it."""

    job_id: str
    idx: int
    url: str
    options: str
    caller: str
    caller_class: str
    worker: str
    job_created_at: float


@dataclass(frozen=True)
class TargetResult:
    """What the worker stores for one finished target."""

    ok: bool
    outcome: str
    result: str  # the envelope JSON, success or failure alike
    error: str | None = None
    hint: str | None = None
    retry_after: float | None = None
    busy_attempts: int = 0


@dataclass(frozen=True)
class JobChange:
    """A target write that was applied, and where it left its job."""

    job_id: str
    idx: int
    job_status: JobStatus
    job_finished: bool  # this write gave the job its final status
    job_created_at: float
    nbytes: int


@dataclass(frozen=True)
class Gauges:
    queue_depth: int  # pending targets of live jobs
    inflight: int  # running targets


def idem_key(caller: str, targets: Sequence[NewTarget]) -> str:
    """sha256(caller + NUL + canonical target list); stored, never logged beside its list."""
    canonical = json.dumps(
        [{**json.loads(t.options), "url": t.url} for t in targets],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(f"{caller}\0{canonical}".encode()).hexdigest()
