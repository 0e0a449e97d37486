"""`POST /v2/scrape` (and `/v1/scrape`): Firecrawl's single scrape, translated onto
`fetch_target`.

A Firecrawl request becomes one target per content mode it asks for (Markdown is the `clean` or
`full` mode, HTML the `raw` one), each run through the same pipeline as `/v1/fetch`, and the
envelopes become one Firecrawl document. A `summary` (only where the operator configured an
LLM endpoint, `[digest]`) is that endpoint's answer over the Markdown's paragraphs, from the
top of the page down to the digest's input limit. What needs a browser, another LLM
extraction, or would weaken the guard is refused, not emulated; options about *how* Firecrawl
fetches (its cache, proxies, ad blocking, waits) are accepted and ignored, because Sift fetches
its own way.
Unknown fields are refused, so an option a caller relies on is never dropped silently.

Failures keep Sift's envelope (`error`, `hint`) under the statuses the Firecrawl SDK maps to
its named exceptions: blocked 403, timeout 408, busy 429, bad request 400, bad token 401.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from sift_api.auth import authenticate
from sift_api.errors import error_response
from sift_api.fetch import read_json
from sift_api.responses import JSONResponse
from sift_fetch.callers import Caller
from sift_fetch.digest import digest_answer
from sift_fetch.errors import BadRequest, Blocked, FetchError, Timeout
from sift_fetch.pipeline import Result, fetch_target
from sift_fetch.runtime import Runtime
from sift_fetch.target import Mode, Target, parse_target

# Firecrawl format -> the Sift mode that produces it (None: Markdown, `clean` or `full`).
CONTENT_FORMATS: dict[str, Mode | None] = {"markdown": None, "html": "raw", "rawHtml": "raw"}
METADATA_FORMATS = frozenset({"links"})
BROWSER_FORMATS = frozenset(
    {"screenshot", "screenshot@fullPage", "changeTracking", "branding", "images", "audio", "video"}
)
LLM_FORMATS = frozenset({"json", "query", "question", "highlights"})
# Made by the operator's LLM endpoint (`[digest]`) from the page's Markdown.
SUMMARY = "summary"
SUMMARY_QUESTION = "Summarize this page: what is it about, and what are its main points?"

# Options about how Firecrawl itself fetches. Sift fetches directly from its own address
# through its guard, keeps its own cache (`[fetch] cache_ttl`) and timeouts, and renders
# without a browser, so these change nothing and are accepted for compatibility.
IGNORED = frozenset(
    {
        "origin",
        "integration",
        "timeout",
        "maxAge",
        "minAge",
        "storeInCache",
        "waitFor",
        "mobile",
        "blockAds",
        "removeBase64Images",
        "fastMode",
        "useMock",
        "proxy",
        "location",
        "parsers",
        "includeTags",
        "excludeTags",
        "zeroDataRetention",
        # TLS is always verified: a site with a bad certificate fails `upstream:`.
        "skipTlsVerification",
    }
)
KNOWN = frozenset({"url", "formats", "onlyMainContent", "headers", "actions"}) | IGNORED


def _format_name(item: Any) -> str:
    if isinstance(item, dict):
        item = item.get("type")
    if not isinstance(item, str):
        raise BadRequest("field formats must list format names or {type: ...} objects")
    return item


def parse_formats(raw: Any, *, digest: bool) -> list[str]:
    if raw is None:
        return ["markdown"]
    if not isinstance(raw, list):
        raise BadRequest("field formats must be a list")
    names = [_format_name(item) for item in raw]
    for name in names:
        if name in BROWSER_FORMATS:
            raise BadRequest(f"format {name} needs a browser, and Sift renders without one")
        if name in LLM_FORMATS:
            raise BadRequest(
                f"format {name} is an LLM extraction Sift does not offer; POST /v1/fetch "
                "with a question returns the passages that answer it"
            )
        if name == SUMMARY and not digest:
            raise BadRequest(
                "format summary needs an LLM endpoint ([digest]), and this server has none; "
                "POST /v1/fetch with a question returns the passages that answer it"
            )
        if name not in CONTENT_FORMATS and name not in METADATA_FORMATS and name != SUMMARY:
            raise BadRequest(f"unknown format {name}")
    return names or ["markdown"]


@dataclass(frozen=True)
class Scrape:
    target: Target  # the URL, with `context` on: the metadata comes from it
    formats: list[str]
    markdown: Mode  # `clean`, or `full` when onlyMainContent is false

    def mode(self, name: str) -> Mode:
        return CONTENT_FORMATS.get(name) or self.markdown

    def modes(self) -> list[Mode]:
        """One pipeline run per distinct mode the formats need, in the order they ask."""
        needed = [self.mode(name) for name in self.formats]
        return sorted(set(needed), key=needed.index)


def parse_scrape(body: Any, *, digest: bool) -> Scrape:
    """The request as a target and formats, or BadRequest naming what is refused."""
    if not isinstance(body, dict):
        raise BadRequest("body must be a JSON object")
    unknown = sorted(set(body) - KNOWN)
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]}")
    if body.get("actions"):
        raise BadRequest("field actions needs a browser, and Sift renders without one")
    if body.get("headers"):
        raise BadRequest("field headers: Sift sends no caller-chosen headers to a target")
    main_only = body.get("onlyMainContent", True)
    if not isinstance(main_only, bool):
        raise BadRequest("field onlyMainContent must be true or false")
    formats = parse_formats(body.get("formats"), digest=digest)
    target = parse_target({"url": body.get("url"), "context": True})
    return Scrape(target, formats, "clean" if main_only else "full")


def firecrawl_status(exc: FetchError) -> int:
    """The status the Firecrawl SDK turns into the matching named exception."""
    if isinstance(exc, Blocked):
        return 403  # WebsiteNotSupportedError
    if isinstance(exc, Timeout):
        return 408  # RequestTimeoutError
    if exc.http_status == 502:
        # The SDK retries a 502 three times, which would fetch a failing site three times;
        # like `unsupported:`, the page could not be turned into a document.
        return 422
    return exc.http_status


async def summarize(rt: Runtime, markdown: str) -> str | None:
    """The LLM's summary of MARKDOWN, one passage a paragraph; None when it did not answer."""
    passages = [block for block in markdown.split("\n\n") if block.strip()]
    try:
        return await digest_answer(rt.digest_client, rt.config.digest, SUMMARY_QUESTION, passages)
    except FetchError:
        return None


def document(scrape: Scrape, results: dict[Mode, Result], summary: str | None) -> dict[str, Any]:
    first = results[scrape.modes()[0]].envelope
    context = first.get("context") or {}
    data: dict[str, Any] = {}
    warnings = []
    for name in scrape.formats:
        if name == "links":
            data["links"] = [link["url"] for link in context.get("links", [])]
        elif name != SUMMARY:
            data[name] = results[scrape.mode(name)].envelope["content"]
    if SUMMARY in scrape.formats:
        if summary:
            data["summary"] = summary
        else:
            warnings.append("no summary: the LLM endpoint did not answer")
    if any(r.envelope.get("truncated") for r in results.values()):
        warnings.append(
            "the content was truncated at Sift's limit; POST /v1/fetch with grep, question "
            "or pages returns the part you need"
        )
    if warnings:
        data["warning"] = "; ".join(warnings)
    data["metadata"] = {
        "title": first.get("title") or context.get("title"),
        "description": context.get("description"),
        "language": context.get("language"),
        "sourceURL": first["url"],
        "url": first["final_url"],
        "statusCode": first["status"],
        "contentType": first["content_type"],
        # The SDK knows two values only.
        "cacheState": "hit" if all(r.envelope.get("cached") for r in results.values()) else "miss",
    }
    return data


async def scrape(request: Request) -> JSONResponse:
    rt: Runtime = request.app.state.runtime
    caller = authenticate(request, rt.callers)
    wanted = parse_scrape(await read_json(request), digest=bool(rt.config.digest.url))
    results: dict[Mode, Result] = {}
    summary: str | None = None
    try:
        for mode in wanted.modes():
            target = replace(wanted.target, mode=mode)
            results[mode] = await _fetch(request, rt, caller, target)
            if mode == wanted.markdown and SUMMARY in wanted.formats:
                summary = await summarize(rt, results[mode].envelope["content"])
    except FetchError as exc:
        return error_response(request, exc, status=firecrawl_status(exc))
    request.state.outcome = "ok"
    return JSONResponse({"success": True, "data": document(wanted, results, summary)})


async def _fetch(request: Request, rt: Runtime, caller: Caller, target: Target) -> Result:
    result = await fetch_target(rt, caller, target)
    request.state.host = result.host
    if result.error is not None:
        raise result.error
    return result


async def not_offered(request: Request) -> JSONResponse:
    rt: Runtime = request.app.state.runtime
    authenticate(request, rt.callers)
    what = "batch scrape" if "batch" in request.url.path else "search"
    instead = (
        "submit the URLs to POST /v1/batch (up to 32 targets, collected later)"
        if what == "batch scrape"
        else "Sift fetches URLs you already have; it does not search"
    )
    raise BadRequest(f"Firecrawl {what} is not offered: {instead}")


ROUTES = [
    Route("/v2/scrape", scrape, methods=["POST"]),
    Route("/v1/scrape", scrape, methods=["POST"]),
    Route("/v2/batch/scrape", not_offered, methods=["POST"]),
    Route("/v1/batch/scrape", not_offered, methods=["POST"]),
    Route("/v2/search", not_offered, methods=["POST"]),
    Route("/v1/search", not_offered, methods=["POST"]),
]
