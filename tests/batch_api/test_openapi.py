"""Schemathesis against `GET /openapi.json`: generated requests for every operation, checked for
no 5xx and for answers (status, content type, body) that match the document.

The server runs in-process under uvicorn with the tests' resolver (names map to loopback) and a
connection factory that refuses anything but the allowed loopback address, so whatever URL the
generator invents, no packet leaves this machine.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from sift_api.app import create_app
from sift_api.openapi import DOCUMENT
from sift_cli.procs import free_port
from sift_fetch.guard import tcp_connector
from tests.batch_api.worker_proc import NAMES
from tests.support.config import auth, make_config
from tests.support.net import Resolver
from tests.support.site import LocalSite

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


async def loopback_only(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, port: int):  # type: ignore[no-untyped-def]
    if str(ip) != "127.0.0.1":
        raise OSError(f"test connector: {ip} is not this machine's allowed loopback address")
    return await tcp_connector(ip, port)


@pytest.fixture(scope="module")
def live_api(site: LocalSite, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp: Path = tmp_path_factory.mktemp("openapi")
    config = make_config(tmp, [site.port])
    app = create_app(config, resolver=Resolver(NAMES), connector=loopback_only)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started
    # One real job, so GET/DELETE on a known id are exercised too, not only 404s.
    job = httpx.post(
        f"{base}/v1/batch", json={"targets": [{"url": site.url("/a.txt")}]}, headers=auth()
    )
    assert job.status_code == 202
    yield base
    server.should_exit = True
    thread.join(timeout=30)


def operations(base: str) -> list:  # type: ignore[type-arg]
    schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
    return [result.ok() for result in schema.get_all_operations()]


def test_the_document_covers_every_route(tmp_path: Path, site: LocalSite) -> None:
    app = create_app(make_config(tmp_path, [site.port]))
    routes = {(m, r.path) for r in app.routes for m in r.methods if m != "HEAD"}  # type: ignore[attr-defined]
    # MCP is a protocol of its own, described by its tool list (tests/protocols), not OpenAPI.
    routes -= {(m, "/mcp") for m in ("GET", "POST", "DELETE")}
    documented = {(m.upper(), path) for path, ops in DOCUMENT["paths"].items() for m in ops}
    assert routes == documented


def test_every_answer_matches_the_document(live_api: str) -> None:
    # One hypothesis run per operation (schemathesis' lazy pytest loader does not support
    # this pytest); bounded, so the whole run stays within seconds.
    for operation in operations(live_api):

        @given(case=operation.as_strategy())
        @settings(
            max_examples=25,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
        def check(case) -> None:  # type: ignore[no-untyped-def]
            case.call_and_validate(base_url=live_api, headers=auth(), checks=CHECKS, timeout=30)

        check()
