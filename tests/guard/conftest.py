"""Fixtures for guard and client tests, all loopback-only.

The connector fails the test the moment it is asked for an address outside an explicit set,
so even a broken guard cannot make a test send a packet anywhere but the addresses a test
names (127.0.0.1 by default). "Private" names resolve to 127.0.0.2, outside the allowance.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpcore
import pytest

from sift_fetch.config import FetchConfig
from sift_fetch.guard import IPAddress, Policy
from sift_fetch.http import HttpClient
from tests.support.net import Connector, Resolver

OUTSIDE = "127.0.0.2"  # loopback, but outside the test allowance


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


# uvicorn serves on uvloop where it is installed, so the network stream's tests run on both.
ON_BOTH_LOOPS = pytest.mark.parametrize(
    "anyio_backend", [("asyncio", {}), ("asyncio", {"use_uvloop": True})], ids=["asyncio", "uvloop"]
)


def loopback_policy(*ports: int) -> Policy:
    """The explicit test-only allowance: 127.0.0.1 and the test servers' ports."""
    return Policy(allow_networks=(ipaddress.ip_network("127.0.0.1/32"),), allow_ports=ports)


Handler = Callable[[bytes], bytes]


class RawServer:
    """A loopback TCP server for what LocalSite cannot say: replies without Content-Length or
    chunked, Set-Cookie chains, or a proxy that only records. One request per connection;
    `handler(request_head) -> raw response bytes`, then the connection is closed."""

    def __init__(self, handler: Handler, tls: ssl.SSLContext | None = None) -> None:
        self.handler = handler
        self.tls = tls
        self.requests: list[bytes] = []
        self._sock = socket.create_server(("127.0.0.1", 0))
        self._sock.settimeout(0.05)  # so the accept loop notices `_stop`
        self.port: int = self._sock.getsockname()[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            conn.settimeout(5)
            try:
                if self.tls is not None:
                    conn = self.tls.wrap_socket(conn, server_side=True)
                with conn:
                    head = self._read_head(conn)
                    self.requests.append(head)
                    conn.sendall(self.handler(head))
            except OSError:
                pass  # the client gave up early (a cap, a timeout, a refused certificate)

    @staticmethod
    def _read_head(conn: socket.socket) -> bytes:
        head = b""
        while b"\r\n\r\n" not in head:
            data = conn.recv(65536)
            if not data:
                break
            head += data
        return head

    def __enter__(self) -> RawServer:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._sock.close()


def path_of(head: bytes) -> str:
    return head.split(b" ", 2)[1].decode()


def header_of(head: bytes, name: str) -> str | None:
    for line in head.split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        if key.strip().lower() == name.lower().encode():
            return value.strip().decode()
    return None


@pytest.fixture
def connector() -> Connector:
    return Connector()


MakeClient = Callable[..., HttpClient]
AnyConnector = Callable[[IPAddress, int], Awaitable[httpcore.AsyncNetworkStream]]


@pytest.fixture
async def make_client(connector: Connector) -> AsyncIterator[MakeClient]:
    """HttpClient factory: the loopback allowance for `ports`, a table resolver (none by
    default), the `connector` fixture unless a test brings its own, FetchConfig overrides;
    every client is closed afterwards."""
    clients: list[HttpClient] = []
    default_connector = connector

    def make(
        *ports: int,
        resolver: Resolver | None = None,
        connector: AnyConnector | None = None,
        **fetch: Any,
    ) -> HttpClient:
        client = HttpClient(
            FetchConfig(**fetch),
            loopback_policy(*ports),
            resolver=resolver or Resolver({}),
            connector=connector or default_connector,
        )
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()
