"""The worker loop with the real pipeline (`fetch_target`, batch deadline) against a local site:
real envelopes stored per target, a guard refusal failing only its own target."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sift_store.engine import Store
from tests.batch.helpers import new_targets, submit
from tests.batch.worker_harness import finished, job, run_pipeline_worker
from tests.support.config import make_config
from tests.support.net import Resolver
from tests.support.site import LocalSite, Reply

ARTICLE = b"""<html><head><title>Harbour lights</title></head><body><article><h1>Harbour lights</h1>
<p>The harbour light was first lit in 1821, after a hard winter on the rocks below the cape.</p>
<p>Keepers lived on the rock for six weeks at a time and logged the weather every four hours.</p>
</article></body></html>"""


@pytest.fixture
def site() -> Iterator[LocalSite]:
    routes = {
        "/article": Reply(body=ARTICLE, delay=0.05),
        "/notes.txt": Reply(body=b"alpha\nbeta\ngamma\n", content_type="text/plain", delay=0.05),
        "/gone": Reply(status=404, body=b"gone", content_type="text/plain"),
    }
    with LocalSite(routes) as s:  # type: ignore[arg-type]
        yield s


def test_a_batch_through_the_real_pipeline(tmp_path: Path, store: Store, site: LocalSite) -> None:
    config = make_config(tmp_path, [site.port])
    private = f"http://intranet.sift-test.dev:{site.port}/article"  # resolves to 127.0.0.2
    urls = [site.url("/article"), site.url("/gone"), private, site.url("/notes.txt")]
    targets = new_targets(urls)
    sub = submit(store, targets, caller="alice", now=time.time())

    run_pipeline_worker(
        config,
        store,
        finished(store, sub.job_id),
        resolver=Resolver({"intranet.sift-test.dev": ["127.0.0.2"]}),
    )
    view = job(store, sub.job_id)
    assert view.status == "partial"
    article, gone, blocked, notes = view.targets
    page = json.loads(article.result or "")
    assert page["success"] and page["title"] == "Harbour lights" and "1821" in page["content"]
    assert (gone.status, gone.outcome, gone.hint) == ("failed", "upstream_4xx", "recover")
    assert (blocked.status, blocked.outcome) == ("failed", "blocked")
    assert "gamma" in json.loads(notes.result or "")["content"]
    assert site.peak_inflight == 1
    assert site.hits == ["/article", "/gone", "/notes.txt"]  # the private target never connected
