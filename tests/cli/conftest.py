from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.batch_api.conftest import Gate
from tests.batch_api.stack import Stack, running_stack
from tests.support.site import LocalSite, Reply


@pytest.fixture(scope="module")
def gate() -> Gate:
    return Gate()


@pytest.fixture(scope="module")
def site(gate: Gate) -> Iterator[LocalSite]:
    routes = {
        "/one.txt": Reply(body=b"first line\nsecond line\n", content_type="text/plain"),
        "/two.txt": Reply(body=b"another document\n", content_type="text/plain"),
        "/data.json": Reply(body=b'{"items": ["x", "y"]}', content_type="application/json"),
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
