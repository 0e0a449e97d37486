"""Network doubles that make a wrong connection impossible, not just unlikely.

`Connector` opens real TCP streams only to the addresses a test names (127.0.0.1 by default)
and fails the test before a socket exists for anything else; `Resolver` answers from a fixed
table, so no test ever asks real DNS.
"""

from __future__ import annotations

import ipaddress
import socket

import httpcore
import pytest

from sift_fetch.guard import IPAddress, tcp_connector

LOOPBACK = ipaddress.IPv4Address("127.0.0.1")


class Connector:
    """Opens real TCP streams, but only to addresses in `allowed`; anything else fails the test
    before a socket exists. `allowed=()` means any call at all is a failure."""

    def __init__(self, allowed: tuple[IPAddress, ...] = (LOOPBACK,)) -> None:
        self.allowed = allowed
        self.calls: list[tuple[IPAddress, int]] = []

    async def __call__(self, ip: IPAddress, port: int) -> httpcore.AsyncNetworkStream:
        self.calls.append((ip, port))
        if ip not in self.allowed:
            pytest.fail(f"connector asked for {ip}:{port}; only {self.allowed} may be reached")
        return await tcp_connector(ip, port)


class Resolver:
    """A fixed table of names; unknown names fail like NXDOMAIN. Records every question."""

    def __init__(self, names: dict[str, list[str]]) -> None:
        self.names = names
        self.calls: list[str] = []

    async def __call__(self, host: str, port: int) -> list[str]:
        self.calls.append(host)
        if host not in self.names:
            raise socket.gaierror(socket.EAI_NONAME, "name not known")
        return self.names[host]
