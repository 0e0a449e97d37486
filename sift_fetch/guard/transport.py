"""An httpx transport over an httpcore pool that connects through the GuardedBackend.

httpx 0.28's AsyncHTTPTransport cannot take a network backend, so this is the few lines of
it we need: translate the request, hand it to the pool, translate the response. httpcore's
exceptions become our FetchErrors here, and a Blocked from the backend passes through as is.
"""

from __future__ import annotations

import contextlib
import ssl
from collections.abc import AsyncIterable, AsyncIterator, Iterator

import httpcore
import httpx

from sift_fetch.errors import Timeout, UpstreamFailed
from sift_fetch.guard.backend import GuardedBackend

_TIMEOUTS = {
    httpcore.ConnectTimeout: "connecting timed out",
    httpcore.ReadTimeout: "the site stopped sending (read timeout)",
    httpcore.WriteTimeout: "sending the request timed out",
}


def _connect_failure(exc: httpcore.ConnectError) -> str:
    # The pool re-raises with `from None`, so the reason must travel in the exception itself:
    # httpcore wraps TLS errors as the first argument, our backend words its own failures.
    detail = exc.args[0] if exc.args else None
    if isinstance(detail, ssl.SSLError):
        return f"TLS handshake failed ({detail.reason or 'error'})"
    return detail if isinstance(detail, str) else "could not connect"


@contextlib.contextmanager
def _upstream_errors() -> Iterator[None]:
    try:
        yield
    except httpcore.TimeoutException as exc:
        raise Timeout(_TIMEOUTS.get(type(exc), "timed out")) from None
    except httpcore.ConnectError as exc:
        raise UpstreamFailed(_connect_failure(exc)) from None
    except httpcore.NetworkError:
        raise UpstreamFailed("connection lost") from None
    except httpcore.ProtocolError:
        raise UpstreamFailed("malformed HTTP response") from None


class _ResponseStream(httpx.AsyncByteStream):
    def __init__(self, stream: AsyncIterable[bytes]) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _upstream_errors():
            async for part in self._stream:
                yield part

    async def aclose(self) -> None:
        if hasattr(self._stream, "aclose"):
            await self._stream.aclose()


class GuardedTransport(httpx.AsyncBaseTransport):
    def __init__(
        self,
        backend: GuardedBackend,
        *,
        max_connections: int,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        if ssl_context is None:
            # httpx's default (certifi roots), never SSL_* variables from the environment.
            ssl_context = httpx.create_ssl_context(trust_env=False)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context,
            max_connections=max_connections,
            max_keepalive_connections=max_connections,
            keepalive_expiry=5.0,
            network_backend=backend,
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.AsyncByteStream)
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _upstream_errors():
            response = await self._pool.handle_async_request(core_request)
        assert isinstance(response.stream, AsyncIterable)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_ResponseStream(response.stream),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._pool.aclose()
