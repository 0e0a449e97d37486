"""The server side of `sift`: `serve` (the API), `worker` (the batch worker), and `up` (both,
as child processes, for local use)."""

from __future__ import annotations

import signal
import time

import typer

from sift_cli.exits import REFUSED
from sift_cli.launch import load_or_exit, share_metrics
from sift_cli.options import ConfigOpt
from sift_cli.procs import (
    Child,
    ChildExited,
    Stopped,
    check_alive,
    ignore_stop_signals,
    raise_if_stopped,
    spawn,
    stop,
    stop_on_signals,
    wait_healthy,
)

# `sift up` looks after its children this often.
WATCH_SECONDS = 0.5


def serve(config: ConfigOpt = None) -> None:
    """Run the API server (uvicorn)."""
    # uvicorn stops gracefully on SIGTERM, then raises it again once it has restored this
    # handler: the process then exits normally, so its exit handlers run (they remove the
    # render pool's temporary directory) instead of dying by the signal.
    exit_cleanly_on_sigterm()
    cfg = load_or_exit(config)
    share_metrics(cfg)
    import uvicorn

    from sift_api.app import create_app

    uvicorn.run(
        create_app(cfg),
        host=cfg.server.host,
        port=cfg.server.port,
        access_log=False,
        log_level="warning",
        # Nothing reads the client's address or the scheme (callers are their tokens, and no
        # log line names an address), so X-Forwarded-* headers need no reading on any request.
        proxy_headers=False,
    )


def exit_cleanly_on_sigterm() -> None:
    """SIGTERM, the way a service manager stops a process, ends it with a normal exit (0), so
    its exit handlers run; the server and the worker take the signal over once they run."""

    def handler(_signum: int, _frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, handler)


def worker(config: ConfigOpt = None) -> None:
    """Run the batch worker: claims targets from the store and fetches them, one at a time."""
    # Until the worker listens for it (its start-up takes seconds), SIGTERM ends it cleanly.
    exit_cleanly_on_sigterm()
    cfg = load_or_exit(config)
    share_metrics(cfg)
    from sift_worker.run import main

    raise typer.Exit(main(cfg))


def local_url(host: str, port: int) -> str:
    """Where a client on this machine reaches a server bound to HOST."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def up(config: ConfigOpt = None) -> None:
    """Run the API and the worker together (embedded SQLite by default); Ctrl-C stops both."""
    cfg = load_or_exit(config, announce=False)
    base = local_url(cfg.server.host, cfg.server.port)
    args = ["--config", config] if config else []
    children: list[Child] = []
    stop_on_signals()
    code = 0
    try:
        # Both find the same metrics directory from the config, as any two processes do.
        children.append(spawn("api", ["sift_cli", "serve", *args]))
        children.append(spawn("worker", ["sift_cli", "worker", *args]))
        wait_healthy(base, children)
        typer.echo(f"sift: api on {base}, worker running; Ctrl-C stops both", err=True)
        while True:
            raise_if_stopped()
            check_alive(children)
            time.sleep(WATCH_SECONDS)
    except Stopped:
        # Ctrl-C (or SIGTERM) is how `up` is meant to end: a clean stop, exit 0.
        typer.echo("sift: stopping the api and the worker", err=True)
    except (ChildExited, TimeoutError) as exc:
        typer.echo(f"sift: {exc}; stopping", err=True)
        code = REFUSED
    finally:
        ignore_stop_signals()  # the clean-up runs to its end (STOP_GRACE at most)
        stop(children)
    raise typer.Exit(code)
