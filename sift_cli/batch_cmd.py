"""`sift batch …`: submit a list of targets, follow the job, collect its results, cancel, retry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from sift_cli.client import Client
from sift_cli.exits import REFUSED, CliError
from sift_cli.fetch_cmd import print_content
from sift_cli.jobwait import FINISHED, exit_code, wait_for_job
from sift_cli.options import JsonOpt, TimeoutOpt, TokenOpt, UrlOpt
from sift_cli.targets_file import parse_targets, read_source
from sift_mcp.text import outcome_lines

batch_app = typer.Typer(
    no_args_is_help=True,
    help="Fetch a list of targets in the background and collect the results later.",
)

JobId = Annotated[
    str, typer.Argument(metavar="ID", help="The job id that `sift batch submit` printed.")
]
WaitOpt = Annotated[
    bool, typer.Option("--wait", help="Then wait for the job, with a progress bar on stderr.")
]


def _echo_json(body: Any) -> None:
    typer.echo(json.dumps(body, indent=2, ensure_ascii=False))


def _submitted(body: dict[str, Any], *, as_json: bool) -> None:
    if as_json:
        _echo_json(body)
    else:
        typer.echo(f"job_id: {body['job_id']}\nreused: {str(body['reused']).lower()}")


def _follow(client: Client, job_id: str, timeout: float, *, as_json: bool) -> None:
    summary = wait_for_job(client, job_id, timeout=timeout)
    if as_json:
        _echo_json(summary)
    else:
        typer.echo("\n".join(outcome_lines(summary)))
    raise typer.Exit(exit_code(summary))


@batch_app.command()
def submit(
    source: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help='A JSON list of targets, {"targets": [...]}, or one URL per line; - for stdin.',
        ),
    ],
    wait: WaitOpt = False,
    timeout: TimeoutOpt = 0.0,
    as_json: JsonOpt = False,
    url: UrlOpt = None,
    token: TokenOpt = None,
) -> None:
    """Submit targets as one batch job; prints job_id and reused."""
    label = "stdin" if source == "-" else source
    targets = parse_targets(read_source(source), label)
    with Client(url, token) as client:
        body = client.call("POST", "/v1/batch", body={"targets": targets})
        if not (as_json and wait):  # with both, the final summary is the one JSON printed
            _submitted(body, as_json=as_json)
        if wait:
            _follow(client, body["job_id"], timeout, as_json=as_json)


@batch_app.command()
def status(job_id: JobId, url: UrlOpt = None, token: TokenOpt = None) -> None:
    """Print the job's full status body (JSON)."""
    with Client(url, token) as client:
        _echo_json(client.call("GET", f"/v1/batch/{job_id}"))


@batch_app.command("wait")
def wait_cmd(
    job_id: JobId,
    timeout: TimeoutOpt = 0.0,
    as_json: JsonOpt = False,
    url: UrlOpt = None,
    token: TokenOpt = None,
) -> None:
    """Block until the job is finished (progress bar on stderr), then print each outcome.

    Exit 0 when every target succeeded, 4 when the job ended failed, partial or cancelled,
    5 when --timeout ran out first."""
    with Client(url, token) as client:
        _follow(client, job_id, timeout, as_json=as_json)


@batch_app.command()
def result(
    job_id: JobId,
    idx: Annotated[
        int | None, typer.Argument(metavar="IDX", min=0, help="One target's index.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", metavar="DIR", help="Write every result to DIR/<idx>.json instead."
        ),
    ] = None,
    as_json: JsonOpt = False,
    url: UrlOpt = None,
    token: TokenOpt = None,
) -> None:
    """Print one target's content (IDX), or every result (JSON), or write them to -o DIR."""
    if idx is not None and out is not None:
        raise CliError("give IDX or --out, not both", 2)
    with Client(url, token) as client:
        if idx is not None:
            _one_result(client.call("GET", f"/v1/batch/{job_id}/{idx}"), as_json=as_json)
            return
        body = client.call("GET", f"/v1/batch/{job_id}", params={"results": "1"})
    if out is None:
        _echo_json(body)
        return
    _write_results(body, out)


def _one_result(row: dict[str, Any], *, as_json: bool) -> None:
    if as_json:
        _echo_json(row)
    if row["status"] in ("pending", "running"):
        raise CliError(f"target {row['idx']} is {row['status']}: no result yet", REFUSED, row)
    envelope = row.get("result") or {}
    if row["status"] == "failed":
        hint = f" (hint: {row['hint']})" if row.get("hint") else ""
        raise CliError(f"target {row['idx']} failed: {row.get('error')}{hint}", REFUSED, row)
    if not as_json:
        print_content(envelope, row.get("options") or {})


def _write_results(body: dict[str, Any], out: Path) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"cannot create {out}: {exc.strerror}", 2) from None
    width = len(str(max(len(body["targets"]) - 1, 0)))
    for row in body["targets"]:
        if row["status"] not in ("done", "failed"):
            typer.echo(f"[{row['idx']}] {row['status']}: nothing written", err=True)
            continue
        path = out / f"{row['idx']:0{width}d}.json"
        path.write_text(json.dumps(row, indent=2, ensure_ascii=False) + "\n")
        typer.echo(str(path))


@batch_app.command("cancel")
def cancel_cmd(job_id: JobId, url: UrlOpt = None, token: TokenOpt = None) -> None:
    """Cancel a queued or running job: the target in flight finishes, the rest stay pending."""
    with Client(url, token) as client:
        body = client.call("DELETE", f"/v1/batch/{job_id}")
    typer.echo(body["status"])


@batch_app.command()
def retry(
    job_id: JobId,
    wait: WaitOpt = False,
    timeout: TimeoutOpt = 0.0,
    as_json: JsonOpt = False,
    url: UrlOpt = None,
    token: TokenOpt = None,
) -> None:
    """Submit the failed, retryable targets of a finished job as a new job."""
    with Client(url, token) as client:
        summary = client.call("GET", f"/v1/batch/{job_id}")
        if summary["status"] not in FINISHED:
            raise CliError(f"job {job_id} is {summary['status']}: wait for it first", REFUSED)
        targets = [
            {"url": row["url"], **row.get("options", {})}
            for row in summary["targets"]
            if row["status"] == "failed" and row.get("retryable")
        ]
        if not targets:
            typer.echo(f"job {job_id}: no failed target worth retrying", err=True)
            return
        typer.echo(f"retrying {len(targets)} target(s) of job {job_id}", err=True)
        body = client.call("POST", "/v1/batch", body={"targets": targets})
        if not (as_json and wait):  # with both, the final summary is the one JSON printed
            _submitted(body, as_json=as_json)
        if wait:
            _follow(client, body["job_id"], timeout, as_json=as_json)
