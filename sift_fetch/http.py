"""The guarded HTTP client: one shared connection pool whose connections reach checked addresses
only.

Every URL, the first and each redirect hop, is pre-checked; every connection is checked again
by the GuardedBackend as it is opened. Redirects are ours to follow, environment proxies are
never used, and the body is decoded by us under a size cap, so a gzip bomb stops at the cap.

Requests go to the transport as they are, without an `httpx.AsyncClient` around it: a client
would add nothing a fetch uses (redirects, cookies and proxies are ours to handle or refuse),
and its cookie jar, header merging and URL joining cost a fifth of a raw fetch's pipeline
(cProfile of bench/fetch_cost.py's loop).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from urllib.parse import urljoin

import anyio
import httpx

from sift_fetch.config import FetchConfig
from sift_fetch.errors import Blocked, Timeout, TooLong, Unsupported, UpstreamFailed
from sift_fetch.guard import (
    CheckedURL,
    Connector,
    GuardedBackend,
    GuardedTransport,
    Policy,
    Resolver,
    precheck,
    system_resolver,
    tcp_connector,
)

__all__ = ["Connector", "Fetched", "HttpClient"]

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


@dataclass(frozen=True)
class Fetched:
    url: str  # the URL asked for (normalised)
    final_url: str  # after redirects
    status: int
    content_type: str  # mime type only, lowercased ("" if none)
    charset: str | None
    headers: dict[str, str]  # lowercased names
    body: bytes  # decoded (Content-Encoding undone)


class HttpClient:
    def __init__(
        self,
        fetch: FetchConfig,
        policy: Policy,
        *,
        resolver: Resolver | None = None,
        connector: Connector | None = None,
    ) -> None:
        self._config = fetch
        self._policy = policy
        backend = GuardedBackend(policy, resolver or system_resolver, connector or tcp_connector)
        # The pool is sized to the global gate: no process ever runs more fetches at once.
        self._transport = GuardedTransport(backend, max_connections=fetch.global_)
        self._headers = {
            "Accept": "*/*",
            "Accept-Encoding": "gzip, deflate",
            "Connection": "keep-alive",
            "User-Agent": fetch.user_agent,
        }
        timeouts = httpx.Timeout(
            connect=fetch.connect_timeout,
            read=fetch.read_timeout,
            write=fetch.read_timeout,
            pool=None,  # waiting for a connection is bounded by the fetch's own deadline
        )
        self._extensions = {"timeout": timeouts.as_dict()}

    async def fetch(
        self, url: str | CheckedURL, *, timeout: float, max_bytes: int | None = None
    ) -> Fetched:
        """GET `url` (pre-checked here unless it comes checked), following redirects, within
        `timeout` seconds in all.

        Any status comes back as a Fetched; FetchErrors are for what is not an HTTP answer:
        Blocked, Timeout, TooLong, UpstreamFailed, Unsupported (a content encoding we never
        asked for).
        """
        checked = url if isinstance(url, CheckedURL) else precheck(url, self._policy)
        limit = self._config.max_body_bytes if max_bytes is None else max_bytes
        try:
            with anyio.fail_after(timeout):
                return await self._follow(checked, limit)
        except TimeoutError:
            raise Timeout(f"no complete answer within {timeout:g} s") from None

    async def _follow(self, first: CheckedURL, limit: int) -> Fetched:
        # Cookies set along this fetch's own redirect chain (consent pages, session starts),
        # never kept beyond it: the pool serves every caller. Made on the first redirect, as
        # cookie handling is costly on the hot path.
        cookies: httpx.Cookies | None = None
        current = first
        for _hop in range(self._config.max_redirects + 1):
            request = httpx.Request(
                "GET", current.parsed, headers=self._headers, extensions=self._extensions
            )
            if cookies is not None:
                cookies.set_cookie_header(request)
            response = await self._transport.handle_async_request(request)
            response.request = request
            try:
                location = response.headers.get("location")
                if response.status_code not in REDIRECT_STATUSES or not location:
                    body = await _read_body(response, limit)
                    return _fetched(first.url, current.url, response, body)
                if "set-cookie" in response.headers:
                    cookies = cookies or httpx.Cookies()
                    cookies.extract_cookies(response)
            finally:
                await response.aclose()
            # Only GET is ever sent, so 301/302/303 and 307/308 all continue as GET.
            current = self._next_hop(current.url, location)
        raise UpstreamFailed(f"more than {self._config.max_redirects} redirects")

    def _next_hop(self, current: str, location: str) -> CheckedURL:
        try:
            return precheck(urljoin(current, location), self._policy)
        except Blocked as exc:
            raise Blocked(f"redirect refused: {exc.detail}") from None

    async def aclose(self) -> None:
        await self._transport.aclose()


def _fetched(url: str, final_url: str, response: httpx.Response, body: bytes) -> Fetched:
    content_type, charset = _media_type(response.headers.get("content-type", ""))
    return Fetched(
        url=url,
        final_url=final_url,
        status=response.status_code,
        content_type=content_type,
        charset=charset,
        headers=dict(response.headers.items()),
        body=body,
    )


def _media_type(value: str) -> tuple[str, str | None]:
    mime, *params = value.split(";")
    charset = None
    for param in params:
        name, _, raw = param.partition("=")
        if name.strip().lower() == "charset":
            charset = raw.strip().strip("\"'").lower() or None
    return mime.strip().lower(), charset


async def _read_body(response: httpx.Response, limit: int) -> bytes:
    declared = response.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise TooLong(f"the body is larger than {limit} bytes")
    body = _CappedBody(response.headers.get("content-encoding", ""), limit)
    async for chunk in response.aiter_raw():
        body.feed(chunk)
    return body.finish()


class _CappedBody:
    """Undoes Content-Encoding while counting, so the cap holds for what is sent (the raw
    bytes) and for what it expands to (each decoded chunk), never after the fact."""

    def __init__(self, content_encoding: str, limit: int) -> None:
        codings = [c.strip().lower() for c in content_encoding.split(",") if c.strip()]
        # Applied in the order listed, so undone in reverse.
        self._stages = [_Inflater(c) for c in reversed(codings) if c != "identity"]
        self._limit = limit
        self._raw = 0
        self._parts: list[bytes] = []
        self._size = 0

    def feed(self, chunk: bytes) -> None:
        self._raw += len(chunk)
        if self._raw > self._limit:
            raise TooLong(f"the body is larger than {self._limit} bytes")
        self._keep(chunk, final=False)

    def finish(self) -> bytes:
        self._keep(b"", final=True)
        return b"".join(self._parts)

    def _keep(self, data: bytes, *, final: bool) -> None:
        for stage in self._stages:
            data = stage.inflate(data, self._limit - self._size, final=final)
        self._size += len(data)
        if self._size > self._limit:
            raise TooLong(f"the body decodes to more than {self._limit} bytes")
        self._parts.append(data)


class _Inflater:
    def __init__(self, coding: str) -> None:
        if coding in ("gzip", "x-gzip"):
            self._zlib = zlib.decompressobj(zlib.MAX_WBITS | 16)
        elif coding == "deflate":
            self._zlib = zlib.decompressobj(zlib.MAX_WBITS)
        else:
            raise Unsupported(f"content-encoding {coding!r} (we ask for gzip or deflate)")
        # "deflate" in HTTP means zlib-wrapped, but some servers send it raw; the first
        # chunk tells which.
        self._may_be_raw = coding == "deflate"

    def inflate(self, data: bytes, budget: int, *, final: bool) -> bytes:
        """Decode `data` into at most budget + 1 bytes: one more than allowed is enough to
        know the cap is broken, and memory never holds more."""
        try:
            out = self._decompress(data, budget + 1)
            return out + self._zlib.flush() if final else out
        except zlib.error:
            raise UpstreamFailed("corrupt compressed body") from None

    def _decompress(self, data: bytes, max_length: int) -> bytes:
        if self._may_be_raw:
            self._may_be_raw = False
            try:
                return self._zlib.decompress(data, max_length)
            except zlib.error:
                self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
        return self._zlib.decompress(data, max_length)
