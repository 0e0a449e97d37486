"""Shared pieces of the batch benchmarks: a fresh store on SQLite or in a throwaway PostgreSQL
schema, a local site, a worker config, and percentiles."""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as `python bench/…` from anywhere: tests.support too

from sift_fetch.callers import token_hash  # noqa: E402
from sift_store.engine import Store, open_store  # noqa: E402
from sift_store.migrate import migrate  # noqa: E402

PG_URL = os.environ.get("SIFT_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")


def db_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")


def dbs(args: argparse.Namespace) -> list[str]:
    return ["sqlite", "postgresql"] if args.db == "both" else [args.db]


@contextmanager
def fresh_store(kind: str, tmp: Path) -> Iterator[tuple[Store, str]]:
    """A migrated store and its URL: a SQLite file under TMP, or a new PostgreSQL schema."""
    if kind == "sqlite":
        url = f"sqlite:///{tmp / f'bench-{uuid.uuid4().hex[:6]}.db'}"
        store = open_store(url)
        migrate(store)
        try:
            yield store, url
        finally:
            store.dispose()
        return
    schema = "bench_" + uuid.uuid4().hex[:10]
    admin = sa.create_engine(PG_URL.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    url = f"{PG_URL}{'&' if '?' in PG_URL else '?'}options=-csearch_path%3D{schema}"
    store = open_store(url)
    migrate(store)
    try:
        yield store, url
    finally:
        store.dispose()
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


def write_config(tmp: Path, store_url: str, site_port: int, **batch: object) -> Path:
    path = tmp / f"sift-{uuid.uuid4().hex[:6]}.toml"
    batch_lines = "".join(f"{k} = {json.dumps(v)}\n" for k, v in batch.items())
    path.write_text(
        f"""
[store]
url = {json.dumps(store_url)}
[guard]
allow_cidrs = ["127.0.0.1/32"]
allow_ports = [{site_port}]
[fetch]
per_host = 8
per_caller = 8
[batch]
{batch_lines}
[[callers]]
name = "bench"
token_sha256 = "{token_hash("bench-token")}"
"""
    )
    return path


def article(n: int) -> bytes:
    """A plain article page of about 10 KB, unique per N."""
    parts = "".join(
        f"<h2>Part {i} of page {n}</h2><p>{'Lorem ipsum dolor sit amet, consectetur. ' * 25}</p>"
        for i in range(6)
    )
    return (
        f"<html><head><title>Page {n}</title></head><body><nav>Home | About</nav>"
        f"<article><h1>Page {n}</h1>{parts}</article><footer>(c)</footer></body></html>"
    ).encode()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def summary(values_ms: list[float]) -> str:
    return (
        f"median {statistics.median(values_ms):7.2f} ms   p99 {pct(values_ms, 99):7.2f} ms"
        f"   (n={len(values_ms)})"
    )


class WorkerProcess:
    """`python -m sift_worker --config CONFIG`, its log in LOG; started and ready on enter."""

    def __init__(self, config: Path, log: Path) -> None:
        self.config, self.log = config, log
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> WorkerProcess:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sift_worker", "--config", str(self.config)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("ab"),
        )
        for _ in range(600):
            if "batch.worker.start" in self.log.read_text():
                return self
            time.sleep(0.05)
        raise SystemExit(f"the worker did not start; see {self.log}")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def __exit__(self, *_exc: object) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=60)
