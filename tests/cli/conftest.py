from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.batch_api.conftest import Gate
from tests.batch_api.stack import Stack, running_stack
from tests.support.site import LocalSite, Reply


@pytest.fixture(scope="module")
def gate() -> Gate:
    return Gate()


ARTICLE = b"""<!doctype html><html><head><title>Winter pruning | Orchard Notes</title></head>
<body><article><h1>Winter pruning</h1>
<p>Apple trees are pruned in winter, while they are dormant, so that the cuts heal before the
sap rises. Take out dead, diseased and crossing branches first, then thin the crown.</p>
<p>Never remove more than a quarter of the canopy in one year, or the tree answers with a
thicket of water shoots that shade the fruit and need cutting again in summer.</p>
</article></body></html>"""


@pytest.fixture(scope="module")
def site(gate: Gate) -> Iterator[LocalSite]:
    routes = {
        "/pruning": Reply(body=ARTICLE, content_type="text/html; charset=utf-8"),
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
