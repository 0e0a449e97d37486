"""Child processes for `sift up` and `sift demo`: start, wait until healthy, stop for sure.

Children run in their own session, so a Ctrl-C reaches only the launcher, which then stops
them in order (SIGTERM, a grace period, SIGKILL). On Linux each child also asks the kernel for
SIGTERM should the launcher die without cleaning up (PR_SET_PDEATHSIG), so nothing is left
running even after a SIGKILL of the launcher.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

import httpx

STOP_GRACE = 15.0
PR_SET_PDEATHSIG = 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _death_signal() -> Callable[[], None] | None:
    if not sys.platform.startswith("linux"):
        return None
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    # Looked up here, in the parent: the child runs only this one call between fork and exec.
    prctl = ctypes.CDLL(name, use_errno=True).prctl

    def set_pdeathsig() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)

    return set_pdeathsig


@dataclass
class Child:
    name: str
    proc: subprocess.Popen[bytes]

    @property
    def running(self) -> bool:
        return self.proc.poll() is None


def spawn(
    name: str,
    args: Sequence[str],
    *,
    output: IO[Any] | None = None,
) -> Child:
    """Run `python -m ARGS…` with this interpreter (so the same install)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", *args],
        stdin=subprocess.DEVNULL,
        stdout=output,
        stderr=output,
        start_new_session=True,
        # Safe here: the launchers spawn before they start any thread of their own.
        preexec_fn=_death_signal(),
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    return Child(name, proc)


def stop(children: Sequence[Child], grace: float = STOP_GRACE) -> None:
    """SIGTERM every child, wait up to GRACE in all, SIGKILL whatever is left. Never raises."""
    for child in children:
        if child.running:
            _signal(child, signal.SIGTERM)
    deadline = time.monotonic() + grace
    for child in children:
        try:
            child.proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _signal(child, signal.SIGKILL)
            child.proc.wait()


def _signal(child: Child, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        child.proc.send_signal(sig)


class ChildExited(RuntimeError):
    def __init__(self, child: Child) -> None:
        super().__init__(f"the {child.name} process exited with code {child.proc.returncode}")
        self.child = child


def check_alive(children: Sequence[Child]) -> None:
    for child in children:
        if not child.running:
            raise ChildExited(child)


def wait_healthy(base_url: str, children: Sequence[Child], timeout: float = 60.0) -> None:
    """Until GET /healthz answers 200; a child that exits meanwhile ends the wait at once. On
    timeout, the last unhealthy answer says why (a full disk, a locked store...)."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    with httpx.Client(trust_env=False, timeout=5.0) as http:
        while True:
            raise_if_stopped()
            check_alive(children)
            try:
                answer = http.get(f"{base_url}/healthz")
                if answer.status_code == 200:
                    return
                last = f"{answer.status_code} {_error_of(answer)}"
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"the api on {base_url} was not healthy within {timeout:.0f} s ({last})"
                )
            time.sleep(0.1)


def _error_of(answer: httpx.Response) -> str:
    try:
        return str(answer.json()["error"])
    except (ValueError, KeyError, TypeError):
        return answer.text[:200]


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
# The signal that asked this launcher to stop, once one has.
_received: list[int] = []


class Stopped(KeyboardInterrupt):
    """SIGINT or SIGTERM reached a launcher: it stops its children, then exits.

    A KeyboardInterrupt, not an Exception: no `except Exception` on the way (in httpx, say) can
    mistake it for a failure of its own and swallow it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def stop_on_signals() -> None:
    """From now on the first SIGINT or SIGTERM raises Stopped and any later one is ignored. A
    launcher calls this before it starts a child, so an interrupt always finds it ready to stop
    them, and `ignore_stop_signals` when its clean-up begins, so none cuts that short.

    Python runs the handler wherever the main thread is, and where it cannot raise (in an
    at-fork or finalizer callback, as while a child is spawned) the Stopped is dropped: so the
    request is also remembered, `stop_requested` tells, and `raise_if_stopped` raises it again
    at the launchers' next wait; the dropped one is not printed."""

    def handler(signum: int, _frame: object) -> None:
        ignore_stop_signals()
        _received.append(signum)
        raise Stopped(signum)

    default_hook = sys.unraisablehook

    def unraisable(info: Any) -> None:
        if not isinstance(info.exc_value, Stopped):
            default_hook(info)

    sys.unraisablehook = unraisable
    for sig in STOP_SIGNALS:
        signal.signal(sig, handler)


def ignore_stop_signals() -> None:
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


def stop_requested() -> bool:
    return bool(_received)


def raise_if_stopped() -> None:
    if _received:
        raise Stopped(_received[0])
