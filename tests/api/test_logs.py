"""Log lines: one per request, stable event name; restricted callers leave no host or detail."""

from __future__ import annotations

import io

from starlette.testclient import TestClient

from tests.api.conftest import logged
from tests.support.config import TOKENS, auth
from tests.support.site import LocalSite


def requests_logged(stream: io.BytesIO) -> list[dict]:
    return [line for line in logged(stream) if line["event"] == "http.request"]


def test_one_line_per_request_with_outcome(
    client: TestClient, site: LocalSite, log_lines: io.BytesIO
) -> None:
    client.post("/v1/fetch", json={"url": site.url("/article")}, headers=auth("alice"))
    client.post("/v1/fetch", json={"url": site.url("/gone")}, headers=auth("alice"))
    ok, gone = requests_logged(log_lines)
    assert ok["route"] == "/v1/fetch" and ok["status"] == 200 and ok["outcome"] == "ok"
    assert ok["caller"] == "alice" and ok["host"] == "127.0.0.1"
    assert isinstance(ok["duration_ms"], float)
    assert gone["status"] == 502 and gone["outcome"] == "upstream_4xx"
    assert "404" in gone["error"]


def test_restricted_caller_leaves_no_host_reason_or_name(
    client: TestClient, site: LocalSite, log_lines: io.BytesIO
) -> None:
    client.post("/v1/fetch", json={"url": site.url("/article")}, headers=auth("spook"))
    client.post("/v1/fetch", json={"url": site.url("/gone")}, headers=auth("spook"))
    client.post("/v1/fetch", json={"url": "http://10.1.2.3/x"}, headers=auth("spook"))
    lines = requests_logged(log_lines)
    assert [line["outcome"] for line in lines] == ["ok", "upstream_4xx", "blocked"]
    raw = log_lines.getvalue().decode()
    for line in lines:
        assert line["caller_class"] == "restricted"
        assert not {"host", "error", "caller", "url"} & set(line)
    for secret in ("127.0.0.1", "10.1.2.3", "spook", "/gone", "answered", "private"):
        assert secret not in raw


def test_tokens_never_reach_the_log(
    client: TestClient, site: LocalSite, log_lines: io.BytesIO
) -> None:
    client.post("/v1/fetch", json={"url": site.url("/article")}, headers=auth("alice"))
    client.post(
        "/v1/fetch",
        json={"url": site.url("/article")},
        headers={"Authorization": "Bearer leaked-guess"},
    )
    raw = log_lines.getvalue().decode()
    assert requests_logged(log_lines)[1]["status"] == 401
    for token in (*TOKENS.values(), "leaked-guess"):
        assert token not in raw
