"""Can this process read the store, and write it? What `/healthz` reports.

The read is one row of a table of its own; the write is a real, committed upsert of that row:
a rolled-back write never reaches the disk, so it cannot notice a full one. A committed write
is not enough on SQLite either: with room left in its WAL file and free pages in the database,
SQLite takes a small write on a full disk (and fails the next big one), so the probe also
looks at the free space on the SQLite file's disk.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from sift_store.engine import SQLITE_BUSY_TIMEOUT_MS, Store
from sift_store.meta import metadata
from sift_store.outage import DISK_FULL, is_outage, outage_reason

# One row (id 1), rewritten by every probe.
store_probe = sa.Table(
    "store_probe",
    metadata,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
    sa.Column("at", sa.Double(), nullable=False),
)

# Less free space than this beside the SQLite file is a full disk: a WAL checkpoint or one
# batch result would not fit.
MIN_FREE_BYTES = 8 * 1024 * 1024
# How long the write probe waits for SQLite's write lock; a health check must answer quickly,
# and a writer holding the lock this long is itself the trouble.
PROBE_LOCK_WAIT_MS = 2000


@dataclass(frozen=True)
class StoreHealth:
    """None for what works; otherwise why not, in words safe to show anyone."""

    read: str | None
    write: str | None

    @property
    def ok(self) -> bool:
        return self.read is None and self.write is None


def check_store(store: Store, now: float) -> StoreHealth:
    """Probe the store; an outage is reported, anything else (a bug) raised."""
    return StoreHealth(
        read=_outage(_read, store),
        write=_outage(_write, store, now) or _disk_full(store),
    )


def _outage(fn: Callable[..., Any], *args: Any) -> str | None:
    try:
        fn(*args)
    except Exception as exc:
        if not is_outage(exc):
            raise
        return outage_reason(exc)
    return None


def _read(store: Store) -> None:
    with store.read() as conn:
        conn.execute(sa.select(store_probe.c.at).where(store_probe.c.id == 1)).first()


def _write(store: Store, now: float) -> None:
    insert = postgresql.insert if store.dialect == "postgresql" else sqlite.insert
    upsert = (
        insert(store_probe)
        .values(id=1, at=now)
        .on_conflict_do_update(index_elements=[store_probe.c.id], set_={"at": now})
    )
    with store.engine.connect() as conn:
        # On the driver's connection: through SQLAlchemy the PRAGMA would begin a transaction.
        raw = conn.connection.driver_connection if store.is_sqlite else None
        if raw is not None:
            raw.execute(f"PRAGMA busy_timeout = {PROBE_LOCK_WAIT_MS}")
        try:
            with conn.execution_options(sift_immediate=True).begin():
                conn.execute(upsert)
        finally:
            if raw is not None:
                raw.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")


def _disk_full(store: Store) -> str | None:
    path = store.engine.url.database
    if not store.is_sqlite or not path or path == ":memory:":
        return None
    free = shutil.disk_usage(Path(path).resolve().parent).free
    return DISK_FULL if free < MIN_FREE_BYTES else None
