"""httpcore's network layer with the guard inside it: the connect-time check.

httpcore asks the backend for a TCP stream to (host, port). We resolve the host once, refuse
if any answer is not public, and connect to one of the addresses we just judged, so there is
no second lookup for a rebinding DNS server to answer differently.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeAlias

import anyio
import httpcore

from sift_fetch.errors import Blocked, UpstreamFailed
from sift_fetch.guard.addresses import IPAddress, Policy, denied_reason
from sift_fetch.guard.resolve import Resolver, system_resolver
from sift_fetch.guard.stream import tcp_connector

# Opens a TCP stream to an address the guard has already approved.
Connector: TypeAlias = Callable[[IPAddress, int], Awaitable[httpcore.AsyncNetworkStream]]


def _failure_reason(exc: BaseException | None) -> str:
    # The OSError that says what happened is a link or two down the chain.
    while exc is not None:
        if isinstance(exc, ConnectionRefusedError):
            return "connection refused"
        exc = exc.__cause__ or exc.__context__
    return "could not connect"


class GuardedBackend(httpcore.AsyncNetworkBackend):
    def __init__(
        self,
        policy: Policy,
        resolver: Resolver = system_resolver,
        connector: Connector = tcp_connector,
    ) -> None:
        self._policy = policy
        self._resolver = resolver
        self._connector = connector

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        # The connect timeout covers resolution and every attempt together.
        try:
            with anyio.fail_after(timeout):
                addresses = await self._checked_addresses(host, port)
                return await self._connect_any(addresses, port)
        except TimeoutError:
            raise httpcore.ConnectTimeout("connecting timed out") from None

    async def _checked_addresses(self, host: str, port: int) -> list[IPAddress]:
        """Every address `host` stands for, each judged; Blocked if any one is not public."""
        try:
            literal: IPAddress | None = ipaddress.ip_address(host)
        except ValueError:
            literal = None
        if literal is not None:
            reason = denied_reason(literal, self._policy)
            if reason is not None:
                raise Blocked(f"address {literal} is not public ({reason})")
            return [literal]
        addresses = await self._resolve(host, port)
        for ip in addresses:
            reason = denied_reason(ip, self._policy)
            if reason is not None:
                # A name with one private answer is refused outright: which answer a
                # connection would use is not ours to predict.
                raise Blocked(f"{host} resolves to a non-public address ({reason})")
        return addresses

    async def _resolve(self, host: str, port: int) -> list[IPAddress]:
        try:
            answers = await self._resolver(host, port)
        except OSError:
            raise UpstreamFailed(f"cannot resolve {host}") from None
        try:
            addresses = list(dict.fromkeys(ipaddress.ip_address(a) for a in answers))
        except ValueError:
            raise UpstreamFailed(f"cannot resolve {host} (malformed answer)") from None
        if not addresses:
            raise UpstreamFailed(f"cannot resolve {host} (no addresses)")
        return addresses

    async def _connect_any(
        self, addresses: list[IPAddress], port: int
    ) -> httpcore.AsyncNetworkStream:
        failure: Exception | None = None
        for left, ip in zip(range(len(addresses), 0, -1), addresses, strict=True):
            # Each address gets a fair share of the time left, so one that swallows packets
            # cannot use up the whole connect timeout before the next is tried.
            share = (anyio.current_effective_deadline() - anyio.current_time()) / left
            with anyio.move_on_after(share):
                try:
                    return await self._connector(ip, port)
                except (httpcore.ConnectError, OSError) as exc:
                    failure = exc
        if failure is None:
            raise httpcore.ConnectTimeout("connecting timed out")
        raise httpcore.ConnectError(_failure_reason(failure)) from failure

    async def sleep(self, seconds: float) -> None:
        await anyio.sleep(seconds)
