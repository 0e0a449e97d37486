"""Seed §12 item 3 end to end: a real API process and a real worker process over one SQLite
file, fetching from a local target server. Each test leaves its job finished, so the next one's
submit is never held up by the one-live-job-per-caller cap."""

from __future__ import annotations

import re
import time

import httpx
import sqlalchemy as sa

from sift_store.batch import batch_job
from sift_store.engine import open_store
from tests.batch_api.conftest import Gate
from tests.batch_api.stack import Stack
from tests.support.site import LocalSite


def submit(http: httpx.Client, targets: list[dict]) -> httpx.Response:
    return http.post("/v1/batch", json={"targets": targets})


def count_jobs(stack: Stack) -> int:
    store = open_store(stack.db_url)
    try:
        with store.read() as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(batch_job)).scalar_one()
    finally:
        store.dispose()


def test_submit_drains_and_resubmit_is_reused(stack: Stack, site: LocalSite) -> None:
    targets = [
        {"url": site.url("/a.txt"), "grep": "beta"},
        {"url": site.url("/data.json"), "jq": ".n[1]"},
    ]
    with stack.http() as http:
        first = submit(http, targets)
        assert first.status_code == 202, first.text
        job = first.json()["job_id"]
        summary = stack.wait_finished(job)
        assert summary["status"] == "done"
        assert summary["targets_done"] == summary["targets_total"] == 2
        again = submit(http, targets)
        assert again.status_code == 202
        assert again.json()["job_id"] == job and again.json()["reused"] is True
        full = http.get(f"/v1/batch/{job}", params={"results": 1}).json()
    contents = [row["result"]["content"] for row in full["targets"]]
    assert contents == ["2: beta", "2"]
    assert site.count("/a.txt") == 1  # reuse never fetches again


def test_refusals_at_submit_store_nothing(stack: Stack, site: LocalSite) -> None:
    before = count_jobs(stack)
    with stack.http() as http:
        port = submit(http, [{"url": site.url("/a.txt")}, {"url": "http://127.0.0.1:8081/x"}])
        assert port.status_code == 422 and port.json()["index"] == 1
        assert "port 8081" in port.json()["error"]
        many = submit(http, [{"url": site.url(f"/a.txt?n={i}")} for i in range(33)])
        assert many.status_code == 422 and many.json()["error"].startswith("too_many_targets")
    assert count_jobs(stack) == before


def test_blocked_name_fails_its_target_and_the_job_is_partial(
    stack: Stack, site: LocalSite
) -> None:
    targets = [
        {"url": f"http://docs.sift-test.dev:{site.port}/b.txt"},
        # Passes the pre-check (a name), refused at connect: it resolves outside the allowance.
        {"url": f"http://intranet.sift-test.dev:{site.port}/c.txt"},
        {"url": site.url("/gone")},
        {"url": site.url("/boom")},
    ]
    with stack.http() as http:
        job = submit(http, targets).json()["job_id"]
        summary = stack.wait_finished(job)
        one = http.get(f"/v1/batch/{job}/1").json()
    assert summary["status"] == "partial"
    rows = summary["targets"]
    assert [r["idx"] for r in rows] == [0, 1, 2, 3]
    assert [r["status"] for r in rows] == ["done", "failed", "failed", "failed"]
    assert summary["targets_done"] == 4 and summary["targets_failed"] == 3
    blocked, gone, boom = rows[1], rows[2], rows[3]
    assert blocked["error"].startswith("blocked:") and blocked["retryable"] is False
    assert gone["error"].startswith("upstream:") and gone["retryable"] is False
    assert boom["retryable"] is True
    assert one["status"] == "failed" and one["result"]["success"] is False
    assert site.count("/c.txt") == 0


def test_another_caller_gets_404(stack: Stack, site: LocalSite) -> None:
    with stack.http() as http:
        job = submit(http, [{"url": site.url("/b.txt"), "grep": "bravo"}]).json()["job_id"]
        stack.wait_finished(job)
    with stack.http("bob") as bob:
        unknown = bob.get("/v1/batch/ffffffffffffffffffffffffffffffff")
        assert unknown.status_code == 404
        for r in (
            bob.get(f"/v1/batch/{job}"),
            bob.get(f"/v1/batch/{job}/0"),
            bob.delete(f"/v1/batch/{job}"),
        ):
            assert r.status_code == 404 and r.json() == unknown.json()


def test_cancel_stores_the_in_flight_target_and_leaves_later_ones_pending(
    stack: Stack, site: LocalSite, gate: Gate
) -> None:
    targets = [
        {"url": site.url("/hold")},
        {"url": site.url("/a.txt?after")},
        {"url": site.url("/b.txt?after")},
    ]
    with stack.http() as http:
        job = submit(http, targets).json()["job_id"]
        for _ in range(300):  # until the worker is inside target 0 (bounded, never a timing check)
            if site.count("/hold"):
                break
            time.sleep(0.05)
        assert site.count("/hold") == 1
        r = http.delete(f"/v1/batch/{job}")
        assert r.status_code == 200 and r.json() == {"success": True, "status": "cancelled"}
        gate.open()
        for _ in range(300):  # until the in-flight target is stored
            summary = http.get(f"/v1/batch/{job}").json()
            if summary["targets"][0]["status"] != "running":
                break
            time.sleep(0.05)
        assert summary["status"] == "cancelled"
        assert [row["status"] for row in summary["targets"]] == ["done", "pending", "pending"]
        assert summary["targets_done"] == 1
        conflict = http.delete(f"/v1/batch/{job}")
        assert conflict.status_code == 409 and conflict.json()["status"] == "cancelled"
    assert site.count("/a.txt?after") == 0 and site.count("/b.txt?after") == 0


def test_metrics_label_batch_routes_by_template(stack: Stack, site: LocalSite) -> None:
    with stack.http() as http:
        job = submit(http, [{"url": site.url("/c.txt")}]).json()["job_id"]
        stack.wait_finished(job)
        http.get(f"/v1/batch/{job}/0")
        text = http.get("/metrics").text
    assert 'route="/v1/batch/{job_id}"' in text
    assert 'route="/v1/batch/{job_id}/{idx}"' in text
    assert job not in text


def test_one_scrape_shows_the_worker_counts(stack: Stack, site: LocalSite) -> None:
    with stack.http() as http:
        job = submit(http, [{"url": site.url("/c.txt"), "grep": "charlie"}]).json()["job_id"]
        stack.wait_finished(job)
        text = http.get("/metrics").text
    # Counted by the worker process, served by the API (one multiprocess directory for both).
    assert re.search(r'^sift_batch_targets_total\{outcome="ok"\} [1-9]', text, re.MULTILINE)
