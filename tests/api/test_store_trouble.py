"""Store trouble is a clear answer, not a bare 500: with the store out of reach (PostgreSQL behind
a cut proxy), locked or full (SQLite), read-only (PostgreSQL) or on a really full disk, every
/v1 route answers `503 unavailable` with Retry-After, each failure is one log line and no
traceback, /healthz names what fails, and a finished job's result is still read when the lease
touch that comes with the read cannot be written."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from starlette.testclient import TestClient

from sift_store.batch import TargetResult
from sift_store.batch_claims import claim, complete_target
from sift_store.engine import Store
from sift_store.outage import DISK_FULL, UNREACHABLE
from tests.api.conftest import logged
from tests.support.app import MakeClient
from tests.support.config import auth
from tests.support.site import LocalSite
from tests.support.storefaults import (
    fill,
    postgresql_read_only,
    small_disk,
    sqlite_full,
    sqlite_locked,
)
from tests.support.tcpproxy import TcpProxy

LOCKED = "the store is locked by another writer"
READ_ONLY = "the store is read-only"
KEPT = "the result the worker stored"


def store_of(client: TestClient) -> Store:
    return client.app.state.runtime.store  # type: ignore[attr-defined]


def finished_job(client: TestClient, site: LocalSite) -> str:
    """A job of one target, drained as the worker would drain it."""
    submitted = client.post(
        "/v1/batch", json={"targets": [{"url": site.url("/a")}]}, headers=auth()
    )
    assert submitted.status_code == 202, submitted.text
    store = store_of(client)
    got = claim(store, worker="test-worker", now=time.time(), lease_seconds=60)
    assert got is not None
    result = TargetResult(
        ok=True, outcome="ok", result=json.dumps({"success": True, "content": KEPT})
    )
    assert complete_target(store, got, result, now=time.time()) is not None
    return str(submitted.json()["job_id"])


def assert_unavailable(response: httpx.Response, reason: str) -> None:
    assert response.status_code == 503, response.text
    body = response.json()
    assert body["success"] is False and body["hint"] == "retry"
    assert body["error"] == f"unavailable: {reason}"
    assert int(response.headers["retry-after"]) >= 1


def assert_still_read(client: TestClient, job_id: str) -> None:
    row = client.get(f"/v1/batch/{job_id}/0", headers=auth())
    assert row.status_code == 200, row.text
    assert row.json()["result"]["content"] == KEPT
    summary = client.get(f"/v1/batch/{job_id}", headers=auth())
    assert summary.status_code == 200 and summary.json()["status"] == "done"


def assert_unhealthy(client: TestClient, *, read: str, write: str) -> None:
    health = client.get("/healthz")
    assert health.status_code == 503, health.text
    body = health.json()
    assert body["ok"] is False and body["checks"] == {"store_read": read, "store_write": write}
    assert body["error"] == f"unavailable: {read if read != 'ok' else write}"
    assert body["hint"] == "retry" and int(health.headers["retry-after"]) >= 1


def events(log_lines: io.BytesIO, name: str) -> list[dict[str, Any]]:
    lines = logged(log_lines)
    # No traceback anywhere: structlog would have rendered one as `exception`.
    assert not [line for line in lines if "exception" in line]
    return [line for line in lines if line["event"] == name]


def test_postgresql_out_of_reach_every_route_is_503_then_back(
    make_client: MakeClient, site: LocalSite, pg_url: str, log_lines: io.BytesIO
) -> None:
    proxy = TcpProxy(5432)
    try:
        client = make_client(store={"url": proxy.url_for(pg_url)})
        job = finished_job(client, site)
        calls = [
            ("POST", "/v1/fetch", {"url": site.url("/article")}),
            ("POST", "/v1/batch", {"targets": [{"url": site.url("/b")}]}),
            ("GET", f"/v1/batch/{job}", None),
            ("GET", f"/v1/batch/{job}/0", None),
            ("DELETE", f"/v1/batch/{job}", None),
        ]
        with proxy.outage():
            for method, path, body in calls:
                answer = client.request(method, path, json=body, headers=auth())
                assert_unavailable(answer, UNREACHABLE)
            assert_unhealthy(client, read=UNREACHABLE, write=UNREACHABLE)
        assert client.get("/healthz").status_code == 200
        assert_still_read(client, job)
    finally:
        proxy.close()
    # One line per failure: each store call the API itself makes, with its reason; /v1/fetch's
    # outage comes back from the pipeline and is told by its request line.
    lost = events(log_lines, "store.unavailable")
    routes = ["/v1/batch", "/v1/batch/{job_id}", "/v1/batch/{job_id}/{idx}", "/v1/batch/{job_id}"]
    assert [line["route"] for line in lost] == routes
    assert {line["reason"] for line in lost} == {UNREACHABLE}
    assert not events(log_lines, "batch.touch.unavailable")
    failed = [line for line in events(log_lines, "http.request") if line["status"] == 503]
    assert len(failed) == len(calls) + 1  # and /healthz


def assert_writes_refused_reads_answer(
    client: TestClient, site: LocalSite, job: str, reason: str
) -> None:
    """While the store takes no writes: a submit and a cancel are 503 for REASON, a finished
    job still reads, and /healthz says the write probe fails."""
    submit = client.post("/v1/batch", json={"targets": [{"url": site.url("/b")}]}, headers=auth())
    assert_unavailable(submit, reason)
    assert_unavailable(client.delete(f"/v1/batch/{job}", headers=auth()), reason)
    assert_still_read(client, job)
    assert_unhealthy(client, read="ok", write=reason)


def test_sqlite_locked_writes_are_503_and_finished_results_still_read(
    make_client: MakeClient, site: LocalSite, log_lines: io.BytesIO
) -> None:
    client = make_client()
    job = finished_job(client, site)
    with sqlite_locked(store_of(client)):
        assert_writes_refused_reads_answer(client, site, job, LOCKED)
    assert client.get("/healthz").status_code == 200
    assert [line["reason"] for line in events(log_lines, "store.unavailable")] == [LOCKED] * 2
    touches = events(log_lines, "batch.touch.unavailable")
    assert [line["reason"] for line in touches] == [LOCKED] * 2


def test_sqlite_full_submit_is_503_and_reads_answer(
    make_client: MakeClient, site: LocalSite
) -> None:
    client = make_client()
    job = finished_job(client, site)
    # Long URLs: a job whose rows need new pages, which a full store has none of.
    targets = [{"url": site.url(f"/{i}/" + "x" * 3000)} for i in range(32)]
    with sqlite_full(store_of(client)):
        submit = client.post("/v1/batch", json={"targets": targets}, headers=auth())
        assert_unavailable(submit, DISK_FULL)
        assert_still_read(client, job)
    assert client.post("/v1/batch", json={"targets": targets}, headers=auth()).status_code == 202


def test_postgresql_read_only_writes_are_503_and_finished_results_still_read(
    make_client: MakeClient, site: LocalSite, pg_url: str, log_lines: io.BytesIO
) -> None:
    client = make_client(store={"url": pg_url})
    job = finished_job(client, site)
    with postgresql_read_only(store_of(client)):
        assert_writes_refused_reads_answer(client, site, job, READ_ONLY)
    assert client.get("/healthz").status_code == 200
    touches = events(log_lines, "batch.touch.unavailable")
    assert [line["reason"] for line in touches] == [READ_ONLY] * 2


def test_a_really_full_disk_is_unhealthy_and_finished_results_still_read(
    make_client: MakeClient, site: LocalSite, tmp_path: Path, log_lines: io.BytesIO
) -> None:
    with small_disk(tmp_path / "disk") as disk:
        client = make_client(store={"url": f"sqlite:///{disk / 'sift.db'}"})
        job = finished_job(client, site)
        assert client.get("/healthz").status_code == 200
        fill(disk)
        assert_unhealthy(client, read="ok", write=DISK_FULL)
        submit = client.post(
            "/v1/batch", json={"targets": [{"url": site.url("/b")}]}, headers=auth()
        )
        assert_unavailable(submit, DISK_FULL)
        assert_still_read(client, job)
        (disk / "filler").unlink()
        assert client.get("/healthz").status_code == 200
    touches = events(log_lines, "batch.touch.unavailable")
    assert [line["reason"] for line in touches] == [DISK_FULL] * 2


def test_any_other_store_error_is_a_500_envelope_not_an_outage(
    make_client: MakeClient, site: LocalSite, log_lines: io.BytesIO
) -> None:
    client = make_client()
    job = finished_job(client, site)
    with store_of(client).write() as conn:
        conn.execute(sa.text("DROP TABLE batch_target"))  # a schema out of step: a bug
    raw = TestClient(client.app, raise_server_exceptions=False)
    answer = raw.get(f"/v1/batch/{job}/0", headers=auth())
    assert answer.status_code == 500
    assert answer.json() == {
        "success": False,
        "error": "internal: an unexpected error; the server's log has the details",
        "hint": None,
    }
    assert not [line for line in logged(log_lines) if line["event"] == "store.unavailable"]
