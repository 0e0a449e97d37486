"""denied_reason: every non-public range, IPv4 hidden inside IPv6, and the explicit allowance.

Pure functions: no address here is ever connected to.
"""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sift_fetch.config import GuardConfig
from sift_fetch.guard import Policy, denied_reason

NO_ALLOWANCE = Policy()

DENIED = [
    # IPv4
    "0.0.0.0",
    "0.255.255.255",
    "10.0.0.1",
    "100.64.0.1",
    "100.127.255.254",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",  # cloud metadata
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.1",
    "192.0.0.9",
    "192.0.2.1",
    "192.88.99.1",
    "192.168.1.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    # IPv6
    "::",
    "::1",
    "fc00::1",
    "fd00:ec2::254",  # AWS metadata over IPv6
    "fe80::1",
    "fe80::a9fe:a9fe",
    "fec0::1",
    "ff02::1",
    "2001:db8::1",
    "3fff::1",
    "100::1",
    "64:ff9b:1::1",
    "2001:2::1",
    "2001:10::1",
    "5f00::1",
    "::ffff:0:a00:1",  # IPv4-translated 10.0.0.1
    "4000::1",  # outside 2000::/3: unassigned
]

EMBEDDED_DENIED = {
    "::ffff:127.0.0.1": "IPv4-mapped",
    "::ffff:a9fe:a9fe": "IPv4-mapped",
    "0:0:0:0:0:ffff:0a00:0001": "IPv4-mapped",
    "::127.0.0.1": "IPv4-compatible",
    "::10.0.0.1": "IPv4-compatible",
    "64:ff9b::10.0.0.1": "NAT64",
    "64:ff9b::169.254.169.254": "NAT64",
    "2002:7f00:1::": "6to4",
    "2002:c0a8:101::1": "6to4",
    # Teredo: the client address is the last 32 bits inverted (~f5fffffe = 10.0.0.1).
    "2001:0:4136:e378:8000:63bf:f5ff:fffe": "Teredo client",
    "2001:0:4136:e378:8000:63bf:80ff:fffe": "Teredo client",  # 127.0.0.1
    "2001:0:a00:1:8000:63bf:bdbd:bdbd": "Teredo server",  # server 10.0.0.1
}

PUBLIC = [
    "1.1.1.1",
    "8.8.8.8",
    "93.184.215.14",
    "100.63.255.255",  # just below CGNAT
    "100.128.0.0",  # just above CGNAT
    "172.15.255.255",
    "172.32.0.0",
    "192.0.3.1",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",  # Teredo client 8.8.8.8, public server
]


@pytest.mark.parametrize("text", DENIED)
def test_non_public_addresses_are_denied(text: str) -> None:
    assert denied_reason(ipaddress.ip_address(text), NO_ALLOWANCE) is not None


@pytest.mark.parametrize(("text", "form"), EMBEDDED_DENIED.items())
def test_ipv4_inside_ipv6_is_judged_by_the_ipv4_address(text: str, form: str) -> None:
    reason = denied_reason(ipaddress.ip_address(text), NO_ALLOWANCE)
    assert reason is not None and reason.startswith(form)


@pytest.mark.parametrize("text", PUBLIC)
def test_public_addresses_are_allowed(text: str) -> None:
    assert denied_reason(ipaddress.ip_address(text), NO_ALLOWANCE) is None


def test_a_scoped_ipv6_address_is_denied() -> None:
    assert denied_reason(ipaddress.IPv6Address("2606:4700::1%eth0"), NO_ALLOWANCE) is not None


def test_the_allowance_is_exact() -> None:
    policy = Policy(allow_networks=(ipaddress.ip_network("127.0.0.1/32"),))
    assert denied_reason(ipaddress.ip_address("127.0.0.1"), policy) is None
    assert denied_reason(ipaddress.ip_address("127.0.0.2"), policy) == "loopback"
    assert denied_reason(ipaddress.ip_address("10.0.0.1"), policy) is not None


def test_policy_from_config() -> None:
    policy = Policy.from_config(
        GuardConfig(allow_cidrs=["127.0.0.1/32", "fd00::/8"], allow_ports=[8081])
    )
    assert policy.allow_networks == (
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("fd00::/8"),
    )
    assert policy.allow_ports == (8081,)
    assert Policy.from_config(GuardConfig()) == Policy()


_EMBEDDING_V6 = [
    ipaddress.ip_network(n)
    for n in ("::/96", "::ffff:0:0/96", "64:ff9b::/96", "2002::/16", "2001::/32")
]


@given(st.ip_addresses())
def test_whatever_python_calls_non_global_is_denied(
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> None:
    # A cross-check against the standard library's own registry. IPv6 forms carrying an IPv4
    # address are judged by that address instead (the test above), so they are left out.
    if isinstance(ip, ipaddress.IPv6Address) and any(ip in n for n in _EMBEDDING_V6):
        return
    if not ip.is_global or ip.is_multicast or ip.is_reserved:
        assert denied_reason(ip, NO_ALLOWANCE) is not None
