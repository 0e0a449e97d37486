"""`sift fetch URL`: one target, now; prints what was asked for (or the whole envelope)."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any

import typer

from sift_cli.client import Client
from sift_cli.exits import CliError
from sift_cli.options import JsonOpt, TokenOpt, UrlOpt
from sift_mcp.text import headline


def print_content(envelope: dict[str, Any], options: dict[str, Any]) -> None:
    """The content as the document has it (a page's clean text under its headline), ending in
    exactly one newline."""
    content = str(envelope.get("content", ""))
    if heading := headline(envelope, options):
        typer.echo(f"{heading}\n")
    typer.echo(content, nl=not content.endswith("\n"))


class Mode(StrEnum):
    clean = "clean"
    full = "full"
    raw = "raw"


def fetch(
    target_url: Annotated[str, typer.Argument(metavar="URL", help="The page, PDF or document.")],
    mode: Annotated[Mode, typer.Option(help="HTML: main content, all text, or the body.")] = (
        Mode.clean
    ),
    question: Annotated[
        str | None, typer.Option(help="Keep only the passages that answer this.")
    ] = None,
    pages: Annotated[str | None, typer.Option(help='PDF pages, like "1-3,7".')] = None,
    grep: Annotated[str | None, typer.Option(help="Keep the lines matching this regex.")] = None,
    jq: Annotated[str | None, typer.Option(help="A jq program for a JSON document.")] = None,
    context: Annotated[
        bool, typer.Option("--context", help="Add title, author, date, outline, links.")
    ] = False,
    recover: Annotated[
        bool, typer.Option("--recover", help="Ask the web archive if the page is gone.")
    ] = False,
    as_json: JsonOpt = False,
    url: UrlOpt = None,
    token: TokenOpt = None,
) -> None:
    """Fetch one URL and print its content."""
    body: dict[str, Any] = {"url": target_url, "mode": mode.value}
    optional = {"question": question, "pages": pages, "grep": grep, "jq": jq}
    body.update({k: v for k, v in optional.items() if v is not None})
    if context:
        body["context"] = True
    if recover:
        body["recover"] = True
    with Client(url, token) as client:
        try:
            envelope = client.call("POST", "/v1/fetch", body=body)
        except CliError as exc:
            if as_json and exc.body is not None:
                typer.echo(json.dumps(exc.body, indent=2, ensure_ascii=False))
            raise
    if as_json:
        typer.echo(json.dumps(envelope, indent=2, ensure_ascii=False))
        return
    print_content(envelope, body)
    if envelope.get("truncated"):
        typer.echo(f"sift: content truncated (hint: {envelope.get('hint')})", err=True)
