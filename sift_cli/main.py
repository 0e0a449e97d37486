"""The `sift` command: client verbs (fetch, batch …) and launchers (serve, worker, up, demo).

Exit codes: 0 ok, 1 request refused, 2 usage, 3 server unreachable, 4 job failed/partial/
cancelled (`wait`), 5 still running when `--timeout` ran out. Errors are one plain line on
stderr, never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from sift_cli import exits
from sift_cli.batch_cmd import batch_app
from sift_cli.demo import demo
from sift_cli.fetch_cmd import fetch
from sift_cli.launchers import serve, up, worker
from sift_cli.mcp_cmd import mcp_cmd


class SiftApp(typer.Typer):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        sys.exit(run(sys.argv[1:]))


app = SiftApp(
    no_args_is_help=True,
    add_completion=False,
    help=__doc__,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)
token_app = typer.Typer(no_args_is_help=True, help="Manage caller tokens.")
app.command()(fetch)
app.add_typer(batch_app, name="batch")
app.add_typer(token_app, name="token")
app.command("mcp")(mcp_cmd)
app.command()(serve)
app.command()(worker)
app.command()(up)
app.command()(demo)


@token_app.command("new")
def token_new(
    name: Annotated[str, typer.Argument(help="The caller's name.")],
    cls: Annotated[str, typer.Option("--class", help="standard or restricted.")] = "standard",
) -> None:
    """Print a new bearer token and the [[callers]] lines for the config."""
    from sift_fetch.callers import new_token, token_hash

    if cls not in ("standard", "restricted"):
        raise exits.CliError("--class must be standard or restricted", exits.USAGE)
    secret = new_token()
    typer.echo(f"token: {secret}\n")
    typer.echo(
        f'[[callers]]\nname = "{name}"\ntoken_sha256 = "{token_hash(secret)}"\nclass = "{cls}"'
    )


def run(argv: Sequence[str]) -> int:
    """Run the command line ARGV and return the exit code; every error becomes one line."""
    command = typer.main.get_command(app)
    try:
        result = command.main(list(argv), prog_name="sift", standalone_mode=False)
    except exits.CliError as exc:
        typer.echo(f"sift: {exc.message}", err=True)
        return exc.code
    except typer.Exit as exc:
        return exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("sift: interrupted", err=True)
        return exits.INTERRUPTED
    except BrokenPipeError:
        return exits.OK
    except Exception as exc:  # the promise is: never a traceback
        if _is_usage_error(exc):
            return _usage(exc)
        typer.echo(f"sift: internal error: {type(exc).__name__}: {exc}", err=True)
        return exits.REFUSED
    return result if isinstance(result, int) else exits.OK


def _is_usage_error(exc: Exception) -> bool:
    # Typer raises its own copy of click's exceptions (or click's, in older versions): both
    # carry `exit_code` and `format_message`.
    return hasattr(exc, "exit_code") and hasattr(exc, "format_message")


def _usage(exc: Any) -> int:
    ctx = getattr(exc, "ctx", None)
    if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
        typer.echo(ctx.get_help())  # a bare group: its help, as `--help` would print it
        return exits.USAGE
    where = ctx.command_path if ctx is not None else "sift"
    # One line and where to look, instead of click's usage block.
    typer.echo(f"sift: {exc.format_message()} (see '{where} --help')", err=True)
    return int(exc.exit_code)
