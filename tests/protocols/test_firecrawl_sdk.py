"""The real Firecrawl SDK (firecrawl-py 4.x) against a real `sift serve`: a Sift token is the
API key, `/v2/scrape` answers documents the SDK validates, and each failure arrives as the
SDK's named exception."""

from __future__ import annotations

import pytest
from firecrawl import Firecrawl
from firecrawl.v2.utils.error_handler import (
    BadRequestError,
    RateLimitError,
    RequestTimeoutError,
    UnauthorizedError,
    WebsiteNotSupportedError,
)

from tests.batch_api.conftest import Gate
from tests.batch_api.stack import Stack
from tests.protocols.conftest import in_background, wait_for_hit
from tests.support.config import TOKENS
from tests.support.site import LocalSite


def sdk(stack: Stack, token: str = TOKENS["alice"]) -> Firecrawl:
    # A path under api_url is dropped by the SDK (it joins absolute paths), which is why
    # Sift serves the Firecrawl routes at the host root.
    return Firecrawl(api_url=f"{stack.base}/ignored/prefix", api_key=token)


def test_scrape_returns_sifts_clean_markdown_and_metadata(stack: Stack, site: LocalSite) -> None:
    url = site.url("/moved")
    doc = sdk(stack).scrape(url, formats=["markdown", "html", "links"])
    with stack.http() as http:
        native = http.post(
            "/v1/fetch", json={"url": url, "context": True}
        ).json()  # the same target, the same pipeline (a cache hit by now)
    assert doc.markdown == native["content"]
    assert "lit in 1821 by the harbour board" in doc.markdown
    assert "Copyright the Lighthouse Society" not in doc.markdown  # main content only
    assert doc.html is not None and doc.html.startswith("<!doctype html>")
    assert doc.links == ["https://example.org/lights", site.url("/"), site.url("/about")]
    meta = doc.metadata_typed
    assert meta.title == "Lighthouses of the North"
    assert meta.description == "A short history."
    assert meta.language == "en"
    assert meta.source_url == url
    assert meta.url == site.url("/article")  # after the redirect
    assert meta.status_code == 200
    assert meta.content_type == "text/html"
    assert meta.cache_state in ("hit", "miss")


def test_only_main_content_false_is_the_full_text(stack: Stack, site: LocalSite) -> None:
    doc = sdk(stack).scrape(site.url("/article"), only_main_content=False)
    assert doc.markdown is not None and "Copyright the Lighthouse Society" in doc.markdown
    assert doc.html is None  # only what was asked for


def test_harmless_options_are_accepted(stack: Stack, site: LocalSite) -> None:
    doc = sdk(stack).scrape(
        site.url("/notes.txt"),
        formats=["markdown"],
        timeout=30000,
        wait_for=0,
        mobile=True,
        block_ads=True,
        proxy="auto",
        max_age=0,
        store_in_cache=False,
        skip_tls_verification=True,
        remove_base64_images=True,
        exclude_tags=["nav"],
    )
    assert doc.markdown == "alpha\nbeta\ngamma\n"


def test_bad_token_is_unauthorized(stack: Stack, site: LocalSite) -> None:
    with pytest.raises(UnauthorizedError) as caught:
        sdk(stack, "not-a-token").scrape(site.url("/article"))
    assert caught.value.status_code == 401


def test_blocked_target_is_website_not_supported(stack: Stack, site: LocalSite) -> None:
    hits = len(site.hits)
    with pytest.raises(WebsiteNotSupportedError) as caught:
        sdk(stack).scrape(f"http://127.0.0.2:{site.port}/article")
    assert "blocked: " in str(caught.value)
    assert len(site.hits) == hits


def test_browser_only_fields_are_bad_requests(stack: Stack, site: LocalSite) -> None:
    with pytest.raises(BadRequestError, match="needs a browser"):
        sdk(stack).scrape(site.url("/article"), formats=["screenshot"])
    with pytest.raises(BadRequestError, match="needs a browser"):
        sdk(stack).scrape(site.url("/article"), actions=[{"type": "wait", "milliseconds": 10}])
    with pytest.raises(BadRequestError, match="no caller-chosen headers"):
        sdk(stack).scrape(site.url("/article"), headers={"Cookie": "session=1"})


def test_timeout_is_request_timeout(stack: Stack, site: LocalSite) -> None:
    with pytest.raises(RequestTimeoutError, match="timeout: "):
        sdk(stack).scrape(site.url("/slow"))


def test_busy_is_rate_limited(stack: Stack, site: LocalSite, gate: Gate) -> None:
    # Each caller may hold one fetch (per_caller = 1): hold one, and the next is busy.
    before = site.count("/hold")
    held = in_background(lambda: sdk(stack, TOKENS["bob"]).scrape(site.url("/hold")))
    try:
        wait_for_hit(site, "/hold", before + 1)
        with pytest.raises(RateLimitError, match="busy: "):
            sdk(stack, TOKENS["bob"]).scrape(site.url("/data.json"))  # not cached yet
    finally:
        gate.open()
        held.join(30)


def test_what_sift_does_not_offer_says_so(stack: Stack, site: LocalSite) -> None:
    with stack.http() as http:
        for path in ("/v2/batch/scrape", "/v1/batch/scrape"):
            r = http.post(path, json={"urls": [site.url("/article")]})
            assert r.status_code == 400
            assert "POST /v1/batch" in r.json()["error"]
        r = http.post("/v2/search", json={"query": "lighthouses"})
        assert r.status_code == 400 and "does not search" in r.json()["error"]
        r = http.post("/v2/scrape", json={"url": site.url("/article"), "lockdown": True})
        assert r.status_code == 400 and r.json()["error"] == "bad_request: unknown field lockdown"
        r = http.post("/v2/scrape", json={"url": site.url("/article"), "formats": ["summary"]})
        assert r.status_code == 400 and "/v1/fetch with a question" in r.json()["error"]
        r = http.post("/v2/scrape", json={"url": 7})
        assert r.status_code == 400 and "url must be a non-empty string" in r.json()["error"]
    with stack.http() as http:
        r = http.post("/v2/batch/scrape", json={}, headers={"Authorization": "Bearer nope"})
        assert r.status_code == 401


def test_v1_scrape_has_the_same_shape(stack: Stack, site: LocalSite) -> None:
    with stack.http() as http:
        r = http.post("/v1/scrape", json={"url": site.url("/gone")})
        assert r.status_code == 422  # the site's 404: no document, and no SDK retry
        assert r.json()["success"] is False
        assert r.json()["error"] == "upstream: the site answered 404"
        body = http.post("/v1/scrape", json={"url": site.url("/notes.txt")}).json()
    assert body["success"] is True
    assert body["data"]["markdown"] == "alpha\nbeta\ngamma\n"
    assert body["data"]["metadata"]["statusCode"] == 200


def test_html_alone_still_has_the_metadata(stack: Stack, site: LocalSite) -> None:
    doc = sdk(stack).scrape(site.url("/article"), formats=["rawHtml"])
    assert doc.raw_html is not None and "<footer>" in doc.raw_html
    assert doc.markdown is None
    assert doc.metadata_typed.title == "Lighthouses of the North"
    assert doc.metadata_typed.language == "en"
