"""`python -m tests.batch_api.worker_proc --config PATH`: the real worker (`sift_worker.run.main`)
with the tests' injected resolver, so names resolve to loopback addresses only and no test
ever asks real DNS: "docs" inside the allowance, "intranet" outside it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sift_fetch.config import load_config
from sift_fetch.logs import configure_logging
from sift_fetch.runtime import Runtime
from sift_worker import run
from tests.support.net import Resolver

NAMES = {"docs.sift-test.dev": ["127.0.0.1"], "intranet.sift-test.dev": ["127.0.0.2"]}


class _ResolvingRuntime(Runtime):
    @classmethod
    def open(cls, config: Any, **kwargs: Any) -> Runtime:  # type: ignore[override]
        kwargs.setdefault("resolver", Resolver(NAMES))
        return super().open(config, **kwargs)


def _main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    configure_logging()
    run.Runtime = _ResolvingRuntime  # type: ignore[misc]
    return run.main(load_config(args.config))


if __name__ == "__main__":
    sys.exit(_main())
