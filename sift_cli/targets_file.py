"""What `sift batch submit` reads: a JSON list of targets, `{"targets": [...]}`, or one URL a line.

Only the shape is checked here; the server validates every field and names the bad index, so
the CLI and the API can never disagree about what a valid target is.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from sift_cli.exits import USAGE, CliError


def read_source(source: str) -> str:
    """SOURCE is a path, or `-` for standard input."""
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text()
    except OSError as exc:
        raise CliError(f"cannot read {source}: {exc.strerror}", USAGE) from None
    except UnicodeDecodeError:
        raise CliError(f"cannot read {source}: not UTF-8 text", USAGE) from None


def parse_targets(text: str, source: str = "-") -> list[Any]:
    stripped = text.strip()
    if not stripped:
        raise CliError(f"{source}: no targets", USAGE)
    if stripped[0] in "[{":
        return _from_json(stripped, source)
    # One URL per line; blank lines and `#` comments are skipped.
    urls = [line.strip() for line in stripped.splitlines()]
    targets = [{"url": url} for url in urls if url and not url.startswith("#")]
    if not targets:
        raise CliError(f"{source}: no targets", USAGE)
    return targets


def _from_json(text: str, source: str) -> list[Any]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise CliError(f"{source}: not valid JSON: {exc}", USAGE) from None
    if isinstance(data, dict):
        if set(data) != {"targets"}:
            raise CliError(f'{source}: a JSON object must be {{"targets": [...]}}', USAGE)
        data = data["targets"]
    if not isinstance(data, list):
        raise CliError(f"{source}: expected a JSON list of targets", USAGE)
    if not data:
        raise CliError(f"{source}: no targets", USAGE)
    # A bare string is a URL with the default options.
    return [{"url": item} if isinstance(item, str) else item for item in data]
