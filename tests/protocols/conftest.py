"""One real Sift for the protocol tests: `sift serve` and the worker as processes over one
SQLite file, a local site on 127.0.0.1, and the test-only guard allowance for it.

The fetch timeout is short so a slow route times out quickly, and each caller may hold one
fetch at a time so a held fetch makes the next one busy.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from tests.api.conftest import ARTICLE
from tests.batch_api.conftest import Gate
from tests.batch_api.stack import Stack, running_stack
from tests.support.site import LocalSite, Reply

FETCH_TIMEOUT = 2.0


@pytest.fixture(scope="package")
def gate() -> Gate:
    return Gate()


@pytest.fixture(scope="package")
def site(gate: Gate) -> Iterator[LocalSite]:
    routes = {
        "/article": Reply(body=ARTICLE),
        "/notes.txt": Reply(body=b"alpha\nbeta\ngamma\n", content_type="text/plain"),
        "/data.json": Reply(body=b'{"n": [1, 2, 3]}', content_type="application/json"),
        "/gone": Reply(status=404, body=b"gone", content_type="text/plain"),
        "/slow": Reply(body=ARTICLE, delay=FETCH_TIMEOUT + 2),
        "/hold": gate.reply,
    }
    with LocalSite(routes) as s:
        s.routes["/moved"] = Reply(status=302, headers={"Location": "/article"})
        yield s


@pytest.fixture(scope="package")
def stack(site: LocalSite, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    fetch = f"total_timeout = {FETCH_TIMEOUT}\nper_caller = 1\n"
    with running_stack(tmp_path_factory.mktemp("protocols"), [site.port], fetch=fetch) as s:
        yield s


def wait_for_hit(site: LocalSite, path: str, count: int = 1) -> None:
    """Until the site has seen PATH COUNT times (the fetch is in flight)."""
    for _ in range(300):
        if site.count(path) >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"{path} was never fetched")


def in_background(fn: object) -> threading.Thread:
    thread = threading.Thread(target=fn, daemon=True)  # type: ignore[arg-type]
    thread.start()
    return thread
