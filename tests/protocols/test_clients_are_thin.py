"""`sift mcp` and the Hermes plugin are clients of a running Sift over HTTP: they import no
store, pipeline or server code, and the plugin's requests are `/v1/fetch`'s."""

from __future__ import annotations

import subprocess
import sys

import anyio
import pytest

from sift_hermes.extract import extract
from tests.batch_api.stack import REPO, Stack
from tests.support.config import TOKENS
from tests.support.site import LocalSite

SERVER_SIDE = ("sift_api", "sift_fetch", "sift_store", "sift_worker")


@pytest.mark.parametrize("module", ["sift_hermes", "sift_hermes.extract", "sift_cli.mcp_cmd"])
def test_a_client_imports_nothing_of_the_server(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {SERVER_SIDE!r}))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_plugin_results_carry_final_url_error_and_hint(stack: Stack, site: LocalSite) -> None:
    urls = [site.url("/moved"), f"http://127.0.0.2:{site.port}/", site.url("/notes.txt")]
    moved, blocked, notes = anyio.run(lambda: extract(stack.base, TOKENS["alice"], urls))
    assert moved["url"] == site.url("/article")
    assert moved["metadata"]["sourceURL"] == site.url("/moved")
    assert "lit in 1821" in moved["content"] and moved["title"] == "Lighthouses of the North"
    assert blocked["error"].startswith("blocked: ") and blocked["error"].endswith("(hint: browser)")
    assert notes["content"] == "alpha\nbeta\ngamma\n"
    (unreachable,) = anyio.run(lambda: extract("http://127.0.0.1:9", "t", [site.url("/")]))
    assert unreachable["error"].startswith("unreachable: Sift at http://127.0.0.1:9")
