"""Options several commands share, declared once so their names and help never drift apart."""

from __future__ import annotations

from typing import Annotated

import typer

ConfigOpt = Annotated[
    str | None,
    typer.Option("--config", "-c", envvar="SIFT_CONFIG", help="Path to sift.toml."),
]
UrlOpt = Annotated[
    str | None,
    typer.Option(
        "--url",
        envvar="SIFT_URL",
        help="The Sift server (default http://127.0.0.1:8080).",
        show_default=False,
    ),
]
TokenOpt = Annotated[
    str | None,
    typer.Option("--token", envvar="SIFT_TOKEN", help="Bearer token.", show_default=False),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the whole JSON body.")]
TimeoutOpt = Annotated[
    float,
    typer.Option("--timeout", min=0, help="Give up waiting after S seconds (0: never)."),
]
