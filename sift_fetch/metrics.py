"""Every Prometheus series Sift exports, defined once; names are the seed's, exactly.

Outcome labels go through `fold_outcome`, so a raw string never becomes a label value.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

from sift_fetch.errors import fold_outcome

REQUESTS = Counter(
    "sift_http_requests_total", "API requests by route template and status", ["route", "status"]
)
REQUEST_SECONDS = Histogram(
    "sift_http_request_seconds", "API request latency by route template", ["route"]
)
FETCHES = Counter("sift_fetch_total", "Fetched targets by outcome", ["outcome"])
FETCH_SECONDS = Histogram("sift_fetch_seconds", "Time to fetch and render one target")

BATCH_JOB_OUTCOMES = ("created", "reused", "done", "partial", "failed", "cancelled", "restart")
BATCH_JOBS = Counter("sift_batch_jobs", "Batch jobs by outcome", ["outcome"])
BATCH_TARGETS = Counter("sift_batch_targets", "Batch targets by outcome", ["outcome"])
BATCH_JOB_SECONDS = Histogram(
    "sift_batch_job_seconds",
    "Batch job time from submit to its final status",
    buckets=(1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200),
)
BATCH_TARGET_SECONDS = Histogram(
    "sift_batch_target_seconds",
    "Batch target time from claim to stored result",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 210),
)
BATCH_RESULT_BYTES = Histogram(
    "sift_batch_result_bytes",
    "Size of one stored batch target result",
    buckets=(256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304),
)


def count_fetch(outcome: str) -> None:
    FETCHES.labels(fold_outcome(outcome)).inc()


def count_batch_job(outcome: str) -> None:
    BATCH_JOBS.labels(outcome if outcome in BATCH_JOB_OUTCOMES else "other").inc()


def count_batch_target(outcome: str) -> None:
    BATCH_TARGETS.labels(fold_outcome(outcome)).inc()
