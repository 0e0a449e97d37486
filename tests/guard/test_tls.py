"""TLS over a pinned connection: we connect to the checked IP, but the certificate is still
verified against the host name from the URL (httpcore passes it as server_hostname)."""

from __future__ import annotations

import ssl
from collections.abc import Iterator

import httpx
import pytest
import trustme

from sift_fetch.errors import UpstreamFailed
from sift_fetch.guard import GuardedBackend, GuardedTransport
from tests.guard.conftest import ON_BOTH_LOOPS, MakeClient, RawServer, loopback_policy
from tests.support.net import Connector, Resolver

pytestmark = [pytest.mark.anyio, ON_BOTH_LOOPS]

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nsecret"
NAMES = {"docs.sift-test.dev": ["127.0.0.1"], "other.sift-test.dev": ["127.0.0.1"]}


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def tls_server(ca: trustme.CA) -> Iterator[RawServer]:
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("docs.sift-test.dev").configure_cert(server_context)
    with RawServer(lambda _head: OK, tls=server_context) as server:
        yield server


async def test_the_certificate_is_checked_against_the_name_not_the_address(
    ca: trustme.CA, tls_server: RawServer, connector: Connector
) -> None:
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)
    backend = GuardedBackend(loopback_policy(tls_server.port), Resolver(NAMES), connector)
    transport = GuardedTransport(backend, max_connections=2, ssl_context=trusting)
    async with httpx.AsyncClient(transport=transport, trust_env=False) as client:
        good = await client.get(f"https://docs.sift-test.dev:{tls_server.port}/")
        assert good.content == b"secret"
        # Same address, same certificate, but the name in the URL is not on it.
        with pytest.raises(UpstreamFailed, match="TLS handshake failed"):
            await client.get(f"https://other.sift-test.dev:{tls_server.port}/")
    assert len(tls_server.requests) == 1


async def test_the_client_verifies_certificates(
    tls_server: RawServer, make_client: MakeClient
) -> None:
    # HttpClient trusts the public roots only; a private CA's certificate is refused.
    client = make_client(tls_server.port, resolver=Resolver(NAMES))
    with pytest.raises(UpstreamFailed, match="CERTIFICATE_VERIFY_FAILED"):
        await client.fetch(f"https://docs.sift-test.dev:{tls_server.port}/", timeout=5)
    assert tls_server.requests == []
