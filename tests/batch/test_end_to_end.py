"""The worker loop with the real pipeline (`fetch_target`, batch deadline) against a local site:
real envelopes stored per target, a guard refusal failing only its own target."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from sift_fetch.callers import Caller
from sift_fetch.pipeline import fetch_target
from sift_fetch.runtime import Runtime
from sift_fetch.target import Target
from sift_store.engine import Store
from sift_worker.attempt import Fetched
from sift_worker.worker import Worker
from tests.batch.helpers import new_targets, submit
from tests.batch.worker_harness import FAST, HANG_GUARD, finished, job
from tests.support.config import make_config
from tests.support.net import Connector, Resolver
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

    async def main() -> None:
        rt = Runtime.open(
            config,
            store=store,
            resolver=Resolver({"intranet.sift-test.dev": ["127.0.0.2"]}),
            connector=Connector(),  # anything but 127.0.0.1 fails the test before a socket
        )

        async def fetch(caller: Caller, target: Target) -> Fetched:
            return await fetch_target(rt, caller, target, batch=True)

        worker = Worker(store, config.batch, fetch, deadline=30, settings=FAST)
        stop = anyio.Event()
        try:
            with anyio.fail_after(HANG_GUARD):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(worker.run, stop)
                    while not await anyio.to_thread.run_sync(finished(store, sub.job_id)):
                        await anyio.sleep(0.01)
                    stop.set()
        finally:
            # The runtime shares the test's store: close its HTTP client and pool only.
            await rt.http.aclose()
            await rt.digest_client.aclose()
            rt.pool.close()

    anyio.run(main)
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
