"""The `sift` command."""

from __future__ import annotations

from typing import Annotated

import typer

from sift_cli.launch import load_or_exit

app = typer.Typer(no_args_is_help=True, add_completion=False, help=__doc__)
token_app = typer.Typer(no_args_is_help=True, help="Manage caller tokens.")
app.add_typer(token_app, name="token")

ConfigOpt = Annotated[
    str | None,
    typer.Option("--config", "-c", envvar="SIFT_CONFIG", help="Path to sift.toml."),
]


@app.command()
def serve(config: ConfigOpt = None) -> None:
    """Run the API server (uvicorn)."""
    import uvicorn

    from sift_api.app import create_app

    cfg = load_or_exit(config)
    uvicorn.run(
        create_app(cfg),
        host=cfg.server.host,
        port=cfg.server.port,
        access_log=False,
        log_level="warning",
    )


@token_app.command("new")
def token_new(
    name: Annotated[str, typer.Argument(help="The caller's name.")],
    cls: Annotated[str, typer.Option("--class", help="standard or restricted.")] = "standard",
) -> None:
    """Print a new bearer token and the [[callers]] lines for the config."""
    from sift_fetch.callers import new_token, token_hash

    if cls not in ("standard", "restricted"):
        typer.echo("sift: --class must be standard or restricted", err=True)
        raise typer.Exit(2)
    secret = new_token()
    typer.echo(f"token: {secret}\n")
    typer.echo(f'[[callers]]\nname = "{name}"\ntoken_sha256 = "{token_hash(secret)}"\nclass = "{cls}"')
