"""HttpClient end to end against real loopback servers: pinning, proxies, timeouts, errors."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator

import anyio
import httpcore
import httpx
import pytest

from sift_fetch.errors import Blocked, Timeout, UpstreamFailed
from sift_fetch.guard import IPAddress
from tests.guard.conftest import OUTSIDE, MakeClient, RawServer, header_of
from tests.support.net import LOOPBACK, Connector, Resolver
from tests.support.site import LocalSite, Reply

pytestmark = pytest.mark.anyio

PAGE = b"<html><head><title>Hi</title></head><body><p>Hello</p></body></html>"


# One server for the module: its shutdown is slow.
@pytest.fixture(scope="module")
def site() -> Iterator[LocalSite]:
    routes = {
        "/page": Reply(body=PAGE),
        "/latin": Reply(body=b"caf\xe9", content_type='Text/HTML; Charset="ISO-8859-1"'),
        "/bare": Reply(body=b"{}", content_type=""),
        "/missing": Reply(status=404, body=b"nope", content_type="text/plain"),
        "/broken": Reply(status=503, body=b"down", content_type="text/plain"),
        "/slow": Reply(body=PAGE, delay=1.0),
    }
    with LocalSite(routes) as s:
        yield s


async def test_fetches_a_page_through_the_checked_address(
    site: LocalSite, make_client: MakeClient, connector: Connector
) -> None:
    fetched = await make_client(site.port).fetch(site.url("/page"), timeout=5)
    assert (fetched.status, fetched.body) == (200, PAGE)
    assert fetched.url == fetched.final_url == site.url("/page")
    assert (fetched.content_type, fetched.charset) == ("text/html", "utf-8")
    assert fetched.headers["content-length"] == str(len(PAGE))
    assert connector.calls == [(LOOPBACK, site.port)]


async def test_the_url_comes_back_normalised(site: LocalSite, make_client: MakeClient) -> None:
    fetched = await make_client(site.port).fetch(f"HTTP://0x7f.1:{site.port}/page#top", timeout=5)
    assert fetched.url == site.url("/page")


async def test_media_type_and_charset(site: LocalSite, make_client: MakeClient) -> None:
    client = make_client(site.port)
    latin = await client.fetch(site.url("/latin"), timeout=5)
    assert (latin.content_type, latin.charset) == ("text/html", "iso-8859-1")
    bare = await client.fetch(site.url("/bare"), timeout=5)
    assert (bare.content_type, bare.charset) == ("", None)


async def test_error_statuses_are_answers_not_exceptions(
    site: LocalSite, make_client: MakeClient
) -> None:
    client = make_client(site.port)
    assert (await client.fetch(site.url("/missing"), timeout=5)).status == 404
    assert (await client.fetch(site.url("/broken"), timeout=5)).status == 503


async def test_request_headers(make_client: MakeClient) -> None:
    ok = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
    with RawServer(lambda _head: ok) as server:
        client = make_client(server.port, user_agent="SiftTest/1")
        await client.fetch(f"http://127.0.0.1:{server.port}/", timeout=5)
    (head,) = server.requests
    assert header_of(head, "user-agent") == "SiftTest/1"
    assert header_of(head, "accept-encoding") == "gzip, deflate"
    assert header_of(head, "host") == f"127.0.0.1:{server.port}"
    assert header_of(head, "cookie") is None


async def test_a_name_is_resolved_once_and_sent_as_the_host(make_client: MakeClient) -> None:
    ok = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
    resolver = Resolver({"docs.sift-test.dev": ["127.0.0.1"]})
    with RawServer(lambda _head: ok) as server:
        client = make_client(server.port, resolver=resolver)
        fetched = await client.fetch(f"http://docs.sift-test.dev:{server.port}/a", timeout=5)
    assert fetched.body == b"ok"
    assert header_of(server.requests[0], "host") == f"docs.sift-test.dev:{server.port}"
    assert resolver.calls == ["docs.sift-test.dev"]


@pytest.mark.parametrize(
    "answers",
    [[OUTSIDE], ["127.0.0.1", OUTSIDE], [OUTSIDE, "127.0.0.1"], ["93.184.215.14", "10.0.0.1"]],
)
async def test_a_name_with_a_private_answer_is_refused(
    make_client: MakeClient, answers: list[str]
) -> None:
    client = make_client(
        8081, resolver=Resolver({"mixed.sift-test.dev": answers}), connector=Connector(allowed=())
    )
    with pytest.raises(Blocked, match="resolves to a non-public address"):
        await client.fetch("http://mixed.sift-test.dev:8081/", timeout=5)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.2:8081/",
        "http://10.0.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fd00:ec2::254]/",
        "http://metadata.google.internal/",
        "http://0.0.0.0:8081/",
        "http://good.com@127.0.0.1:8081/",
        "http://localhost:8081/",
    ],
)
async def test_refused_urls_never_reach_the_network(make_client: MakeClient, url: str) -> None:
    client = make_client(8081, connector=Connector(allowed=()))
    with pytest.raises(Blocked):
        await client.fetch(url, timeout=5)


class _Rebinding(Resolver):
    """Answers the allowed address first and a private one ever after: a rebinding DNS server."""

    async def __call__(self, host: str, port: int) -> list[str]:
        self.calls.append(host)
        return ["127.0.0.1"] if len(self.calls) == 1 else [OUTSIDE]


async def test_a_changing_answer_cannot_redirect_a_checked_connection(
    site: LocalSite, make_client: MakeClient, connector: Connector
) -> None:
    resolver = _Rebinding({})
    url = site.url("/page", host="rebind.sift-test.dev")
    fetched = await make_client(site.port, resolver=resolver).fetch(url, timeout=5)
    # One lookup for the connection, and the connection went to exactly what it answered:
    # there is no second lookup that the changed answer could slip into.
    assert fetched.body == PAGE
    assert resolver.calls == ["rebind.sift-test.dev"]
    assert connector.calls == [(LOOPBACK, site.port)]
    # A new connection asks again, gets the private answer, and is refused before connecting.
    fresh = make_client(site.port, resolver=resolver, connector=Connector(allowed=()))
    with pytest.raises(Blocked):
        await fresh.fetch(url, timeout=5)
    assert resolver.calls == ["rebind.sift-test.dev"] * 2


async def test_a_public_answer_is_the_address_connected_to(make_client: MakeClient) -> None:
    # No packet leaves: the "connection" is an in-memory stream with a canned reply.
    public = ipaddress.IPv4Address("93.184.215.14")
    calls: list[tuple[IPAddress, int]] = []

    async def in_memory(ip: IPAddress, port: int) -> httpcore.AsyncNetworkStream:
        calls.append((ip, port))
        return httpcore.AsyncMockStream(
            [b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n", b"hello"]
        )

    resolver = Resolver({"www.sift-test.dev": [str(public)]})
    client = make_client(resolver=resolver, connector=in_memory)
    fetched = await client.fetch("http://www.sift-test.dev/", timeout=5)
    assert (fetched.status, fetched.body) == (200, b"hello")
    assert calls == [(public, 80)]
    await make_client(connector=in_memory).fetch("http://93.184.215.14/", timeout=5)
    assert calls[-1] == (public, 80)


async def test_environment_proxies_are_ignored(
    site: LocalSite, make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    refuse = b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    with RawServer(lambda _head: refuse) as proxy:
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
            monkeypatch.setenv(name, f"http://127.0.0.1:{proxy.port}")
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        # The trap works: a default httpx client does go through it.
        async with httpx.AsyncClient() as plain:
            assert (await plain.get(site.url("/page"))).status_code == 502
        assert len(proxy.requests) == 1
        fetched = await make_client(site.port).fetch(site.url("/page"), timeout=5)
    assert fetched.body == PAGE
    assert len(proxy.requests) == 1


async def test_the_total_deadline(site: LocalSite, make_client: MakeClient) -> None:
    with pytest.raises(Timeout, match=r"no complete answer within 0\.2 s"):
        await make_client(site.port).fetch(site.url("/slow"), timeout=0.2)


async def test_the_read_timeout(site: LocalSite, make_client: MakeClient) -> None:
    client = make_client(site.port, read_timeout=0.2)
    with pytest.raises(Timeout, match="read timeout"):
        await client.fetch(site.url("/slow"), timeout=30)


async def test_the_connect_timeout(make_client: MakeClient) -> None:
    async def black_hole(ip: IPAddress, port: int) -> httpcore.AsyncNetworkStream:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    client = make_client(8081, connector=black_hole, connect_timeout=0.2)
    with pytest.raises(Timeout, match="connecting timed out"):
        await client.fetch("http://127.0.0.1:8081/", timeout=30)


async def test_a_closed_port_is_an_upstream_failure(make_client: MakeClient) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(UpstreamFailed, match="connection refused"):
        await make_client(port).fetch(f"http://127.0.0.1:{port}/", timeout=5)


async def test_an_unknown_name_is_an_upstream_failure(make_client: MakeClient) -> None:
    client = make_client(connector=Connector(allowed=()))
    with pytest.raises(UpstreamFailed, match="cannot resolve"):
        await client.fetch("http://nowhere.sift-test.dev/", timeout=5)


async def test_a_malformed_response_is_an_upstream_failure(make_client: MakeClient) -> None:
    with (
        RawServer(lambda _head: b"SMTP ready\r\n\r\n") as server,
        pytest.raises(UpstreamFailed, match="malformed"),
    ):
        await make_client(server.port).fetch(f"http://127.0.0.1:{server.port}/", timeout=5)


async def test_cookies_stay_within_one_fetch(make_client: MakeClient) -> None:
    def login_then_home(head: bytes) -> bytes:
        if head.startswith(b"GET /login "):
            return (
                b"HTTP/1.1 302 Found\r\nLocation: /home\r\nSet-Cookie: sid=s3cret; Path=/\r\n"
                b"Content-Length: 0\r\nConnection: close\r\n\r\n"
            )
        return b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\nhome"

    with RawServer(login_then_home) as server:
        client = make_client(server.port)
        await client.fetch(f"http://127.0.0.1:{server.port}/login", timeout=5)
        await client.fetch(f"http://127.0.0.1:{server.port}/home", timeout=5)
    _login, home_in_chain, home_later = server.requests
    assert header_of(home_in_chain, "cookie") == "sid=s3cret"
    # The client is shared by every caller: nothing one fetch was given reaches the next.
    assert header_of(home_later, "cookie") is None


async def test_connections_are_bounded_by_the_global_gate(make_client: MakeClient) -> None:
    # A server of its own: slow replies from other tests must not count as in flight here.
    with LocalSite({"/pause": Reply(body=b"ok", delay=0.3)}) as site:
        client = make_client(site.port, global_=2)
        async with anyio.create_task_group() as tg:
            for _ in range(4):
                tg.start_soon(lambda: client.fetch(site.url("/pause"), timeout=10))
    assert site.count("/pause") == 4
    assert site.peak_inflight == 2
