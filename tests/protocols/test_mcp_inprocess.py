"""`/mcp` in-process: `[mcp] allowed_hosts` (the Host names it answers to, so a reverse proxy's
public name can be allowed without turning the SDK's DNS-rebinding check off), and its log
lines, which follow `/v1`'s rules."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sift_fetch.config import ConfigError, parse_config
from sift_fetch.logs import configure_logging
from tests.conftest import PG_URL, _pg_schema_url
from tests.support.app import MakeClient, client_factory
from tests.support.config import auth
from tests.support.site import LocalSite, Reply
from tests.support.tcpproxy import TcpProxy

PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.fixture
def site() -> Iterator[LocalSite]:
    with LocalSite({"/a.txt": Reply(body=b"alpha\n", content_type="text/plain")}) as s:
        yield s


@pytest.fixture
def make_client(tmp_path: Path, site: LocalSite) -> Iterator[MakeClient]:
    with client_factory(tmp_path, [site.port], {}) as make:
        yield make


def ping(make: MakeClient, host: str, **mcp: list[str]) -> int:
    client = make(mcp=mcp) if mcp else make()
    return client.post("/mcp", json=PING, headers={**ACCEPT, **auth(), "Host": host}).status_code


def test_a_proxys_public_name_is_allowed_once_configured(make_client: MakeClient) -> None:
    assert ping(make_client, "sift.example.org") == 421
    allowed = ["127.0.0.1", "sift.example.org"]
    assert ping(make_client, "sift.example.org", allowed_hosts=allowed) == 200
    assert ping(make_client, "sift.example.org:8443", allowed_hosts=allowed) == 200
    assert ping(make_client, "localhost:8080", allowed_hosts=allowed) == 421


def test_the_defaults_are_the_loopback_names(make_client: MakeClient) -> None:
    for host in ("127.0.0.1:8080", "localhost", "[::1]:8080"):
        assert ping(make_client, host) == 200


@pytest.mark.parametrize("bad", ["https://sift.example.org", "sift.example.org:443", "*", ""])
def test_a_host_name_is_a_name(bad: str) -> None:
    with pytest.raises(ConfigError, match=r"mcp\.allowed_hosts: .* is not a host name"):
        parse_config({"mcp": {"allowed_hosts": [bad]}})


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}


def test_log_lines_follow_v1s_rules(make_client: MakeClient, site: LocalSite) -> None:
    stream = io.BytesIO()
    configure_logging(stream=stream)
    try:
        client = make_client(mcp={"allowed_hosts": ["testserver"]})
        for who in ("alice", "spook"):
            headers = {**ACCEPT, **auth(who)}
            client.post("/mcp", json=call("fetch", {"url": site.url("/a.txt")}), headers=headers)
            client.post("/mcp", json=call("fetch", {"url": "http://10.1.2.3/"}), headers=headers)
            answer = client.post(
                "/mcp",
                json=call("batch_submit", {"targets": [{"url": "http://10.9.9.9/"}]}),
                headers=headers,
            ).json()
            assert answer["result"]["isError"] is True
    finally:
        configure_logging()
    # Every MCP request is counted under its route template, like the /v1 ones.
    assert 'route="/mcp",status="200"' in client.get("/metrics").text
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    logged = [line for line in lines if line["event"] == "http.request"]
    assert [line["route"] for line in logged] == ["/mcp"] * 6
    ok, blocked, batch, *restricted = logged
    assert ok["outcome"] == "ok" and ok["host"] == "127.0.0.1" and ok["caller"] == "alice"
    assert blocked["outcome"] == "blocked" and "10.1.2.3" in blocked["error"]
    assert "10.9.9.9" not in json.dumps(batch)  # a batch log line never names a target
    assert "10.1.2.3" not in json.dumps(restricted) and "spook" not in json.dumps(restricted)


@pytest.mark.skipif(not PG_URL, reason="SIFT_TEST_PG_URL is not set (CI sets it)")
def test_a_store_outage_is_a_tool_error_that_says_retry(tmp_path: Path, site: LocalSite) -> None:
    port = int(PG_URL.rsplit(":", 1)[1].split("/", 1)[0])
    proxy = TcpProxy(port)
    schema_url = _pg_schema_url(PG_URL)
    try:
        store_url = proxy.url_for(next(schema_url))
        with client_factory(tmp_path, [site.port], {}) as make:
            client = make(store={"url": store_url}, mcp={"allowed_hosts": ["testserver"]})
            body = call("batch_submit", {"targets": [{"url": site.url("/a.txt")}]})
            with proxy.outage():
                answer = client.post("/mcp", json=body, headers={**ACCEPT, **auth()}).json()
    finally:
        proxy.close()
        schema_url.close()
    assert answer["result"]["isError"] is True
    (content,) = answer["result"]["content"]
    assert content["text"] == (
        "unavailable: the store cannot be reached (hint: retry) (retry after 5.0 s)"
    )
