"""`python -m sift_worker --config PATH`: the worker without the `sift` CLI around it."""

from __future__ import annotations

import argparse
import sys

from sift_fetch.config import ConfigError, load_config
from sift_fetch.logs import configure_logging
from sift_worker.run import main


def _cli() -> int:
    parser = argparse.ArgumentParser(prog="python -m sift_worker", description=__doc__)
    parser.add_argument("--config", "-c", help="path to sift.toml (default: $SIFT_CONFIG)")
    args = parser.parse_args()
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"sift worker: config: {exc}", file=sys.stderr)
        return 2
    configure_logging()
    return main(config)


if __name__ == "__main__":
    sys.exit(_cli())
