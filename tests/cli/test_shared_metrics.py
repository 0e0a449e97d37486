"""`sift serve` and `sift worker` started by hand, with no PROMETHEUS_MULTIPROC_DIR, find the
same metrics directory from their config alone (beside the SQLite file): the API's /metrics
shows the series only the worker counts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from sift_cli.procs import free_port
from tests.batch_api.stack import REPO, write_config
from tests.cli.test_launchers import _wait_healthy
from tests.support.config import auth
from tests.support.site import LocalSite, Reply


def _start(command: str, config: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    return subprocess.Popen(
        [sys.executable, "-m", "sift_cli", command, "--config", str(config)],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        env={**env, "SIFT_CONFIG": ""},
    )


def test_serve_and_worker_by_hand_share_their_metrics(tmp_path: Path) -> None:
    with LocalSite({"/t.txt": Reply(body=b"counted", content_type="text/plain")}) as site:
        port = free_port()
        config = write_config(tmp_path, port, [site.port])
        api = _start("serve", config, tmp_path / "api.log")
        worker = _start("worker", config, tmp_path / "worker.log")
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_healthy(base, api)
            with httpx.Client(base_url=base, headers=auth(), trust_env=False, timeout=60) as http:
                job = http.post("/v1/batch", json={"targets": [{"url": site.url("/t.txt")}]})
                done = http.get(f"/v1/batch/{job.json()['job_id']}", params={"wait": 30})
                assert done.json()["status"] == "done", (tmp_path / "worker.log").read_text()
                scraped = http.get("/metrics").text
        finally:
            for proc in (api, worker):
                proc.send_signal(signal.SIGTERM)
            for proc in (api, worker):
                proc.wait(timeout=60)
    # Only the worker counts batch targets: the API can show it only from the shared directory.
    assert 'sift_batch_targets_total{outcome="ok"} 1.0' in scraped
    files = [path.name for path in (tmp_path / "metrics").iterdir()]
    assert any(str(worker.pid) in name for name in files)
    assert any(str(api.pid) in name for name in files)
