"""`[mcp] allowed_hosts`: the Host names `/mcp` answers to, so a reverse proxy's public name
can be allowed without turning the SDK's DNS-rebinding check off."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sift_fetch.config import ConfigError, parse_config
from tests.support.app import MakeClient, client_factory
from tests.support.config import auth

PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[MakeClient]:
    with client_factory(tmp_path, [], {}) as make:
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
