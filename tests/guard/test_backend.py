"""The connect-time check: resolve once, judge every answer, connect to a judged address only."""

from __future__ import annotations

import ipaddress
import socket

import anyio
import httpcore
import pytest

from sift_fetch.errors import Blocked, UpstreamFailed
from sift_fetch.guard import GuardedBackend, IPAddress, Policy, system_resolver
from tests.guard.conftest import RawServer, loopback_policy
from tests.support.net import LOOPBACK, Connector, Resolver

pytestmark = pytest.mark.anyio


def backend(names: dict[str, list[str]], connector: Connector, policy: Policy | None = None):  # type: ignore[no-untyped-def]
    resolver = Resolver(names)
    return GuardedBackend(policy or loopback_policy(), resolver, connector), resolver


@pytest.mark.parametrize(
    "answers",
    [
        ["127.0.0.2"],
        ["127.0.0.1", "127.0.0.2"],  # one bad answer is enough
        ["127.0.0.2", "127.0.0.1"],
        ["93.184.215.14", "10.0.0.1"],
        ["93.184.215.14", "169.254.169.254"],
        ["2606:4700::1111", "::1"],
        ["::ffff:10.0.0.1"],
        ["fe80::1%1"],
        ["fd00:ec2::254"],
    ],
)
async def test_a_name_with_any_private_answer_is_refused_before_connecting(
    answers: list[str],
) -> None:
    guarded, resolver = backend({"mixed.sift-test.dev": answers}, Connector(allowed=()))
    with pytest.raises(Blocked, match="resolves to a non-public address"):
        await guarded.connect_tcp("mixed.sift-test.dev", 80, timeout=5)
    assert resolver.calls == ["mixed.sift-test.dev"]


async def test_the_refusal_does_not_reveal_the_internal_address() -> None:
    guarded, _ = backend({"mixed.sift-test.dev": ["10.1.2.3"]}, Connector(allowed=()))
    with pytest.raises(Blocked) as info:
        await guarded.connect_tcp("mixed.sift-test.dev", 80, timeout=5)
    assert "10.1.2.3" not in info.value.detail


@pytest.mark.parametrize("host", ["127.0.0.2", "10.0.0.1", "::1", "::ffff:127.0.0.2"])
async def test_literal_addresses_are_judged_without_resolving(host: str) -> None:
    guarded, resolver = backend({}, Connector(allowed=()))
    with pytest.raises(Blocked, match="is not public"):
        await guarded.connect_tcp(host, 80, timeout=5)
    assert resolver.calls == []


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ({}, "cannot resolve"),
        ({"x.sift-test.dev": []}, "no addresses"),
        ({"x.sift-test.dev": ["nope"]}, "malformed"),
    ],
)
async def test_resolution_failures_are_upstream_failures(
    names: dict[str, list[str]], message: str
) -> None:
    guarded, _ = backend(names, Connector(allowed=()))
    with pytest.raises(UpstreamFailed, match=message):
        await guarded.connect_tcp("x.sift-test.dev", 80, timeout=5)


async def test_the_next_checked_address_is_tried_when_one_refuses() -> None:
    # 127.0.0.3 has no listener (refused); 127.0.0.1 has one. Both are checked first, both
    # are loopback, and the connector may reach nothing else.
    second = ipaddress.IPv4Address("127.0.0.3")
    connector = Connector(allowed=(second, LOOPBACK))
    policy = Policy(allow_networks=(ipaddress.ip_network("127.0.0.0/8"),))
    with RawServer(lambda _head: b"") as server:
        guarded, resolver = backend(
            {"two.sift-test.dev": ["127.0.0.3", "127.0.0.1"]}, connector, policy
        )
        stream = await guarded.connect_tcp("two.sift-test.dev", server.port, timeout=5)
        await stream.aclose()
    assert connector.calls == [(second, server.port), (LOOPBACK, server.port)]
    assert resolver.calls == ["two.sift-test.dev"]


async def test_every_address_refusing_is_a_connect_error() -> None:
    with socket.socket() as probe:  # a port with nothing behind it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    guarded, _ = backend({"down.sift-test.dev": ["127.0.0.1"]}, Connector())
    with pytest.raises(httpcore.ConnectError):
        await guarded.connect_tcp("down.sift-test.dev", port, timeout=5)


async def test_the_connect_timeout_covers_resolution_and_connecting() -> None:
    async def hanging_connector(ip: IPAddress, port: int) -> httpcore.AsyncNetworkStream:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    async def hanging_resolver(host: str, port: int) -> list[str]:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    policy = loopback_policy()
    slow_connect = GuardedBackend(
        policy, Resolver({"a.sift-test.dev": ["127.0.0.1"]}), hanging_connector
    )
    with pytest.raises(httpcore.ConnectTimeout):
        await slow_connect.connect_tcp("a.sift-test.dev", 80, timeout=0.1)
    slow_dns = GuardedBackend(policy, hanging_resolver, Connector(allowed=()))
    with pytest.raises(httpcore.ConnectTimeout):
        await slow_dns.connect_tcp("a.sift-test.dev", 80, timeout=0.1)


async def test_an_address_that_swallows_packets_leaves_time_for_the_next() -> None:
    black_hole = ipaddress.IPv4Address("127.0.0.3")
    real = Connector()

    async def first_hangs(ip: IPAddress, port: int) -> httpcore.AsyncNetworkStream:
        if ip == black_hole:
            await anyio.sleep_forever()
        return await real(ip, port)

    policy = Policy(allow_networks=(ipaddress.ip_network("127.0.0.0/8"),))
    resolver = Resolver({"two.sift-test.dev": ["127.0.0.3", "127.0.0.1"]})
    with RawServer(lambda _head: b"") as server:
        guarded = GuardedBackend(policy, resolver, first_hangs)
        stream = await guarded.connect_tcp("two.sift-test.dev", server.port, timeout=1.0)
        await stream.aclose()
    assert real.calls == [(LOOPBACK, server.port)]


async def test_the_system_resolver_answers_numeric_hosts_without_dns() -> None:
    assert await system_resolver("127.0.0.1", 80) == ["127.0.0.1"]
