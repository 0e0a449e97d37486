from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from sift_fetch.logs import configure_logging
from tests.support.app import MakeClient, client_factory
from tests.support.site import LocalSite, Reply

ARTICLE = b"""<!doctype html><html lang="en"><head><title>Lighthouses of the North</title>
<meta name="author" content="Ada Keeper"><meta name="description" content="A short history.">
</head><body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Lighthouses of the North</h1>
<p>The first lighthouse on the northern cape was lit in 1821 by the harbour board, after a
winter in which three ships were lost on the rocks below the headland.</p>
<h2>Keepers</h2>
<p>Keepers lived on the rock for six weeks at a time. Their logbooks record the weather every
four hours, the ships that passed, and the oil burned by the great lamp.</p>
<ul><li>Weather every four hours</li><li>Passing ships</li><li>Oil burned</li></ul>
<h2>Automation</h2>
<p>The light was automated in 1984, when the last keeper left the rock. A solar panel now
powers a small LED lantern that can be seen for eighteen nautical miles.</p>
<p>See <a href="https://example.org/lights">the register of lights</a> for more.</p>
</article><footer>Copyright the Lighthouse Society. All rights reserved.</footer></body></html>"""

DATA = json.dumps({"items": [{"name": "a", "n": 1}, {"name": "b", "n": 2}]}).encode()


@pytest.fixture
def site() -> Iterator[LocalSite]:
    routes = {
        "/article": Reply(body=ARTICLE),
        "/data.json": Reply(body=DATA, content_type="application/json"),
        "/notes.txt": Reply(body=b"alpha\nbeta\ngamma\nbeta two\n", content_type="text/plain"),
        "/gone": Reply(status=404, body=b"gone", content_type="text/plain"),
        "/boom": Reply(status=500, body=b"oops", content_type="text/plain"),
        "/slow": Reply(body=ARTICLE, delay=3.0),
        "/binary": Reply(body=b"\x00\x01", content_type="application/octet-stream"),
        "/bomb": Reply(
            body=gzip.compress(b"a" * 5_000_000),
            content_type="text/plain",
            headers={"Content-Encoding": "gzip"},
        ),
    }
    with LocalSite(routes) as s:
        s.routes["/to-private"] = Reply(
            status=302, headers={"Location": f"http://127.0.0.2:{s.port}/article"}
        )
        s.routes["/to-article"] = Reply(status=302, headers={"Location": "/article"})
        yield s


# Names the injected resolver knows: one inside the test allowance, one loopback address
# outside it (so a broken guard could at worst reach loopback, never a private network).
NAMES = {"docs.sift-test.dev": ["127.0.0.1"], "intranet.sift-test.dev": ["127.0.0.2"]}


@pytest.fixture
def make_client(tmp_path: Path, site: LocalSite) -> Iterator[MakeClient]:
    with client_factory(tmp_path, [site.port], NAMES) as make:
        yield make


@pytest.fixture
def client(make_client: MakeClient) -> TestClient:
    return make_client()


@pytest.fixture
def log_lines() -> Iterator[io.BytesIO]:
    """Every log line of the test, as written (JSON, one a line)."""
    stream = io.BytesIO()
    configure_logging(stream=stream)
    yield stream
    configure_logging()


def logged(stream: io.BytesIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]
