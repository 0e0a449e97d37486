"""structlog set-up: one JSON object per line on stderr, stable event names.

Redaction lives where the fields are chosen (`request_fields`), not in a processor that
would have to guess which values are sensitive.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, BinaryIO

import orjson
import structlog

from sift_fetch.callers import Caller


def configure_logging(level: int = logging.INFO, stream: BinaryIO | None = None) -> None:
    """Log to STREAM (bytes; standard error by default). Lines are rendered by orjson and
    written as bytes: every request logs one, and json.dumps with a text stream cost twice as
    much (18.5 against 9.8 µs a line)."""
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(serializer=orjson.dumps, option=orjson.OPT_SORT_KEYS),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.BytesLoggerFactory(stream or sys.stderr.buffer),
        cache_logger_on_first_use=False,
    )


def caller_fields(caller: Caller | None) -> dict[str, Any]:
    """A restricted caller is logged by class only: its name identifies it."""
    if caller is None:
        return {}
    if caller.restricted:
        return {"caller_class": caller.cls}
    return {"caller": caller.name, "caller_class": caller.cls}


def detail_fields(caller: Caller | None, host: str | None, error: str | None) -> dict[str, Any]:
    """Host and error detail, for callers whose usage need not be redacted."""
    if caller is not None and caller.restricted:
        return {}
    fields: dict[str, Any] = {}
    if host:
        fields["host"] = host
    if error:
        fields["error"] = error
    return fields
