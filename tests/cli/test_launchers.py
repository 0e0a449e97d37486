"""`sift demo` (as CI runs it) and `sift up`, as real processes: they work, they stop, and
they leave nothing running, also when interrupted."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from sift_cli.procs import free_port, wait_healthy
from tests.batch_api.stack import REPO, write_config
from tests.support.config import auth


def processes_mentioning(needle: str) -> list[int]:
    """PIDs whose command line contains NEEDLE (the launcher's temporary paths)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if needle in cmdline:
            found.append(int(proc.name))
    return found


def launch(*argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sift_cli", *argv],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "SIFT_CONFIG": ""},
    )


def test_demo_runs_end_to_end_and_leaves_nothing(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sift_cli", "demo"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=110,
        env={**os.environ, "SIFT_CONFIG": "", "TMPDIR": str(tmp_path)},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "422 blocked: targets[0].url: address 10.0.0.1" in out
    assert re.search(r"job \w+: partial \(6/6 finished, 2 failed\)", out)
    assert "upstream: the site answered 404" in out and "blocked:" in out
    assert "How Lighthouses Learned to Run Themselves" in out  # the article
    assert "Heavy seas" in out  # the PDF's page 2
    assert "North Cape" in out  # the jq result
    assert "6/6 partial" in proc.stderr  # the progress bar
    assert "Traceback" not in proc.stderr
    assert list(tmp_path.iterdir()) == []  # the temporary store is gone
    assert processes_mentioning(str(tmp_path)) == []


# Lines `sift demo` prints at three moments: before it starts a child, once both children are
# started, and once the API answers (mid-run). The launcher's signal handlers are in place
# before the first of them, so an interrupt at any of these moments must end the same way.
MOMENTS = ["sift demo: working in", "worker pid", "1. A private address"]


@pytest.mark.parametrize("moment", MOMENTS)
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_demo_interrupted_stops_its_children(tmp_path: Path, moment: str, sig: int) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sift_cli", "demo"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "SIFT_CONFIG": "", "TMPDIR": str(tmp_path)},
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.strip().startswith(moment):
            break
    if moment != MOMENTS[0]:
        assert processes_mentioning(str(tmp_path))  # the api and the worker are running
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert processes_mentioning(str(tmp_path)) == []
    assert list(tmp_path.iterdir()) == []


def test_up_runs_api_and_worker_until_ctrl_c(tmp_path: Path) -> None:
    port = free_port()
    with _site() as site:
        config = write_config(tmp_path, port, [site.port])
        proc = launch("up", "--config", str(config))
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_healthy(base, proc)
            with httpx.Client(base_url=base, headers=auth(), trust_env=False, timeout=60) as http:
                job = http.post("/v1/batch", json={"targets": [{"url": site.url("/t.txt")}]})
                body = http.get(f"/v1/batch/{job.json()['job_id']}", params={"wait": 30}).json()
            assert body["status"] == "done"  # so the worker runs too
            assert len(processes_mentioning(str(config))) == 3  # up, api, worker
        finally:
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "stopping the api and the worker" in err and "Traceback" not in err
    assert processes_mentioning(str(config)) == []


def test_up_with_a_bad_config_is_2(tmp_path: Path) -> None:
    config = tmp_path / "sift.toml"
    config.write_text("[batch]\nworkers = 3\n")
    proc = launch("up", "--config", str(config))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "batch.workers" in err and "Traceback" not in err


def _site():  # type: ignore[no-untyped-def]
    from tests.support.site import LocalSite, Reply

    return LocalSite({"/t.txt": Reply(body=b"up and running", content_type="text/plain")})


def _wait_healthy(base: str, proc: subprocess.Popen[str]) -> None:
    for _ in range(300):
        assert proc.poll() is None, proc.communicate()[1]
        try:
            if httpx.get(f"{base}/healthz", timeout=1, trust_env=False).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError("sift up did not become healthy")


def test_an_unhealthy_api_is_reported_with_its_reason() -> None:
    from tests.support.site import LocalSite, Reply

    body = b'{"success": false, "error": "unavailable: the store\'s disk is full", "ok": false}'
    unhealthy = Reply(status=503, body=body, content_type="application/json")
    with LocalSite({"/healthz": unhealthy}) as site, pytest.raises(TimeoutError) as caught:
        wait_healthy(site.url(""), [], timeout=0.3)
    assert "503 unavailable: the store's disk is full" in str(caught.value)
