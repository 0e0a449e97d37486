"""A real Sift on loopback for tests: the API (`python -m sift_cli serve`) and the worker as
separate processes over one SQLite file, with the tests' callers and the test allowance
(127.0.0.1 and the local site's port only)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from sift_cli.procs import free_port
from sift_fetch.callers import token_hash
from tests.support.config import CLASSES, TOKENS, auth

REPO = Path(__file__).resolve().parents[2]
TERMINAL = ("done", "partial", "failed", "cancelled")


def write_config(
    tmp: Path, api_port: int, allow_ports: list[int], extra: str = "", fetch: str = ""
) -> Path:
    """EXTRA: more sections; FETCH: more `[fetch]` keys (TOML allows a table once)."""
    callers = "\n".join(
        f'[[callers]]\nname = "{name}"\ntoken_sha256 = "{token_hash(tok)}"\n'
        f'class = "{CLASSES[name]}"\n'
        for name, tok in TOKENS.items()
    )
    path = tmp / "sift.toml"
    path.write_text(
        f"""[server]
host = "127.0.0.1"
port = {api_port}
[store]
url = "sqlite:///{tmp / "sift.db"}"
[guard]
allow_cidrs = ["127.0.0.1/32"]
allow_ports = {allow_ports!r}
[fetch]
render_workers = 1
{fetch}
{callers}
{extra}
"""
    )
    return path


@dataclass
class Stack:
    base: str
    tmp: Path
    config: Path
    api: subprocess.Popen[str]
    worker: subprocess.Popen[str]

    @property
    def db_url(self) -> str:
        return f"sqlite:///{self.tmp / 'sift.db'}"

    def http(self, who: str = "alice") -> httpx.Client:
        return httpx.Client(base_url=self.base, headers=auth(who), timeout=90, trust_env=False)

    def env(self, who: str = "alice") -> dict[str, str]:
        """The environment a CLI user of this stack would have."""
        return {"SIFT_URL": self.base, "SIFT_TOKEN": TOKENS[who]}

    def wait_finished(self, job_id: str, who: str = "alice") -> dict[str, Any]:
        """Long-poll until the job finishes; the bound only stops a broken run from hanging."""
        with self.http(who) as http:
            for _ in range(10):
                body = http.get(f"/v1/batch/{job_id}", params={"wait": 30}).json()
                if body["status"] in TERMINAL:
                    return body
        raise AssertionError(f"job {job_id} did not finish: {body}")


def _spawn(args: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", *args],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, **env},
    )


def _wait_healthy(stack: Stack) -> None:
    for _ in range(300):
        for proc, name in ((stack.api, "api"), (stack.worker, "worker")):
            if proc.poll() is not None:
                log = (stack.tmp / f"{name}.log").read_text()
                raise AssertionError(f"the {name} exited {proc.returncode}:\n{log}")
        try:
            if httpx.get(f"{stack.base}/healthz", timeout=1, trust_env=False).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError("the api did not become healthy")


@contextmanager
def running_stack(
    tmp: Path, allow_ports: list[int], extra: str = "", fetch: str = ""
) -> Iterator[Stack]:
    api_port = free_port()
    config = write_config(tmp, api_port, allow_ports, extra, fetch)
    (tmp / "metrics").mkdir()
    env = {"PROMETHEUS_MULTIPROC_DIR": str(tmp / "metrics"), "SIFT_CONFIG": ""}
    api = _spawn(["sift_cli", "serve", "--config", str(config)], tmp / "api.log", env)
    worker = _spawn(
        ["tests.batch_api.worker_proc", "--config", str(config)], tmp / "worker.log", env
    )
    stack = Stack(f"http://127.0.0.1:{api_port}", tmp, config, api, worker)
    try:
        _wait_healthy(stack)
        yield stack
    finally:
        for proc in (api, worker):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in (api, worker):
            try:
                proc.wait(timeout=40)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
