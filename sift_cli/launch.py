"""Shared start-up for the launchers: load the config, say where the store is, warn loudly,
and point the metrics at the directory every process of the config shares."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import structlog
import typer

from sift_fetch.config import Config, ConfigError, load_config
from sift_fetch.logs import configure_logging


def load_or_exit(path: str | None, *, announce: bool = True) -> Config:
    """The config, or exit 2 naming the bad key. `announce=False` for a launcher whose
    children will announce the same things themselves."""
    try:
        config = load_config(path)
    except ConfigError as exc:
        typer.echo(f"sift: config: {exc}", err=True)
        raise typer.Exit(2) from None
    configure_logging()
    if not announce:
        return config
    log = structlog.get_logger("sift")
    if config.guard.allow_cidrs or config.guard.allow_ports:
        # These open holes in the SSRF guard; they exist for tests and local demos only.
        log.warning(
            "guard.allowance",
            allow_cidrs=config.guard.allow_cidrs,
            allow_ports=config.guard.allow_ports,
            message="GUARD ESCAPE HATCH ENABLED: never run production like this",
        )
    if not config.store.url:
        typer.echo(f"sift: using the embedded store {config.store_url}", err=True)
    if not config.callers:
        typer.echo("sift: no [[callers]] configured: every request will be 401", err=True)
    return config


def share_metrics(config: Config) -> Path:
    """Have this process write its counters where every process of CONFIG on this host does
    (`config.metrics_dir`; PROMETHEUS_MULTIPROC_DIR, when set, wins), so the API's /metrics
    shows the worker's series too. prometheus-client reads the variable once, on import:
    call this before anything imports it."""
    if "prometheus_client" in sys.modules:
        raise RuntimeError("share_metrics() must run before prometheus_client is imported")
    path = Path(os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(config.metrics_dir)))
    path.mkdir(parents=True, exist_ok=True)
    return path
