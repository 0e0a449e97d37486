"""`/v1/batch` in-process, with no worker running: validation, caps, reads, leases, cancel.

Jobs stay queued here, so every assertion is about what the API itself decides.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from sift_fetch.logs import configure_logging
from sift_store.batch import batch_job
from sift_store.engine import open_store
from tests.batch_api.conftest import MakeClient
from tests.support.config import auth
from tests.support.site import LocalSite


def submit(client: TestClient, targets: object, who: str = "alice"):  # type: ignore[no-untyped-def]
    return client.post("/v1/batch", json={"targets": targets}, headers=auth(who))


def job_rows(tmp_path: Path) -> list[sa.Row]:
    store = open_store(f"sqlite:///{tmp_path / 'sift.db'}")
    try:
        with store.read() as conn:
            return list(conn.execute(sa.select(batch_job)).all())
    finally:
        store.dispose()


def test_submit_is_202_and_the_same_list_is_reused(client: TestClient, site: LocalSite) -> None:
    targets = [{"url": site.url("/a.txt")}, {"url": site.url("/b.txt"), "grep": "b"}]
    first = submit(client, targets)
    assert first.status_code == 202, first.text
    body = first.json()
    assert body == {
        "success": True,
        "job_id": body["job_id"],
        "status": "queued",
        "targets": 2,
        "reused": False,
    }
    assert first.headers["location"] == f"/v1/batch/{body['job_id']}"
    again = submit(client, targets)
    assert again.status_code == 202
    assert again.json()["job_id"] == body["job_id"] and again.json()["reused"] is True


@pytest.mark.parametrize(
    ("payload", "needle"),
    [
        (b"{not json", "not valid JSON"),
        (b"[]", "must be a JSON object"),
        (b'{"targets": []}', "at least one target"),
        (b'{"targets": "http://a.example/"}', "targets must be a list"),
        (b'{"targets": [{"url": "http://a.example/"}], "priority": 1}', "unknown field priority"),
        (b'{"targets": [{"url": "http://a.example/"}, "http://b.example/"]}', "targets[1]"),
        (
            b'{"targets": [{"url": "http://a.example/"}, {"url": "http://b.example/", "mode": 1}]}',
            "targets[1].mode",
        ),
        (b'{"targets": [{"url": "http://a.example/", "colour": "red"}]}', "targets[0].colour"),
    ],
)
def test_malformed_submits_are_400_naming_field_and_index(
    client: TestClient, tmp_path: Path, payload: bytes, needle: str
) -> None:
    r = client.post("/v1/batch", content=payload, headers=auth())
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["success"] is False and needle in body["error"]
    assert body["hint"] == "fix_request"
    if "targets[1]" in needle:
        assert body["index"] == 1
    assert job_rows(tmp_path) == []


def test_precheck_refusal_is_422_naming_the_index_and_stores_nothing(
    client: TestClient, site: LocalSite, tmp_path: Path
) -> None:
    targets = [
        {"url": site.url("/a.txt")},
        {"url": "http://10.0.0.1/admin"},  # refused by the pre-check: no packet is ever sent
    ]
    r = submit(client, targets)
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["index"] == 1
    assert body["error"].startswith("blocked: targets[1].url:") and "10.0.0.1" in body["error"]
    r = submit(client, [{"url": "http://docs.sift-test.dev:8081/"}])
    assert r.status_code == 422 and r.json()["index"] == 0 and "port 8081" in r.json()["error"]
    assert job_rows(tmp_path) == [] and site.hits == []


def test_over_targets_per_job_is_422(client: TestClient, site: LocalSite, tmp_path: Path) -> None:
    r = submit(client, [{"url": site.url(f"/a.txt?{i}")} for i in range(33)])
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("too_many_targets:") and "32" in r.json()["error"]
    assert job_rows(tmp_path) == []
    assert submit(client, [{"url": site.url(f"/a.txt?{i}")} for i in range(32)]).status_code == 202


def test_body_cap_is_256_kib_on_the_stream(client: TestClient, site: LocalSite) -> None:
    # Over 64 KiB (the cap elsewhere) but under 256 KiB: accepted.
    padded = json.dumps({"targets": [{"url": site.url("/a.txt")}]}) + " " * 100_000
    assert client.post("/v1/batch", content=padded, headers=auth()).status_code == 202

    def chunks() -> Iterator[bytes]:  # no Content-Length: the cap must count the stream
        yield b'{"targets": [{"url": "http://a.example/"}]}'
        for _ in range(300):
            yield b" " * 1024

    r = client.post("/v1/batch", content=chunks(), headers=auth())
    assert r.status_code == 413 and "256 KiB" in r.json()["error"]


def test_second_live_job_of_a_caller_is_429_with_retry_after(
    client: TestClient, site: LocalSite
) -> None:
    assert submit(client, [{"url": site.url("/a.txt")}]).status_code == 202
    r = submit(client, [{"url": site.url("/b.txt")}])
    assert r.status_code == 429, r.text
    assert int(r.headers["retry-after"]) >= 1
    assert r.json()["hint"] == "retry" and r.json()["error"].startswith("busy:")
    # Another caller is not held up by alice's job.
    assert submit(client, [{"url": site.url("/b.txt")}], who="bob").status_code == 202


def test_jobs_total_is_429_with_retry_after(make_client: MakeClient, site: LocalSite) -> None:
    client = make_client(batch={"jobs_total": 1})
    assert submit(client, [{"url": site.url("/a.txt")}]).status_code == 202
    r = submit(client, [{"url": site.url("/a.txt")}], who="bob")
    assert r.status_code == 429 and "retry-after" in r.headers


def test_auth_is_required_everywhere(client: TestClient, site: LocalSite) -> None:
    job = submit(client, [{"url": site.url("/a.txt")}]).json()["job_id"]
    for method, path in [
        ("POST", "/v1/batch"),
        ("GET", f"/v1/batch/{job}"),
        ("GET", f"/v1/batch/{job}/0"),
        ("DELETE", f"/v1/batch/{job}"),
    ]:
        r = client.request(method, path, json={"targets": [{"url": site.url("/a.txt")}]})
        assert r.status_code == 401 and r.json()["error"].startswith("unauthorized")


def test_summary_of_a_queued_job(client: TestClient, site: LocalSite) -> None:
    targets = [{"url": site.url("/a.txt")}, {"url": site.url("/data.json"), "jq": ".n"}]
    job = submit(client, targets).json()["job_id"]
    r = client.get(f"/v1/batch/{job}", headers=auth())
    assert r.status_code == 200
    body = r.json()
    assert body["job_id"] == job and body["status"] == "queued"
    assert body["targets_total"] == 2 and body["targets_done"] == 0
    assert body["created_at"].endswith("Z") and body["expires_at"] > body["created_at"]
    assert [row["idx"] for row in body["targets"]] == [0, 1]
    assert [row["status"] for row in body["targets"]] == ["pending", "pending"]
    assert body["targets"][1]["options"]["jq"] == ".n"
    assert all("result" not in row and "error" not in row for row in body["targets"])
    one = client.get(f"/v1/batch/{job}/1", headers=auth()).json()
    assert one["idx"] == 1 and one["status"] == "pending" and "result" not in one
    for bad in ("2", "-1", "x", "99999999999"):
        r = client.get(f"/v1/batch/{job}/{bad}", headers=auth())
        assert r.status_code == 404 and r.json()["success"] is False


def test_another_callers_job_is_the_same_404_as_an_unknown_id(
    client: TestClient, site: LocalSite
) -> None:
    job = submit(client, [{"url": site.url("/a.txt")}]).json()["job_id"]
    unknown = client.get("/v1/batch/0123456789abcdef", headers=auth("bob"))
    assert unknown.status_code == 404
    for method, path in [
        ("GET", f"/v1/batch/{job}"),
        ("GET", f"/v1/batch/{job}?results=1"),
        ("DELETE", f"/v1/batch/{job}"),
    ]:
        r = client.request(method, path, headers=auth("bob"))
        assert r.status_code == 404 and r.json() == unknown.json()
    r = client.get(f"/v1/batch/{job}/0", headers=auth("bob"))
    assert r.status_code == 404 and r.json() == unknown.json()
    assert client.get(f"/v1/batch/{job}", headers=auth()).json()["status"] == "queued"


def test_owner_reads_touch_the_lease_and_others_do_not(
    client: TestClient, site: LocalSite, tmp_path: Path
) -> None:
    job = submit(client, [{"url": site.url("/a.txt")}]).json()["job_id"]
    store = open_store(f"sqlite:///{tmp_path / 'sift.db'}")

    def lease() -> float:
        with store.read() as conn:
            return conn.execute(sa.select(batch_job.c.lease)).scalar_one()

    def age_lease() -> None:
        with store.write() as conn:
            conn.execute(sa.update(batch_job).values(lease=1000.0))

    try:
        for path in (f"/v1/batch/{job}", f"/v1/batch/{job}/0", f"/v1/batch/{job}?results=1"):
            age_lease()
            client.get(path, headers=auth("bob"))
            assert lease() == 1000.0
            body = client.get(path, headers=auth()).json()
            assert lease() > 1000.0
            if "expires_at" in body:
                assert body["expires_at"] > "2000"
    finally:
        store.dispose()


def test_cancel_then_conflict(client: TestClient, site: LocalSite) -> None:
    job = submit(client, [{"url": site.url("/a.txt")}, {"url": site.url("/b.txt")}]).json()
    r = client.delete(f"/v1/batch/{job['job_id']}", headers=auth())
    assert r.status_code == 200 and r.json() == {"success": True, "status": "cancelled"}
    summary = client.get(f"/v1/batch/{job['job_id']}", headers=auth()).json()
    assert summary["status"] == "cancelled"
    assert [row["status"] for row in summary["targets"]] == ["pending", "pending"]
    again = client.delete(f"/v1/batch/{job['job_id']}", headers=auth())
    assert again.status_code == 409
    assert again.json()["status"] == "cancelled" and again.json()["success"] is False
    # A cancelled job is not reused: the same list makes a new job.
    fresh = submit(client, [{"url": site.url("/a.txt")}, {"url": site.url("/b.txt")}]).json()
    assert fresh["reused"] is False and fresh["job_id"] != job["job_id"]


@pytest.mark.parametrize("query", ["wait=61", "wait=-1", "wait=abc", "wait=nan", "results=maybe"])
def test_bad_query_parameters_are_400(client: TestClient, site: LocalSite, query: str) -> None:
    job = submit(client, [{"url": site.url("/a.txt")}]).json()["job_id"]
    r = client.get(f"/v1/batch/{job}?{query}", headers=auth())
    assert r.status_code == 400 and r.json()["hint"] == "fix_request"


def test_wait_on_an_unfinished_job_answers_with_its_status(
    client: TestClient, site: LocalSite
) -> None:
    job = submit(client, [{"url": site.url("/a.txt")}]).json()["job_id"]
    r = client.get(f"/v1/batch/{job}?wait=0.3", headers=auth())
    assert r.status_code == 200 and r.json()["status"] == "queued"


def test_batch_log_lines_carry_no_url_or_host(client: TestClient, site: LocalSite) -> None:
    stream = io.BytesIO()
    configure_logging(stream=stream)
    try:
        submit(client, [{"url": "http://10.0.0.1/secret-path"}])
        job = submit(client, [{"url": site.url("/secret-file.txt")}], who="spook").json()
        client.get(f"/v1/batch/{job['job_id']}", headers=auth("spook"))
        client.delete(f"/v1/batch/{job['job_id']}", headers=auth("spook"))
    finally:
        configure_logging()
    lines = [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]
    batch_lines = [line for line in lines if str(line.get("route", "")).startswith("/v1/batch")]
    assert len(batch_lines) == 4
    text = stream.getvalue().decode()
    assert "10.0.0.1" not in text and "secret" not in text and "127.0.0.1" not in text
    assert {line["route"] for line in batch_lines} == {"/v1/batch", "/v1/batch/{job_id}"}
    assert batch_lines[0]["status"] == 422 and batch_lines[1]["outcome"] == "created"
    assert "caller" not in batch_lines[1]  # spook is restricted: logged by class only
