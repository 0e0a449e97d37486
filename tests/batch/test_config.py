"""The `[batch]` block: defaults, and a bad value stops the worker's start naming the key."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sift_fetch.config import BatchConfig, ConfigError, parse_config

ROOT = Path(__file__).resolve().parents[2]


def test_defaults() -> None:
    assert parse_config({}).batch == BatchConfig(
        targets_per_job=32,
        jobs_per_caller=1,
        jobs_total=8,
        ttl=86400.0,
        max_bytes=64 * 1024 * 1024,
        workers=1,
        busy_retry_for=600.0,
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [("workers", 3), ("workers", 0), ("targets_per_job", 0), ("ttl", -1), ("max_bytes", "big")],
)
def test_bad_values_name_the_key(key: str, value: object) -> None:
    with pytest.raises(ConfigError, match=rf"^batch\.{key}: "):
        parse_config({"batch": {key: value}})


def test_the_worker_refuses_to_start_on_a_bad_config(tmp_path: Path) -> None:
    config = tmp_path / "sift.toml"
    config.write_text("[batch]\nworkers = 5\n")
    done = subprocess.run(
        [sys.executable, "-m", "sift_worker", "--config", str(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "batch.workers: must be 1 or 2 on one host" in done.stderr
