from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tests.batch_api.stack import Stack, running_stack
from tests.batch_api.worker_proc import NAMES
from tests.support.app import MakeClient, client_factory
from tests.support.site import LocalSite, Reply


class Gate:
    """Holds a target's reply until the test opens it, so "in flight" is a state, not a race."""

    def __init__(self) -> None:
        self._open = threading.Event()

    def open(self) -> None:
        self._open.set()

    def reply(self, _path: str) -> Reply:
        self._open.wait(60)
        return Reply(body=b"held, then released", content_type="text/plain")


@pytest.fixture(scope="module")
def gate() -> Gate:
    return Gate()


@pytest.fixture(scope="module")
def site(gate: Gate) -> Iterator[LocalSite]:
    routes = {
        "/a.txt": Reply(body=b"alpha\nbeta\n", content_type="text/plain"),
        "/b.txt": Reply(body=b"bravo\n", content_type="text/plain"),
        "/c.txt": Reply(body=b"charlie\n", content_type="text/plain"),
        "/data.json": Reply(body=b'{"n": [1, 2, 3]}', content_type="application/json"),
        "/gone": Reply(status=404, body=b"gone", content_type="text/plain"),
        "/boom": Reply(status=503, body=b"down", content_type="text/plain"),
        "/hold": gate.reply,
    }
    with LocalSite(routes) as s:
        yield s


@pytest.fixture(scope="module")
def stack(site: LocalSite, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory.mktemp("stack"), [site.port]) as s:
        yield s


@pytest.fixture
def make_client(tmp_path: Path, site: LocalSite) -> Iterator[MakeClient]:
    """The app in-process, with no worker: jobs stay queued, which is what submit tests need."""
    with client_factory(tmp_path, [site.port], NAMES) as make:
        yield make


@pytest.fixture
def client(make_client: MakeClient) -> TestClient:
    return make_client()
