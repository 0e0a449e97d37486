"""httpcore's network stream on asyncio's own transport and protocol.

httpcore's default stream is anyio's, which opens a cancel scope around every read and write
and reads the socket through a task switch of its own. Here the event loop reads into a buffer
as data arrives, a read that finds the buffer empty waits on one future, and its timeout is one
loop timer that is cancelled when the data comes.
"""

from __future__ import annotations

import asyncio
import ssl
from collections import deque
from typing import Any, cast

import httpcore

from sift_fetch.guard.addresses import IPAddress

# Reading stops while this much is buffered and unread, and resumes below the low mark.
HIGH_WATER = 256 * 1024
LOW_WATER = 64 * 1024
# httpcore's names for what asyncio's transports call otherwise.
_TRANSPORT_INFO = {"client_addr": "sockname", "server_addr": "peername"}


class _TimedOut(Exception):
    pass


def _settle(waiter: asyncio.Future[None] | None, error: Exception | None = None) -> None:
    if waiter is not None and not waiter.done():
        if error is None:
            waiter.set_result(None)
        else:
            waiter.set_exception(error)


class _Buffer(asyncio.Protocol):
    """What the loop has read from the connection and not yet been asked for, and the state
    a read or write waits on."""

    def __init__(self) -> None:
        self.chunks: deque[bytes] = deque()
        self.size = 0
        self.transport: asyncio.Transport | None = None
        self.reading_paused = False
        self.writing_paused = False
        self.ended = False  # the peer's FIN, or the connection gone
        self.error: Exception | None = None
        # What a read or a write waits on (HTTP/1.1 never does both at once): settled by data,
        # room to write, or the end.
        self.waiter: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports have the interface without subclassing asyncio.Transport.
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self.chunks.append(data)
        self.size += len(data)
        if self.size >= HIGH_WATER and not self.reading_paused and self.transport is not None:
            self.transport.pause_reading()
            self.reading_paused = True
        _settle(self.waiter)

    def eof_received(self) -> bool:
        self.ended = True
        _settle(self.waiter)
        return False  # an HTTP peer that sent its FIN is done: let the transport close

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        self.error = exc
        _settle(self.waiter)

    def pause_writing(self) -> None:
        self.writing_paused = True

    def resume_writing(self) -> None:
        self.writing_paused = False
        _settle(self.waiter)


class AsyncioStream(httpcore.AsyncNetworkStream):
    def __init__(self, transport: asyncio.Transport, buffer: _Buffer) -> None:
        self._transport = transport
        self._buffer = buffer

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        buffer = self._buffer
        while not buffer.chunks and not buffer.ended:
            await self._wait(timeout, httpcore.ReadTimeout)
        if not buffer.chunks:
            if buffer.error is not None:
                raise httpcore.ReadError(str(buffer.error)) from buffer.error
            return b""
        chunk = buffer.chunks.popleft()
        if len(chunk) > max_bytes:
            buffer.chunks.appendleft(chunk[max_bytes:])
            chunk = chunk[:max_bytes]
        buffer.size -= len(chunk)
        if buffer.reading_paused and buffer.size <= LOW_WATER:
            buffer.reading_paused = False
            self._transport.resume_reading()
        return chunk

    async def write(self, data: bytes, timeout: float | None = None) -> None:
        buffer = self._buffer
        if buffer.error is not None or self._transport.is_closing():
            raise httpcore.WriteError("the connection is closed")
        self._transport.write(data)
        while buffer.writing_paused and not buffer.ended:
            await self._wait(timeout, httpcore.WriteTimeout)
        if buffer.error is not None:
            raise httpcore.WriteError(str(buffer.error)) from buffer.error

    async def _wait(
        self, timeout: float | None, timed_out: type[httpcore.TimeoutException]
    ) -> None:
        assert self._buffer.waiter is None, "one read or write at a time"
        loop = asyncio.get_running_loop()
        waiter = self._buffer.waiter = loop.create_future()
        timer = None if timeout is None else loop.call_later(timeout, _settle, waiter, _TimedOut())
        try:
            await waiter
        except _TimedOut:
            raise timed_out("timed out") from None
        finally:
            self._buffer.waiter = None
            if timer is not None:
                timer.cancel()

    async def aclose(self) -> None:
        # At once: what a closed client connection still had to send is a request given up,
        # and TLS's polite shutdown would hold the socket open for the peer's reply.
        self._transport.abort()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        if self._buffer.chunks or self._buffer.ended:
            # Bytes before the handshake are not the server's TLS: never take them for it.
            self._transport.abort()
            raise httpcore.ConnectError("the server spoke before the TLS handshake")
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout):
                transport = await loop.start_tls(
                    self._transport, self._buffer, ssl_context, server_hostname=server_hostname
                )
        except BaseException as exc:
            # httpcore leaves a stream whose handshake failed (or was cancelled) to it to close.
            self._transport.abort()
            if isinstance(exc, TimeoutError):
                raise httpcore.ConnectTimeout("the TLS handshake timed out") from None
            if isinstance(exc, OSError):  # ssl.SSLError among them
                # httpcore's own backends carry the SSLError as the argument; callers read it.
                raise httpcore.ConnectError(exc) from exc
            raise
        assert transport is not None  # start_tls returns None only on a closed loop
        self._buffer.transport = transport
        return AsyncioStream(transport, self._buffer)

    def get_extra_info(self, info: str) -> Any:
        if info == "is_readable":
            # The loop keeps reading an idle connection, so a FIN or stray bytes are known here.
            return bool(self._buffer.chunks) or self._buffer.ended
        return self._transport.get_extra_info(_TRANSPORT_INFO.get(info, info))


async def tcp_connector(ip: IPAddress, port: int) -> AsyncioStream:
    """A TCP connection to an address the guard has judged (a literal: no lookup happens)."""
    loop = asyncio.get_running_loop()
    try:
        transport, buffer = await loop.create_connection(_Buffer, str(ip), port)
    except OSError as exc:
        raise httpcore.ConnectError(str(exc)) from exc
    return AsyncioStream(transport, buffer)
