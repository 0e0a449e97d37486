"""Firecrawl's `summary` format: offered only with the operator's LLM endpoint (`[digest]`),
made by that endpoint from the page's Markdown, one passage a paragraph, in one fetch."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.conftest import ARTICLE
from tests.support.app import MakeClient, client_factory
from tests.support.config import auth
from tests.support.site import LocalSite, Reply

SUMMARY = "Lighthouses of the northern cape, lit in 1821 and automated in 1984 [1][3]."


@pytest.fixture
def site() -> Iterator[LocalSite]:
    reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": SUMMARY}}]}
    routes = {
        "/article": Reply(body=ARTICLE),
        "/llm/chat/completions": Reply(
            body=json.dumps(reply).encode(), content_type="application/json"
        ),
    }
    with LocalSite(routes) as s:
        yield s


@pytest.fixture
def make_client(tmp_path: Path, site: LocalSite) -> Iterator[MakeClient]:
    with client_factory(tmp_path, [site.port], {}) as make:
        yield make


def test_summary_is_the_llms_answer_from_the_pages_passages(
    make_client: MakeClient, site: LocalSite
) -> None:
    client = make_client(digest={"url": site.url("/llm")})
    body = {"url": site.url("/article"), "formats": ["markdown", "summary"]}
    r = client.post("/v2/scrape", json=body, headers=auth())
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert data["summary"] == SUMMARY
    assert "lit in 1821" in data["markdown"]
    (asked,) = [json.loads(b) for b in site.bodies]
    prompt = asked["messages"][1]["content"]
    assert prompt.split("\n")[0].startswith("Question: Summarize this page")
    # The passages are the page's, from its top to its end, and the page was fetched once.
    assert "lit in 1821" in prompt and "automated in 1984" in prompt
    assert site.count("/article") == 1


def test_without_an_llm_endpoint_summary_is_refused(
    make_client: MakeClient, site: LocalSite
) -> None:
    body = {"url": site.url("/article"), "formats": ["summary"]}
    r = make_client().post("/v2/scrape", json=body, headers=auth())
    assert r.status_code == 400
    assert "needs an LLM endpoint ([digest])" in r.json()["error"]
    assert site.count("/article") == 0
