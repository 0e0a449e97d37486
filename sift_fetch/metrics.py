"""Every Prometheus series Sift exports, defined once; names are the seed's, exactly.

Outcome labels go through `fold_outcome`, so a raw string never becomes a label value.

One scrape of the API shows the worker's series too. Counters and histograms are written by the
process that counts them, so they go through prometheus-client's multiprocess mode (both
processes share `PROMETHEUS_MULTIPROC_DIR`). The two batch gauges are not counted anywhere: they
are facts about the store (targets waiting, targets running in any worker on any host), so
`metrics_registry` reads them from the store at scrape time instead of trusting any one
process's idea of them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

import structlog
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from sqlalchemy.exc import SQLAlchemyError

from sift_fetch.errors import fold_outcome
from sift_store.batch_jobs import batch_gauges
from sift_store.engine import Store

REQUESTS = Counter(
    "sift_http_requests_total", "API requests by route template and status", ["route", "status"]
)
REQUEST_SECONDS = Histogram(
    "sift_http_request_seconds", "API request latency by route template", ["route"]
)
FETCHES = Counter("sift_fetch_total", "Fetched targets by outcome", ["outcome"])
FETCH_SECONDS = Histogram("sift_fetch_seconds", "Time to fetch and render one target")
FETCH_CACHE = Counter(
    "sift_fetch_cache_total",
    "Where fetched targets' answers came from: this process's memory, the shared cache, or a miss",
    ["source"],
)

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


def observe_batch_target(outcome: str, seconds: float, nbytes: int) -> None:
    """One stored target: its outcome, claim-to-stored time and result size."""
    count_batch_target(outcome)
    BATCH_TARGET_SECONDS.observe(seconds)
    BATCH_RESULT_BYTES.observe(nbytes)


def observe_batch_job(outcome: str, seconds: float) -> None:
    """A job reached its end (done, partial, failed, restart, cancelled) SECONDS after submit."""
    count_batch_job(outcome)
    BATCH_JOB_SECONDS.observe(max(seconds, 0.0))


class _BatchGauges:
    def __init__(self, store: Store) -> None:
        self._store = store

    def collect(self) -> Iterable[Metric]:
        try:
            gauges = batch_gauges(self._store)
        except SQLAlchemyError as exc:
            # The rest of the scrape is still worth having; the gap in these two shows it.
            structlog.get_logger("sift.metrics").warning(
                "metrics.batch_gauges_failed", error_type=type(exc).__name__
            )
            return
        yield GaugeMetricFamily(
            "sift_batch_queue_depth",
            "Pending targets of queued and running batch jobs",
            value=gauges.queue_depth,
        )
        yield GaugeMetricFamily(
            "sift_batch_targets_inflight",
            "Batch targets being fetched now, by any worker",
            value=gauges.inflight,
        )


def batch_collector(store: Store) -> Collector:
    """The two batch gauges, read from STORE on every collect (one small read)."""
    return _BatchGauges(store)


def metrics_registry(store: Store, *, multiproc_dir: str | None = None) -> CollectorRegistry:
    """What `GET /metrics` serves: every process's counters and histograms (from the
    multiprocess directory, when one is set; else this process's), plus the batch gauges.
    Collecting reads the store, so call `generate_latest` on it off the event loop."""
    path = multiproc_dir or os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    registry = CollectorRegistry()
    if path:
        MultiProcessCollector(registry, path=path)
    else:
        registry.register(REGISTRY)
    registry.register(batch_collector(store))
    return registry
