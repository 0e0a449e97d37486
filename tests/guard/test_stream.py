"""The asyncio network stream under httpcore: reads, timeouts, backpressure, a peer that goes
away, and the refusals, against a real server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import anyio
import httpcore
import pytest

from sift_fetch.guard.stream import HIGH_WATER, AsyncioStream, tcp_connector
from tests.guard.conftest import ON_BOTH_LOOPS
from tests.support.net import LOOPBACK

pytestmark = [pytest.mark.anyio, ON_BOTH_LOOPS]
Serve = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@asynccontextmanager
async def connected(serve: Serve) -> AsyncIterator[AsyncioStream]:
    """A stream to a one-connection loopback server that runs `serve`."""
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    stream = await tcp_connector(LOOPBACK, port)
    try:
        yield stream
    finally:
        await stream.aclose()
        server.close()
        await server.wait_closed()


async def read_all(stream: AsyncioStream, max_bytes: int = 65536) -> bytes:
    parts = []
    while part := await stream.read(max_bytes, timeout=5):
        assert len(part) <= max_bytes
        parts.append(part)
    return b"".join(parts)


async def test_reads_what_the_peer_sent_then_empty_at_its_end() -> None:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(await reader.readexactly(5) + b" back")
        writer.close()

    async with connected(serve) as stream:
        await stream.write(b"hello", timeout=5)
        assert await read_all(stream, max_bytes=3) == b"hello back"
        assert await stream.read(3, timeout=5) == b""


async def test_a_silent_peer_is_a_read_timeout() -> None:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()  # says nothing until the client goes

    async with connected(serve) as stream:
        with pytest.raises(httpcore.ReadTimeout):
            await stream.read(100, timeout=0.05)


async def test_reading_pauses_while_the_buffer_is_full_and_loses_nothing() -> None:
    body = bytes(range(256)) * (4 * HIGH_WATER // 256)

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(body)
        await writer.drain()
        writer.close()

    async with connected(serve) as stream:
        buffer = stream._buffer
        while not buffer.reading_paused:
            await asyncio.sleep(0.01)
        assert buffer.size >= HIGH_WATER
        assert await read_all(stream) == body
        assert not buffer.reading_paused


async def test_an_idle_connection_the_peer_closed_reads_as_readable() -> None:
    # httpcore asks before reusing a kept-alive connection: readable while idle means the
    # server hung up (or sent junk), so the connection is not reused.
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readexactly(1)
        writer.close()

    async with connected(serve) as stream:
        assert stream.get_extra_info("is_readable") is False
        await stream.write(b"x", timeout=5)
        while not stream.get_extra_info("is_readable"):
            await asyncio.sleep(0.01)
        assert await stream.read(10, timeout=5) == b""


async def test_the_addresses_are_reported() -> None:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()

    async with connected(serve) as stream:
        assert stream.get_extra_info("server_addr")[0] == "127.0.0.1"
        assert stream.get_extra_info("client_addr")[0] == "127.0.0.1"
        assert stream.get_extra_info("ssl_object") is None


async def test_writing_after_the_peer_reset_the_connection_fails() -> None:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.transport.abort()

    async with connected(serve) as stream:
        with pytest.raises((httpcore.WriteError, httpcore.ReadError)):
            # The reset arrives with the first write or soon after; reads then report it.
            for _ in range(100):
                await stream.write(b"x" * 65536, timeout=5)
                await asyncio.sleep(0.01)
            await stream.read(10, timeout=5)


async def test_a_closed_port_is_a_connect_error_caused_by_the_refusal() -> None:
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    with pytest.raises(httpcore.ConnectError) as caught:
        await tcp_connector(LOOPBACK, port)
    assert isinstance(caught.value.__cause__, ConnectionRefusedError)


async def test_bytes_before_the_tls_handshake_are_refused() -> None:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\n\r\n")  # plaintext where a ServerHello belongs
        await reader.read()

    async with connected(serve) as stream:
        while not stream.get_extra_info("is_readable"):
            await asyncio.sleep(0.01)
        with pytest.raises(httpcore.ConnectError, match="before the TLS handshake"):
            await stream.start_tls(ssl.create_default_context(), "docs.sift-test.dev", 5)


async def test_a_silent_tls_peer_is_a_connect_timeout() -> None:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()  # takes the ClientHello, never answers

    async with connected(serve) as stream:
        with pytest.raises(httpcore.ConnectTimeout):
            await stream.start_tls(ssl.create_default_context(), "docs.sift-test.dev", 0.05)


async def test_a_cancelled_tls_handshake_leaves_no_connection_open() -> None:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()

    async with connected(serve) as stream:
        with anyio.move_on_after(0.05):
            await stream.start_tls(ssl.create_default_context(), "docs.sift-test.dev", None)
        assert stream._transport.is_closing()
