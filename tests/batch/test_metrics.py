"""Batch metrics (seed §12 item 4): exact series names, label values, gauge values from the
store, histogram counts, and raw outcomes folded to `other`."""

from __future__ import annotations

import time

from prometheus_client import REGISTRY, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from sift_fetch import metrics
from sift_fetch.callers import Caller
from sift_fetch.target import Target
from sift_store.batch_claims import claim
from sift_store.engine import Store
from tests.batch.helpers import new_targets, submit, urls
from tests.batch.worker_harness import (
    Recorder,
    Reply,
    fail_reply,
    finished,
    job,
    ok_reply,
    run_worker,
)

SERIES = {
    "sift_batch_jobs": "counter",
    "sift_batch_targets": "counter",
    "sift_batch_job_seconds": "histogram",
    "sift_batch_target_seconds": "histogram",
    "sift_batch_result_bytes": "histogram",
    "sift_batch_queue_depth": "gauge",
    "sift_batch_targets_inflight": "gauge",
}


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scrape(store: Store) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    text = generate_latest(metrics.metrics_registry(store)).decode()
    out: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out.setdefault(s.name, {})[tuple(sorted(s.labels.items()))] = s.value
    return out


def test_series_names_and_types(store: Store) -> None:
    # The sift_batch_* families of one scrape, exactly (counters get `_total` on the wire;
    # `_created` timestamps exist only outside multiprocess mode).
    text = generate_latest(metrics.metrics_registry(store)).decode()
    families = {
        f.name: f.type
        for f in text_string_to_metric_families(text)
        if f.name.startswith("sift_batch") and not f.name.endswith("_created")
    }
    assert families == SERIES


def test_outcomes_fold_to_other() -> None:
    before = sample("sift_batch_jobs_total", outcome="other")
    metrics.count_batch_job("exploded")
    metrics.count_batch_job("created")
    assert sample("sift_batch_jobs_total", outcome="other") == before + 1
    before = sample("sift_batch_targets_total", outcome="other")
    metrics.count_batch_target("restart")
    metrics.count_batch_target("upstream_4xx")
    assert sample("sift_batch_targets_total", outcome="other") == before + 1
    assert sample("sift_batch_targets_total", outcome="upstream_4xx") >= 1
    assert sample("sift_batch_targets_total", outcome="restart") == 0


def test_a_drained_job_counts_its_targets_job_and_sizes(store: Store) -> None:
    def reply(_c: Caller, target: Target) -> Reply:
        if target.url.endswith("1"):
            return fail_reply("upstream_5xx", "upstream: the site answered 502")
        if target.url.endswith("2"):
            return fail_reply("weird-new-outcome", "error: something new")
        return ok_reply(target)

    names = [
        ("sift_batch_targets_total", {"outcome": "ok"}),
        ("sift_batch_targets_total", {"outcome": "upstream_5xx"}),
        ("sift_batch_targets_total", {"outcome": "other"}),
        ("sift_batch_jobs_total", {"outcome": "partial"}),
        ("sift_batch_target_seconds_count", {}),
        ("sift_batch_result_bytes_count", {}),
        ("sift_batch_result_bytes_sum", {}),
        ("sift_batch_job_seconds_count", {}),
    ]
    before = [sample(n, **labels) for n, labels in names]
    sub = submit(store, 4, now=time.time())
    run_worker(store, Recorder(reply), finished(store, sub.job_id))
    view = job(store, sub.job_id)
    after = [sample(n, **labels) for n, labels in names]
    deltas = [round(a - b, 6) for a, b in zip(after, before, strict=True)]
    assert deltas == [2, 1, 1, 1, 4, 4, view.nbytes, 1]
    assert view.status == "partial"


def test_gauges_are_read_from_the_store_at_scrape_time(store: Store) -> None:
    first = scrape(store)
    assert first["sift_batch_queue_depth"][()] == 0
    assert first["sift_batch_targets_inflight"][()] == 0
    submit(store, new_targets(urls(3, "https://a.example/")), caller="a")
    submit(store, new_targets(urls(2, "https://b.example/")), caller="b")
    assert claim(store, worker="w", now=time.time(), lease_seconds=30) is not None
    seen = scrape(store)
    assert seen["sift_batch_queue_depth"][()] == 4
    assert seen["sift_batch_targets_inflight"][()] == 1
    # The same scrape carries the counters too.
    assert "sift_batch_jobs_total" in seen
