"""The real worker as separate processes (`python -m sift_worker --config …`) against a local site:
SIGKILL in the middle of a slow target, a new worker, SIGTERM, and one metrics scrape that shows
what both worker processes counted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import anyio
import pytest
from prometheus_client import generate_latest

from sift_fetch import metrics
from sift_fetch.callers import Caller, token_hash
from sift_fetch.config import load_config
from sift_fetch.pipeline import fetch_target
from sift_fetch.runtime import Runtime
from sift_fetch.target import Target
from sift_store.batch import RESTART
from sift_store.batch_jobs import get_job, get_target
from sift_store.engine import Store
from sift_store.gates import slot_holders
from tests.batch.helpers import new_targets, submit
from tests.support.net import Connector
from tests.support.site import LocalSite, Reply

ROOT = Path(__file__).resolve().parents[2]
PAGE = b"<html><head><title>T</title></head><body><article><p>%s</p></article></body></html>"
# Not a timed assertion: only keeps a broken worker from hanging the suite.
HANG_GUARD = 60.0


@pytest.fixture
def site() -> Iterator[LocalSite]:
    routes = {
        f"/{name}": Reply(body=PAGE % name.encode(), delay=delay)
        for name, delay in [("a", 0), ("slow", 3.0), ("b", 0), ("c", 0), ("d", 1.0), ("e", 0)]
    }
    with LocalSite(routes) as s:  # type: ignore[arg-type]
        yield s


def write_config(tmp_path: Path, store: Store, port: int) -> Path:
    url = store.engine.url.render_as_string(hide_password=False)
    path = tmp_path / "sift.toml"
    path.write_text(
        f"""
[store]
url = {json.dumps(url)}

[guard]
allow_cidrs = ["127.0.0.1/32"]
allow_ports = [{port}]

[fetch]
render_workers = 1
render_queue = 4

[[callers]]
name = "alice"
token_sha256 = "{token_hash("alice-token")}"
"""
    )
    return path


class WorkerProc:
    def __init__(self, config: Path, metrics_dir: Path, log: Path) -> None:
        self.log = log
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sift_worker", "--config", str(config)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log.open("ab"),
        )

    def signal(self, signum: int) -> int:
        self.proc.send_signal(signum)
        return self.proc.wait(timeout=HANG_GUARD)

    def events(self) -> list[dict]:
        lines = self.log.read_text().splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]


def wait_for(check: Callable[[], bool]) -> None:
    give_up = time.monotonic() + HANG_GUARD
    while not check():
        assert time.monotonic() < give_up, "gave up waiting"
        time.sleep(0.02)


def killed_mid_slow(
    tmp_path: Path, store: Store, site: LocalSite, paths: list[str]
) -> tuple[Path, Path, str]:
    """A job of PATHS whose worker process is SIGKILLed while it fetches /slow: the config, the
    metrics directory and the job id."""
    config = write_config(tmp_path, store, site.port)
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    job_id = submit(store, new_targets([site.url(p) for p in paths]), now=time.time()).job_id
    first = WorkerProc(config, metrics_dir, tmp_path / "first.log")
    wait_for(lambda: site.count("/slow") == 1)  # /slow is on the wire
    assert first.signal(signal.SIGKILL) == -signal.SIGKILL
    return config, metrics_dir, job_id


def test_sigkill_mid_target_then_a_new_worker(
    tmp_path: Path, store: Store, site: LocalSite
) -> None:
    paths = ["/a", "/slow", "/b", "/c"]
    config, metrics_dir, job_id = killed_mid_slow(tmp_path, store, site, paths)

    second = WorkerProc(config, metrics_dir, tmp_path / "second.log")

    def job_ended() -> bool:
        view = get_job(store, job_id, caller="alice")
        return view is not None and view.status not in ("queued", "running")

    wait_for(job_ended)
    view = get_job(store, job_id, caller="alice")
    assert view is not None
    assert (view.status, view.error, view.targets_done) == ("failed", RESTART, 2)
    assert [t.status for t in view.targets] == ["done", "failed", "pending", "pending"]
    assert view.targets[1].outcome == RESTART
    done = get_target(store, job_id, 0, caller="alice")
    assert done is not None and "a" in json.loads(done.result or "")["content"]

    # The new worker is alive and working: it drains the next job, and stops cleanly on
    # SIGTERM with its in-flight target stored and the rest left for the next worker.
    later = submit(store, new_targets([site.url("/d"), site.url("/e")]), now=time.time())
    wait_for(lambda: site.count("/d") == 1)
    assert second.signal(signal.SIGTERM) == 0
    after = get_job(store, later.job_id, caller="alice")
    assert after is not None
    assert [t.status for t in after.targets] == ["done", "pending"]

    # Nothing was ever fetched twice; nothing after the killed target was fetched at all.
    assert {p: site.count(p) for p in [*paths, "/d", "/e"]} == {
        "/a": 1,
        "/slow": 1,
        "/b": 0,
        "/c": 0,
        "/d": 1,
        "/e": 0,
    }
    events = [e["event"] for e in second.events()]
    assert "batch.restart" in events and "batch.worker.stop" in events
    log_text = (tmp_path / "first.log").read_text() + (tmp_path / "second.log").read_text()
    assert "127.0.0.1:" not in log_text and "/slow" not in log_text  # no URL, no host

    # One scrape shows both workers' counters (one of them killed) and the store's gauges.
    registry = metrics.metrics_registry(store, multiproc_dir=str(metrics_dir))
    text = generate_latest(registry).decode()
    assert 'sift_batch_jobs_total{outcome="restart"} 1.0' in text
    assert 'sift_batch_targets_total{outcome="ok"} 2.0' in text  # /a by the first, /d by the second
    assert "sift_batch_target_seconds_count 2.0" in text
    assert "sift_batch_queue_depth 1.0" in text  # /e, waiting for the next worker
    assert "sift_batch_targets_inflight 0.0" in text


def test_a_killed_workers_gate_slot_frees_at_once_for_its_host(
    tmp_path: Path, store: Store, site: LocalSite
) -> None:
    config_path, _, _ = killed_mid_slow(tmp_path, store, site, ["/slow"])
    assert len(slot_holders(store)) == 1  # killed mid-fetch: nothing released it

    # An interactive fetch of that host, where the dead worker's slot is the host's only one:
    # it is free now, not once the dead worker's lease lapses.
    config = load_config(config_path)
    config = replace(config, fetch=replace(config.fetch, per_host=1))

    async def interactive() -> str:
        rt = Runtime.open(config, store=store, connector=Connector())
        try:
            result = await fetch_target(rt, Caller("alice", "standard"), Target(url=site.url("/a")))
            return result.outcome
        finally:
            await rt.aclose()  # the test's store stays open

    assert anyio.run(interactive) == "ok"
    assert site.count("/a") == 1
    assert slot_holders(store) == []
