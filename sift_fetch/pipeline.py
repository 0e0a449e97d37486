"""`fetch_target`: the one code path from a target to an envelope, for `/v1/fetch` and for
every batch target (seed §11): pre-check → cache → gate → fetch (→ recover) → render →
digest → envelope.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from functools import cached_property
from typing import Any
from urllib.parse import quote

import orjson

from sift_fetch import metrics
from sift_fetch.callers import Caller
from sift_fetch.digest import digest_answer
from sift_fetch.errors import (
    FetchError,
    Hint,
    Outcome,
    Timeout,
    Unavailable,
    Upstream4xx,
    Upstream5xx,
    UpstreamFailed,
)
from sift_fetch.guard import CheckedURL, precheck
from sift_fetch.http import Fetched
from sift_fetch.render import Document, Rendered
from sift_fetch.runtime import Runtime
from sift_fetch.target import Target
from sift_store.cache import CacheEntry, CacheHit
from sift_store.outage import is_outage, outage_reason

# Statuses worth asking the archive about when `recover` is on.
RECOVERABLE_STATUSES = frozenset({404, 410, 451}) | frozenset(range(500, 600))


# What the caches hold changes shape with this (2: envelopes without `cached`), so an entry of
# another shape is never read; it ages out.
CACHE_FORMAT = "2"


@dataclass(frozen=True)
class Result:
    body: bytes  # the envelope as JSON, which /v1/fetch answers with as it is
    outcome: Outcome
    http_status: int
    host: str | None  # for logs of unrestricted callers only
    error: FetchError | None = None

    @cached_property
    def envelope(self) -> dict[str, Any]:
        return orjson.loads(self.body)


def cache_key(caller: Caller, url: str, target: Target) -> str:
    raw = "\0".join((CACHE_FORMAT, caller.cls, url, target.options_json()))
    return hashlib.sha256(raw.encode()).hexdigest()


def with_cached(stored: bytes, cached: bool) -> bytes:
    """A cached envelope (kept without `cached`, a JSON object) as a caller gets it: one copy,
    where decoding and encoding it again cost a seventh of an answer from memory (py-spy)."""
    return stored[:-1] + (b',"cached":true}' if cached else b',"cached":false}')


async def fetch_target(
    rt: Runtime, caller: Caller, target: Target, *, batch: bool = False
) -> Result:
    """Never raises a FetchError or a store outage: a failure comes back as a failure envelope
    and its outcome."""
    started = time.monotonic()
    host: str | None = None
    try:
        checked = precheck(target.url, rt.policy)
        host = checked.host
        body = await _cached_or_fetched(rt, caller, target, checked, batch=batch)
        result = Result(body, "ok", 200, host)
    except Exception as exc:
        error = _as_fetch_error(exc)
        result = Result(
            orjson.dumps(error.envelope()), error.outcome, error.http_status, host, error
        )
    metrics.count_fetch(result.outcome)
    metrics.FETCH_SECONDS.observe(time.monotonic() - started)
    return result


async def _cached_or_fetched(
    rt: Runtime, caller: Caller, target: Target, checked: CheckedURL, *, batch: bool
) -> bytes:
    key = cache_key(caller, checked.url, target)
    recent = rt.recent.get(key, time.time())
    if recent is not None:
        return _from_cache(recent, "memory")
    slot = await rt.gates.acquire(checked.host, caller.name, batch=batch, cache_key=key)
    if isinstance(slot, CacheHit):
        rt.recent.put(key, slot.envelope_json, slot.expires_at)
        return _from_cache(slot.envelope_json, "store")
    metrics.FETCH_CACHE.labels("miss").inc()
    fetch_cfg = rt.config.fetch
    timeout = fetch_cfg.batch_total_timeout if batch else fetch_cfg.total_timeout
    entry: CacheEntry | None = None
    try:
        envelope = await _fetch_and_render(rt, target, checked, timeout)
        entry = CacheEntry(
            key,
            caller.cls,
            orjson.dumps(envelope),
            fetch_cfg.cache_ttl,
            fetch_cfg.cache_max_bytes,
            time.time(),
        )
    finally:
        # One transaction gives the slot back and caches the envelope, after the caller has
        # its answer; the envelope is the caller's whatever happens to the cache.
        rt.gates.release(slot, entry)
    rt.recent.put(key, entry.envelope_json, entry.now + entry.ttl)
    return with_cached(entry.envelope_json, False)


def _from_cache(envelope_json: bytes, source: str) -> bytes:
    metrics.FETCH_CACHE.labels(source).inc()
    return with_cached(envelope_json, True)


def _as_fetch_error(exc: Exception) -> FetchError:
    """A FetchError as it is, a store outage as `unavailable`; anything else is a bug."""
    if isinstance(exc, FetchError):
        return exc
    if is_outage(exc):
        return Unavailable(outage_reason(exc))
    raise exc


async def _fetch_and_render(
    rt: Runtime, target: Target, checked: CheckedURL, timeout: float
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    recovered_from: str | None = None
    try:
        fetched = _raise_for_status(await rt.http.fetch(checked, timeout=timeout))
    except (Timeout, Upstream4xx, Upstream5xx, UpstreamFailed) as exc:
        if not target.recover or not _recoverable(exc):
            raise
        fetched, recovered_from = await _recover(rt, checked.url, deadline, exc)
    doc = Document(fetched.final_url, fetched.content_type, fetched.charset, fetched.body)
    rendered = await rt.pool.render(doc, target, rt.config.fetch.max_content_chars)
    envelope = _envelope(target, fetched, rendered)
    if recovered_from is not None:
        envelope["recovered_from"] = recovered_from
    if target.question and rendered.passages and rt.config.digest.url:
        envelope["answer"] = await _answer(rt, target.question, rendered.passages)
    return envelope


def _raise_for_status(fetched: Fetched) -> Fetched:
    status = fetched.status
    if status >= 500:
        raise Upstream5xx(f"the site answered {status}", upstream_status=status)
    if status >= 400:
        hint: Hint = "retry" if status == 429 else "browser" if status in (401, 403) else "recover"
        raise Upstream4xx(f"the site answered {status}", upstream_status=status, hint=hint)
    return fetched


def _recoverable(exc: FetchError) -> bool:
    status = exc.upstream_status
    return status is None or status in RECOVERABLE_STATUSES


async def _recover(
    rt: Runtime, url: str, deadline: float, original: FetchError
) -> tuple[Fetched, str]:
    """Ask the web archive for its closest snapshot and fetch that, through the same guard."""
    remaining = deadline - time.monotonic()
    if remaining <= 1:
        raise original
    lookup = f"{rt.config.recover.archive_url}?url={quote(url, safe='')}"
    try:
        answer = _raise_for_status(await rt.http.fetch(lookup, timeout=remaining))
        closest = json.loads(answer.body).get("archived_snapshots", {}).get("closest") or {}
    except (FetchError, ValueError, AttributeError):
        raise original from None
    snapshot = closest.get("url") if closest.get("available") else None
    if not isinstance(snapshot, str):
        raise type(original)(
            f"{original.detail}; no archived copy either",
            upstream_status=original.upstream_status,
            hint="browser",
        )
    remaining = deadline - time.monotonic()
    fetched = _raise_for_status(await rt.http.fetch(snapshot, timeout=max(remaining, 1.0)))
    return fetched, snapshot


async def _answer(rt: Runtime, question: str, passages: list[str]) -> str | None:
    try:
        return await digest_answer(rt.digest_client, rt.config.digest, question, passages)
    except FetchError:
        # The passages are the answer's evidence and still arrive; a failed digest only
        # loses the summary, so it must not fail the target.
        return None


def _envelope(target: Target, fetched: Fetched, rendered: Rendered) -> dict[str, Any]:
    envelope: dict[str, Any] = {
        "success": True,
        "url": target.url,
        "final_url": fetched.final_url,
        "status": fetched.status,
        "content_type": fetched.content_type,
        "title": rendered.title,
        "content": rendered.content,
        "truncated": rendered.truncated,
        "bytes": len(fetched.body),
    }
    if rendered.truncated:
        envelope["hint"] = "pages" if fetched.content_type == "application/pdf" else "grep"
    if target.context and rendered.context is not None:
        envelope["context"] = rendered.context
    return envelope
