"""The body: decoded by us, capped while streaming, on what is sent and on what it expands to."""

from __future__ import annotations

import gzip
import tracemalloc
import zlib
from collections.abc import Iterator

import pytest

from sift_fetch.errors import TooLong, Unsupported, UpstreamFailed
from tests.guard.conftest import MakeClient, RawServer
from tests.support.site import LocalSite, Reply

pytestmark = pytest.mark.anyio

TEXT = b"The quick brown fox jumps over the lazy dog.\n" * 200
CAP = 1000
MiB = 1024 * 1024


def gzip_bomb(expanded: int) -> bytes:
    """`expanded` zero bytes, gzipped (about 1000:1), built without holding them in memory."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = bytes(MiB)
    parts = [packer.compress(block) for _ in range(expanded // MiB)]
    return b"".join([*parts, packer.flush()])


def raw_deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


def encoded(body: bytes, coding: str) -> Reply:
    return Reply(body=body, content_type="text/plain", headers={"Content-Encoding": coding})


BOMB = gzip_bomb(64 * MiB)


# One server for the module: its shutdown is slow.
@pytest.fixture(scope="module")
def site() -> Iterator[LocalSite]:
    routes = {
        "/exact": Reply(body=b"x" * CAP, content_type="text/plain"),
        "/over": Reply(body=b"x" * (CAP + 1), content_type="text/plain"),
        "/gzip": encoded(gzip.compress(TEXT), "gzip"),
        "/x-gzip": encoded(gzip.compress(TEXT), "x-gzip"),
        "/deflate": encoded(zlib.compress(TEXT), "deflate"),
        "/raw-deflate": encoded(raw_deflate(TEXT), "deflate"),
        "/chain": encoded(gzip.compress(zlib.compress(TEXT)), "deflate, gzip"),
        "/identity": encoded(TEXT, "identity"),
        "/bomb": encoded(BOMB, "gzip"),
        "/br": encoded(b"\x1b\x03\x00", "br"),
        "/corrupt": encoded(b"this is not gzip", "gzip"),
    }
    with LocalSite(routes) as s:
        yield s


@pytest.mark.parametrize(
    "path", ["/gzip", "/x-gzip", "/deflate", "/raw-deflate", "/chain", "/identity"]
)
async def test_content_encodings_are_undone(
    site: LocalSite, make_client: MakeClient, path: str
) -> None:
    fetched = await make_client(site.port).fetch(site.url(path), timeout=5)
    assert fetched.body == TEXT


async def test_a_body_at_the_cap_is_kept(site: LocalSite, make_client: MakeClient) -> None:
    fetched = await make_client(site.port).fetch(site.url("/exact"), timeout=5, max_bytes=CAP)
    assert len(fetched.body) == CAP


async def test_content_length_over_the_cap(site: LocalSite, make_client: MakeClient) -> None:
    with pytest.raises(TooLong):
        await make_client(site.port).fetch(site.url("/over"), timeout=5, max_bytes=CAP)


async def test_the_default_cap_comes_from_the_config(
    site: LocalSite, make_client: MakeClient
) -> None:
    client = make_client(site.port, max_body_bytes=CAP)
    assert len((await client.fetch(site.url("/exact"), timeout=5)).body) == CAP
    with pytest.raises(TooLong):
        await client.fetch(site.url("/over"), timeout=5)


def _close_delimited(body: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n" + body


def _chunked(body: bytes, size: int = 100) -> bytes:
    chunks = [body[i : i + size] for i in range(0, len(body), size)]
    framed = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks)
    head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    return head + framed + b"0\r\n\r\n"


@pytest.mark.parametrize(
    "reply",
    [_close_delimited(b"x" * (4 * CAP)), _chunked(b"x" * (4 * CAP))],
    ids=["close-delimited", "chunked"],
)
async def test_no_content_length_is_capped_while_streaming(
    make_client: MakeClient, reply: bytes
) -> None:
    with RawServer(lambda _head: reply) as server:
        client = make_client(server.port)
        with pytest.raises(TooLong):
            await client.fetch(f"http://127.0.0.1:{server.port}/", timeout=5, max_bytes=CAP)


async def test_a_gzip_bomb_stops_at_the_cap_without_expanding(
    site: LocalSite, make_client: MakeClient
) -> None:
    # 64 KiB on the wire, 64 MiB expanded. Decoding a whole network read at once would hold
    # tens of MiB; decoding under the cap never holds much more than the cap.
    client = make_client(site.port)
    tracemalloc.start()
    try:
        with pytest.raises(TooLong, match="decodes to more than"):
            await client.fetch(site.url("/bomb"), timeout=10, max_bytes=MiB)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * MiB


async def test_a_gzip_bomb_without_content_length(make_client: MakeClient) -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n"
    with RawServer(lambda _head: head + BOMB) as server, pytest.raises(TooLong):
        await make_client(server.port).fetch(
            f"http://127.0.0.1:{server.port}/", timeout=10, max_bytes=MiB
        )


async def test_bytes_after_the_compressed_stream_count_too(make_client: MakeClient) -> None:
    # Past the end of a gzip member nothing decodes, so only the raw count stops this.
    head = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n"
    body = gzip.compress(b"tiny") + b"\0" * (4 * CAP)
    with RawServer(lambda _head: head + body) as server, pytest.raises(TooLong):
        await make_client(server.port).fetch(
            f"http://127.0.0.1:{server.port}/", timeout=5, max_bytes=CAP
        )


async def test_an_encoding_we_did_not_ask_for(site: LocalSite, make_client: MakeClient) -> None:
    with pytest.raises(Unsupported, match="'br'"):
        await make_client(site.port).fetch(site.url("/br"), timeout=5)


async def test_a_corrupt_compressed_body(site: LocalSite, make_client: MakeClient) -> None:
    with pytest.raises(UpstreamFailed, match="corrupt"):
        await make_client(site.port).fetch(site.url("/corrupt"), timeout=5)


async def test_a_content_length_that_is_not_a_number_is_a_clear_error(
    make_client: MakeClient,
) -> None:
    # "\xb2" decodes as "²", which str.isdigit() calls a digit and int() cannot read.
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \xb2\r\n\r\n"
    with RawServer(lambda _head: head + b"hello") as server, pytest.raises(UpstreamFailed):
        await make_client(server.port).fetch(
            f"http://127.0.0.1:{server.port}/", timeout=5, max_bytes=CAP
        )


async def test_a_content_length_of_thousands_of_digits_is_a_clear_error(
    make_client: MakeClient,
) -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + b"9" * 5000
    with RawServer(lambda _head: head + b"\r\n\r\nhello") as server, pytest.raises(UpstreamFailed):
        await make_client(server.port).fetch(
            f"http://127.0.0.1:{server.port}/", timeout=5, max_bytes=CAP
        )
