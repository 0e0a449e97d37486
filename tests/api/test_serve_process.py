"""`sift serve` as a real process: starts from a config file, answers, stops on SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.support.config import TOKENS, auth
from tests.support.site import LocalSite, Reply


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(base: str, proc: subprocess.Popen) -> None:
    for _ in range(200):
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError("server did not become healthy")


def test_serve_from_config_file(tmp_path: Path) -> None:
    from sift_fetch.callers import token_hash

    port = free_port()
    with LocalSite(
        {"/hello.txt": Reply(body=b"hello from loopback", content_type="text/plain")}
    ) as site:
        config = tmp_path / "sift.toml"
        config.write_text(
            f"""
[server]
port = {port}
[store]
url = "sqlite:///{tmp_path / "api.db"}"
[[callers]]
name = "alice"
token_sha256 = "{token_hash(TOKENS["alice"])}"
[guard]
allow_cidrs = ["127.0.0.1/32"]
allow_ports = [{site.port}]
"""
        )
        tmp = tmp_path / "tmp"
        tmp.mkdir()
        proc = subprocess.Popen(
            [sys.executable, "-m", "sift_cli", "serve", "--config", str(config)],
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "SIFT_CONFIG": "", "TMPDIR": str(tmp)},
        )
        try:
            base = f"http://127.0.0.1:{port}"
            wait_healthy(base, proc)
            r = httpx.post(f"{base}/v1/fetch", json={"url": site.url("/hello.txt")}, headers=auth())
            assert r.json()["content"] == "hello from loopback"
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=30)
        # uvicorn shuts down gracefully, then raises the signal again: `sift serve` then exits
        # cleanly, and its exit handlers remove what it made in TMPDIR (the render pool's).
        assert proc.returncode == 0
        assert list(tmp.iterdir()) == []
        assert "Traceback" not in err
        assert "GUARD ESCAPE HATCH" in err  # the allowance is announced loudly


def test_bad_config_stops_the_start_naming_the_key(tmp_path: Path) -> None:
    config = tmp_path / "sift.toml"
    config.write_text("[fetch]\nper_hots = 2\n")
    proc = subprocess.run(
        [sys.executable, "-m", "sift_cli", "serve", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "fetch.per_hots: unknown key" in proc.stderr
    assert "Traceback" not in proc.stderr
