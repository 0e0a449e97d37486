"""The app in-process behind Starlette's TestClient, with the test resolver and the
loopback-only connector, so no test client can reach past 127.0.0.1."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from sift_api.app import create_app
from tests.support.config import make_config
from tests.support.net import Connector, Resolver

MakeClient = Callable[..., TestClient]


@contextmanager
def client_factory(
    tmp_path: Path, ports: list[int], names: dict[str, list[str]]
) -> Iterator[MakeClient]:
    """`make(**sections)` builds a started client on a config with those sections changed;
    every client is stopped (lifespan shutdown) when the block ends."""
    with ExitStack() as stack:

        def make(ports_: list[int] | None = None, **sections: Any) -> TestClient:
            config = make_config(tmp_path, ports_ or ports, **sections)
            app = create_app(config, resolver=Resolver(names), connector=Connector())
            return stack.enter_context(TestClient(app))

        yield make
