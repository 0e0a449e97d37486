"""`POST /v1/fetch` end to end: real app, real SQLite file, real target server on loopback."""

from __future__ import annotations

import json
import multiprocessing
import time

import sqlalchemy as sa
from starlette.testclient import TestClient

from sift_store.cache import fetch_cache
from sift_store.gates import GateLimits, acquire_slot
from tests.api.conftest import MakeClient
from tests.support.config import auth
from tests.support.site import LocalSite


def post(client: TestClient, body: dict, who: str = "alice"):  # type: ignore[no-untyped-def]
    return client.post("/v1/fetch", json=body, headers=auth(who))


def test_clean_article_envelope(client: TestClient, site: LocalSite) -> None:
    r = post(client, {"url": site.url("/article")})
    assert r.status_code == 200, r.text
    env = r.json()
    assert env["success"] is True
    assert env["url"] == site.url("/article") and env["final_url"] == site.url("/article")
    assert env["status"] == 200 and env["content_type"] == "text/html"
    assert env["title"] == "Lighthouses of the North"
    assert env["cached"] is False and env["truncated"] is False
    assert env["bytes"] > 1000
    content = env["content"]
    assert "## Keepers" in content and "automated in 1984" in content
    assert "example.org/lights" not in content  # link targets are not inlined
    assert "All rights reserved" not in content  # boilerplate is gone


def test_second_fetch_is_cached_and_not_refetched(client: TestClient, site: LocalSite) -> None:
    first = post(client, {"url": site.url("/article"), "grep": "keeper"})
    second = post(client, {"url": site.url("/article"), "grep": "keeper"})
    assert first.json()["cached"] is False and second.json()["cached"] is True
    # The same envelope, as JSON, but for `cached`.
    assert second.json() == {**first.json(), "cached": True}
    assert second.headers["content-type"] == "application/json"
    assert site.count("/article") == 1
    # Other options are another cache entry.
    post(client, {"url": site.url("/article"), "mode": "full"})
    assert site.count("/article") == 2


def test_another_process_finds_the_entry_in_the_shared_cache(
    make_client: MakeClient, site: LocalSite
) -> None:
    one = make_client()
    first = post(one, {"url": site.url("/article")}).json()
    written(one)
    # A second app on the same store: nothing in its memory, the entry in the store.
    second = post(make_client(), {"url": site.url("/article")}).json()
    assert first["cached"] is False and second["cached"] is True
    assert second == {**first, "cached": True}
    assert site.count("/article") == 1


def test_metrics_say_where_answers_came_from(make_client: MakeClient, site: LocalSite) -> None:
    first, second = make_client(), make_client()

    def counts() -> list[float]:
        text = first.get("/metrics").text
        return [_sample(text, f'sift_fetch_cache_total{{source="{s}"}}') for s in SOURCES]

    before = counts()
    for client in (first, first, second):  # a miss, then memory, then the shared store
        assert post(client, {"url": site.url("/notes.txt")}).status_code == 200
        written(client)
    assert [after - was for after, was in zip(counts(), before, strict=True)] == [1, 1, 1]
    assert site.count("/notes.txt") == 1


SOURCES = ("miss", "memory", "store")


def written(client: TestClient) -> None:
    """Wait until what CLIENT's fetches gave back (slots, cache entries), which is written after
    each answer, is in the store, for another process to see."""
    client.portal.call(client.app.state.runtime.gates.flush)  # type: ignore[attr-defined,union-attr]


def _sample(metrics_text: str, series: str) -> float:
    """The value of SERIES in a Prometheus text page (0 when it has none yet)."""
    for line in metrics_text.splitlines():
        name, _, value = line.rpartition(" ")
        if name == series:
            return float(value)
    return 0.0


def test_a_repeated_fetch_is_answered_from_memory(client: TestClient, site: LocalSite) -> None:
    first = post(client, {"url": site.url("/article")}).json()
    store = client.app.state.runtime.store  # type: ignore[attr-defined]
    with store.write() as conn:
        conn.execute(sa.delete(fetch_cache))
    second = post(client, {"url": site.url("/article")}).json()
    assert second["cached"] is True and second["content"] == first["content"]
    assert site.count("/article") == 1


def test_redirect_is_followed_and_reported(client: TestClient, site: LocalSite) -> None:
    env = post(client, {"url": site.url("/to-article")}).json()
    assert env["success"] and env["final_url"] == site.url("/article")


def test_grep_question_jq_and_text(client: TestClient, site: LocalSite) -> None:
    grep = post(client, {"url": site.url("/notes.txt"), "grep": "^beta"}).json()
    assert grep["content"].splitlines() == ["2: beta", "4: beta two"]
    jq = post(client, {"url": site.url("/data.json"), "jq": ".items[].name"}).json()
    assert jq["content"].split() == ['"a"', '"b"']
    question = post(client, {"url": site.url("/article"), "question": "when was it automated?"})
    assert "1984" in question.json()["content"]


def test_context_lists_metadata_outline_and_links(client: TestClient, site: LocalSite) -> None:
    env = post(client, {"url": site.url("/article"), "context": True}).json()
    ctx = env["context"]
    assert ctx["author"] == "Ada Keeper"
    assert ctx["description"] == "A short history."
    assert any(h["text"] == "Keepers" for h in ctx["outline"])
    assert any(link["url"] == "https://example.org/lights" for link in ctx["links"])


def test_auth_is_required(client: TestClient, site: LocalSite) -> None:
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}):
        r = client.post("/v1/fetch", json={"url": site.url("/article")}, headers=headers)
        assert r.status_code == 401
        assert r.json()["success"] is False and r.json()["error"].startswith("unauthorized")
    assert site.hits == []


def test_bad_bodies_are_400_naming_the_field(client: TestClient) -> None:
    r = client.post("/v1/fetch", content=b"{not json", headers=auth())
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]
    r = post(client, {"url": "http://a.example/", "colour": "red"})
    assert r.status_code == 400 and "colour" in r.json()["error"]
    r = post(client, {"url": "http://a.example/", "context": "yes"})
    assert r.status_code == 400 and "context" in r.json()["error"]
    r = post(client, {"url": "http://a.example/", "pages": "3-1"})
    assert r.status_code == 400 and "pages" in r.json()["error"]


def test_oversized_bodies_are_413_even_without_content_length(client: TestClient) -> None:
    big = b'{"url": "http://a.example/", "question": "' + b"x" * 70_000 + b'"}'
    assert client.post("/v1/fetch", content=big, headers=auth()).status_code == 413

    def chunks():  # type: ignore[no-untyped-def]
        for i in range(0, len(big), 4096):
            yield big[i : i + 4096]

    r = client.post("/v1/fetch", content=chunks(), headers=auth())
    assert r.status_code == 413 and "64 KiB" in r.json()["error"]


def test_refused_targets_are_422_blocked(client: TestClient, site: LocalSite) -> None:
    cases = [
        "http://10.0.0.1/",  # refused at pre-check: the connector is never reached
        "http://169.254.169.254/latest/meta-data/",
        f"http://intranet.sift-test.dev:{site.port}/article",  # resolves outside the allowance
        "ftp://docs.sift-test.dev/",
        "http://docs.sift-test.dev:8443/",
        site.url("/to-private"),  # a redirect hop to a refused address
    ]
    for url in cases:
        r = post(client, {"url": url})
        assert r.status_code == 422, (url, r.text)
        assert r.json()["error"].startswith("blocked:") and r.json()["hint"]
    assert site.count("/article") == 0


def test_upstream_errors_timeouts_and_unsupported(make_client: MakeClient, site: LocalSite) -> None:
    client = make_client(fetch={"total_timeout": 1.0, "max_body_bytes": 1_000_000})
    gone = post(client, {"url": site.url("/gone")})
    assert gone.status_code == 502 and gone.json()["hint"] == "recover"
    assert gone.json()["status"] == 404
    boom = post(client, {"url": site.url("/boom")})
    assert boom.status_code == 502 and boom.json()["hint"] == "retry"
    slow = post(client, {"url": site.url("/slow")})
    assert slow.status_code == 504 and slow.json()["error"].startswith("timeout")
    binary = post(client, {"url": site.url("/binary")})
    assert binary.status_code == 422 and binary.json()["error"].startswith("unsupported")
    bomb = post(client, {"url": site.url("/bomb")})
    assert bomb.status_code == 502 and bomb.json()["error"].startswith("too_long")


def test_busy_gate_is_429_with_retry_after(make_client: MakeClient, site: LocalSite) -> None:
    client = make_client(fetch={"global": 1})
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    # Another process holds the only global slot.
    held = acquire_slot(
        runtime.store,
        holder="other-process",
        host="elsewhere",
        caller="bob",
        limits=GateLimits(1, 2, 4),
        lease_seconds=60,
        now=time.time(),
    )
    assert held is not None
    r = post(client, {"url": site.url("/article")})
    assert r.status_code == 429 and r.headers["Retry-After"] == "1"
    assert r.json()["error"].startswith("busy") and r.json()["hint"] == "retry"
    assert site.hits == []


def test_recover_fetches_the_archived_copy(make_client: MakeClient, site: LocalSite) -> None:
    from tests.support.site import Reply

    snapshot = site.url("/article")
    site.routes["/wayback"] = Reply(
        body=json.dumps(
            {"archived_snapshots": {"closest": {"available": True, "url": snapshot}}}
        ).encode(),
        content_type="application/json",
    )
    client = make_client(recover={"archive_url": site.url("/wayback")})
    env = post(client, {"url": site.url("/gone"), "recover": True}).json()
    assert env["success"] is True and env["recovered_from"] == snapshot
    assert "automated in 1984" in env["content"]
    plain = post(client, {"url": site.url("/gone")})
    assert plain.status_code == 502


def test_healthz_and_metrics(client: TestClient, site: LocalSite) -> None:
    health = {"ok": True, "checks": {"store_read": "ok", "store_write": "ok"}}
    assert client.get("/healthz").json() == health
    post(client, {"url": site.url("/article")})
    post(client, {"url": "http://10.0.0.1/"})
    text = client.get("/metrics").text
    assert 'sift_fetch_total{outcome="ok"}' in text
    assert 'sift_fetch_total{outcome="blocked"}' in text
    assert 'sift_http_requests_total{route="/v1/fetch",status="200"}' in text


def test_question_with_digest_answer_cached_per_caller_class(
    make_client: MakeClient, site: LocalSite
) -> None:
    from tests.support.site import Reply

    completion = {"choices": [{"message": {"content": "It was automated in 1984."}}]}
    site.routes["/llm/chat/completions"] = Reply(
        body=json.dumps(completion).encode(), content_type="application/json"
    )
    client = make_client(digest={"url": site.url("/llm"), "model": "test-model"})
    body = {"url": site.url("/article"), "question": "When was the light automated?"}
    first = post(client, body).json()
    assert first["answer"] == "It was automated in 1984." and "1984" in first["content"]
    sent = json.loads(site.bodies[0])
    assert sent["model"] == "test-model"
    assert "1984" in json.dumps(sent["messages"])  # the passages went to the model
    again = post(client, body, who="bob").json()  # same class: the cached answer
    assert again["cached"] is True and again["answer"] == first["answer"]
    other_class = post(client, body, who="spook").json()
    assert other_class["cached"] is False
    assert site.count("/llm/chat/completions") == 2


def _render_workers() -> set[int]:
    return {p.pid for p in multiprocessing.active_children() if p.name == "pebble_pool_worker"}


def test_render_workers_are_up_before_the_first_request(
    make_client: MakeClient, site: LocalSite
) -> None:
    before = _render_workers()
    client = make_client(fetch={"render_workers": 2})
    started = _render_workers() - before
    assert len(started) == 2  # the app's start started them: no request has come in yet
    assert post(client, {"url": site.url("/article")}).status_code == 200
    assert _render_workers() - before == started  # the first render used them, started none
