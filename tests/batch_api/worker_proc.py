"""`python -m tests.batch_api.worker_proc --config PATH`: the real worker (`sift_worker.run.main`)
with the tests' injected resolver and loopback-only connector: names resolve to loopback
addresses only ("docs" inside the allowance, "intranet" outside it) and no test asks real DNS."""

from __future__ import annotations

import argparse
import sys

from sift_fetch.config import load_config
from sift_fetch.logs import configure_logging
from sift_worker import run
from tests.support.net import Connector, Resolver

NAMES = {"docs.sift-test.dev": ["127.0.0.1"], "intranet.sift-test.dev": ["127.0.0.2"]}


def _main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    configure_logging()
    return run.main(load_config(args.config), resolver=Resolver(NAMES), connector=Connector())


if __name__ == "__main__":
    sys.exit(_main())
