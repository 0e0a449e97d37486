"""`sift demo`: the whole batch path on one machine with no internet.

It starts the API and the worker as real child processes on a temporary SQLite store, serves
the built-in site on 127.0.0.1 (the guard's allowance is that address and the site's port,
nothing else), submits a batch of its pages, shows the progress bar, prints each target's
outcome and a few results, and stops everything it started, on success, failure or Ctrl-C.

Nothing here sends a packet off loopback: the literal private address it submits is refused
by the pre-check at submit, and the in-batch "private address" is a redirect to 127.0.0.2,
outside the allowance, which the guard refuses on the redirect hop.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import typer

from sift_cli.client import Client
from sift_cli.demo_server import PRIVATE_ADDRESS, DemoSite
from sift_cli.exits import INTERRUPTED, REFUSED, CliError
from sift_cli.jobwait import wait_for_job
from sift_cli.procs import (
    Child,
    ChildExited,
    Stopped,
    free_port,
    ignore_stop_signals,
    spawn,
    stop,
    stop_on_signals,
    stop_requested,
    wait_healthy,
)
from sift_fetch.callers import new_token, token_hash
from sift_mcp.text import outcome_lines

LOG_TAIL_LINES = 15
REFUSED_AT_SUBMIT = "http://10.0.0.1/admin"


def demo_targets(site: DemoSite) -> list[dict[str, Any]]:
    return [
        {"url": site.url("/article.html")},
        {"url": site.url("/keepers-log.pdf"), "pages": "2-3"},
        {
            "url": site.url("/stations.json"),
            "jq": '[.stations[] | select(.power == "solar") | .name]',
        },
        {"url": site.url("/article.html"), "question": "When did the last keepers leave?"},
        {"url": site.url("/no-such-page.html")},
        {"url": site.url("/intranet")},
    ]


class DemoFailed(Exception):
    """The demo saw something other than what Sift must do: a bug, said plainly."""


# What each target above must end as; anything else means the demo found a bug.
EXPECTED = [
    ("done", None),
    ("done", None),
    ("done", None),
    ("done", None),
    ("failed", "upstream:"),
    ("failed", "blocked:"),
]


def write_config(tmp: Path, api_port: int, site_port: int, token: str) -> Path:
    path = tmp / "sift.toml"
    path.write_text(
        f"""# Written by `sift demo`; removed when it ends.
[server]
host = "127.0.0.1"
port = {api_port}

[store]
url = "sqlite:///{tmp / "sift.db"}"

[[callers]]
name = "demo"
token_sha256 = "{token_hash(token)}"

# The demo site only: one loopback address and one port.
[guard]
allow_cidrs = ["127.0.0.1/32"]
allow_ports = [{site_port}]
"""
    )
    return path


def demo() -> None:
    """Run a batch end to end against a built-in local site, then stop everything."""
    stop_on_signals()
    tmp = Path(tempfile.mkdtemp(prefix="sift-demo-"))
    children: list[Child] = []
    site: DemoSite | None = None
    code = 0
    try:
        site = DemoSite()
        token = new_token()
        api_port = free_port()
        base = f"http://127.0.0.1:{api_port}"
        config = write_config(tmp, api_port, site.port, token)
        typer.echo(f"sift demo: working in {tmp}")
        args = ["--config", str(config)]
        # Both children count into the config's metrics directory, beside the store in TMP.
        for name, command in (("api", "serve"), ("worker", "worker")):
            with open(tmp / f"{name}.log", "wb") as log:
                children.append(spawn(name, ["sift_cli", command, *args], output=log))
        site.start()
        typer.echo(f"  api    {base} (pid {children[0].proc.pid})")
        typer.echo(f"  worker pid {children[1].proc.pid}")
        typer.echo(f"  site   {site.url('/')} (the guard allows this address and port only)\n")
        wait_healthy(base, children)
        with Client(base, token) as client:
            _run(client, site)
    except Stopped:
        pass  # said below: an interrupt can also have come without its exception
    except (CliError, ChildExited, TimeoutError, DemoFailed) as exc:
        typer.echo(f"sift demo: {getattr(exc, 'message', exc)}", err=True)
        _show_logs(tmp)
        code = REFUSED
    finally:
        ignore_stop_signals()  # the clean-up runs to its end (STOP_GRACE at most)
        stop(children)
        if site is not None:
            site.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    if stop_requested():
        typer.echo("\nsift demo: interrupted", err=True)
        code = INTERRUPTED
    if code == 0:
        typer.echo("\nsift demo: stopped the api and the worker; removed the temporary store")
    raise typer.Exit(code)


def _run(client: Client, site: DemoSite) -> None:
    typer.echo("1. A private address is refused at submit, before anything is stored or sent:")
    try:
        client.call("POST", "/v1/batch", body={"targets": [{"url": REFUSED_AT_SUBMIT}]})
    except CliError as exc:
        typer.echo(f"   POST /v1/batch [{REFUSED_AT_SUBMIT}] -> {exc.message}\n")
    else:
        raise DemoFailed(f"{REFUSED_AT_SUBMIT} was accepted at submit")

    targets = demo_targets(site)
    typer.echo(f"2. A batch of {len(targets)} targets from the demo site:")
    for i, target in enumerate(targets):
        extra = {k: v for k, v in target.items() if k != "url"}
        options = json.dumps(extra, ensure_ascii=False) if extra else ""
        typer.echo(f"   [{i}] {target['url']} {options}".rstrip())
    submitted = client.call("POST", "/v1/batch", body={"targets": targets})
    typer.echo(
        f"   -> 202 job_id {submitted['job_id']}; the worker drains it one target at a time\n"
    )

    summary = wait_for_job(client, submitted["job_id"], timeout=120)
    typer.echo("3. Outcomes (GET /v1/batch/{id}):")
    typer.echo("\n".join(outcome_lines(summary)))
    _check(summary)

    typer.echo("\n4. A few results (GET /v1/batch/{id}/{idx}):")
    for idx, lines in ((0, 12), (1, 8), (2, 8), (3, 6)):
        row = client.call("GET", f"/v1/batch/{submitted['job_id']}/{idx}")
        result = row["result"]
        typer.echo(f"\n--- [{idx}] {result.get('title') or row['url']} ({result['content_type']})")
        content = result["content"].strip().splitlines()
        typer.echo("\n".join(content[:lines]))
        if len(content) > lines:
            typer.echo(f"... ({len(content) - lines} more line(s))")


def _check(summary: dict[str, Any]) -> None:
    if summary["status"] != "partial":
        raise DemoFailed(f"the job ended {summary['status']}, expected partial")
    for row, (status, prefix) in zip(summary["targets"], EXPECTED, strict=True):
        error = row.get("error") or ""
        if row["status"] != status or (prefix and not error.startswith(prefix)):
            raise DemoFailed(f"target {row['idx']} ended {row['status']} {error!r}")
    blocked = summary["targets"][-1]["error"]
    if PRIVATE_ADDRESS not in blocked:
        raise DemoFailed(f"the redirect was refused for another reason: {blocked!r}")


def _show_logs(tmp: Path) -> None:
    for name in ("api", "worker"):
        path = tmp / f"{name}.log"
        if not path.exists():
            continue
        lines = path.read_text(errors="replace").splitlines()[-LOG_TAIL_LINES:]
        if lines:
            typer.echo(f"--- last lines of the {name}'s log:", err=True)
            typer.echo("\n".join(lines), err=True)
