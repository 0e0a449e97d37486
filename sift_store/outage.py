"""Which store failures mean "the database is away for now" (a restart, a dropped connection, a
full disk, a lock held past the busy timeout) rather than a bug, and a short reason for each that
names no file, host or statement.

Callers retry these (the worker) or answer them as `unavailable` (the API); anything else, a
schema or SQL error included, is a defect and stays an exception.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import structlog
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from sift_store.engine import Store

log = structlog.get_logger("sift.store")

DISK_FULL = "the store's disk is full"
UNREACHABLE = "the store cannot be reached"
# SQLite result codes (and their extended forms, which share the prefix) that come and go.
_SQLITE_TRANSIENT = {
    "SQLITE_FULL": DISK_FULL,
    "SQLITE_BUSY": "the store is locked by another writer",
    "SQLITE_LOCKED": "the store is locked by another writer",
    "SQLITE_READONLY": "the store is read-only",
    "SQLITE_IOERR": "the store's disk failed",
    "SQLITE_CANTOPEN": "the store cannot be opened",
    "SQLITE_NOMEM": "the store is out of memory",
}
# PostgreSQL SQLSTATE classes: connection exception, insufficient resources, operator
# intervention (shutdown, restart, cancel), system error.
_PG_TRANSIENT = {
    "08": UNREACHABLE,
    "53": "the store is out of resources",
    "57": "the store is restarting",
    "58": "the store's disk failed",
}
# Single SQLSTATEs: a write on a server that is read-only for now (a standby during a failover,
# a database an operator froze), and the one resource shortage worth naming.
_PG_TRANSIENT_CODES = {
    "25006": "the store is read-only",
    "53100": DISK_FULL,
}


def _classify(exc: BaseException) -> str | None:
    if isinstance(exc, PoolTimeout):
        return "no store connection is free"
    if isinstance(exc, DisconnectionError):
        return UNREACHABLE
    if not isinstance(exc, DBAPIError):
        return None
    orig = exc.orig
    sqlite_name = getattr(orig, "sqlite_errorname", None)
    if isinstance(sqlite_name, str):
        base = sqlite_name.split("_")[:2]
        return _SQLITE_TRANSIENT.get("_".join(base))
    sqlstate = getattr(orig, "sqlstate", None)
    if isinstance(sqlstate, str) and sqlstate:
        return _PG_TRANSIENT_CODES.get(sqlstate) or _PG_TRANSIENT.get(sqlstate[:2])
    if exc.connection_invalidated or isinstance(exc, OperationalError | InterfaceError):
        # No code at all: the driver failed to connect or lost the connection.
        return UNREACHABLE
    return None


def is_outage(exc: BaseException) -> bool:
    return _classify(exc) is not None


def outage_reason(exc: BaseException) -> str:
    """What kind of outage, in words safe to show any caller."""
    return _classify(exc) or UNREACHABLE


async def best_effort(store: Store, event: str, fn: Callable[..., object], /, *args: Any) -> bool:
    """Run a store write that may be lost to an outage without losing anything lasting (a slot
    release, whose lease lapses anyway; a cache entry): an outage is logged as EVENT and False
    returned, not raised. Shielded, so a cancelled request still gives its slot back."""
    with anyio.CancelScope(shield=True):
        try:
            await store.run_write(fn, *args)
        except Exception as exc:
            if not is_outage(exc):
                raise
            log.warning(event, reason=outage_reason(exc))
            return False
    return True
