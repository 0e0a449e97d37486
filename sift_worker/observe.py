"""The worker's log lines and metrics for targets and jobs.

Batch log lines name the job, the target index, the outcome and timings: never a URL or a host
(for any caller), never an error's text (it can name either), never the idem_key.
"""

from __future__ import annotations

import time

import structlog

from sift_fetch import metrics
from sift_fetch.callers import Caller
from sift_fetch.logs import caller_fields
from sift_store.batch import Claim, JobChange, TargetResult
from sift_store.outage import is_outage, outage_reason

log = structlog.get_logger("sift.batch")


def claimed(claim: Claim, caller: Caller) -> None:
    log.info(
        "batch.claim",
        job=claim.job_id,
        idx=claim.idx,
        worker=claim.worker,
        since_submit_ms=round((time.time() - claim.job_created_at) * 1000),
        **caller_fields(caller),
    )


def target_stored(
    claim: Claim, caller: Caller, result: TargetResult, change: JobChange | None, seconds: float
) -> None:
    if change is None:
        log.warning(
            "batch.target.discarded",
            job=claim.job_id,
            idx=claim.idx,
            outcome=result.outcome,
            reason="claim_lost",
        )
        return
    metrics.observe_batch_target(result.outcome, seconds, change.nbytes)
    log.info(
        "batch.target",
        job=claim.job_id,
        idx=claim.idx,
        outcome=result.outcome,
        duration_ms=round(seconds * 1000, 1),
        bytes=change.nbytes,
        busy_attempts=result.busy_attempts,
        job_status=change.job_status,
        **caller_fields(caller),
    )
    if change.job_finished:
        job_finished(change, change.job_status)


def job_finished(change: JobChange, outcome: str) -> None:
    seconds = time.time() - change.job_created_at
    metrics.observe_batch_job(outcome, seconds)
    log.info(
        "batch.job",
        job=change.job_id,
        status=change.job_status,
        outcome=outcome,
        duration_ms=round(seconds * 1000),
    )


def restarted(changes: list[JobChange], reason: str) -> None:
    """Targets failed `restart` (a lapsed lease, a dead worker, or a shutdown that gave up)."""
    for change in changes:
        metrics.count_batch_target("restart")  # not a pipeline outcome: counted as `other`
        log.warning(
            "batch.restart",
            job=change.job_id,
            idx=change.idx,
            reason=reason,
            job_status=change.job_status,
        )
        if change.job_finished:
            job_finished(change, "restart")


def target_lost(claim: Claim) -> None:
    log.warning("batch.target.lost", job=claim.job_id, idx=claim.idx, worker=claim.worker)


def failed(event: str, exc: BaseException, **fields: object) -> None:
    """An error the worker survives, in one line: a store outage with its reason (a warning:
    the worker retries), anything else by its type only (its text may name a URL)."""
    if is_outage(exc):
        log.warning(event, reason=outage_reason(exc), **fields)
    else:
        log.error(event, error_type=type(exc).__name__, **fields)
