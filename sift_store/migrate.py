"""Bring the schema to the newest Alembic revision, safely from any number of starting processes.

Every process runs `migrate()` on start, so two may race on a fresh database. Alembic has no lock
of its own; ours: an exclusive `flock` on a file next to the SQLite database (taken before the
first connection, so even switching the new file to WAL is serialised), or a session-level
`pg_advisory_lock` on PostgreSQL. The loser waits, then finds the schema at head and does nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, func, select

from sift_store.engine import Store

try:
    import fcntl
except ImportError:  # Windows: BEGIN IMMEDIATE around the upgrade still serialises writers.
    fcntl = None  # type: ignore[assignment]

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
# Any fixed number will do, as long as every Sift version uses the same one.
PG_MIGRATE_LOCK_KEY = int.from_bytes(b"sift:mig", "big")


def alembic_config(conn: Connection | None = None) -> Config:
    """An Alembic config built in code (no alembic.ini) that runs on CONN; tests use it to
    downgrade or to read the head revision, and so can an operator from a Python shell."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("path_separator", "os")
    if conn is not None:
        cfg.attributes["connection"] = conn
    return cfg


def migrate(store: Store) -> None:
    """Apply every pending migration (a no-op at head). Blocks while another process migrates."""
    with _file_lock(store), store.engine.connect() as conn:
        # Alembic's own transaction then begins IMMEDIATE on SQLite: it holds the write lock from
        # the first statement instead of failing to upgrade a read lock under a running server.
        conn.execution_options(sift_immediate=True)
        with _foreign_keys_off(store, conn), _pg_lock(store, conn):
            command.upgrade(alembic_config(conn), "head")


@contextmanager
def _file_lock(store: Store) -> Iterator[None]:
    db = store.engine.url.database
    if not store.is_sqlite or not db or db == ":memory:" or fcntl is None:
        yield
        return
    path = Path(db).resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    # Never unlinked: deleting a lock file lets a third process lock a fresh inode.
    with open(path.with_name(path.name + ".migrate-lock"), "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@contextmanager
def _pg_lock(store: Store, conn: Connection) -> Iterator[None]:
    if store.is_sqlite:
        yield
        return
    # Session-level, not transaction-level: a later migration may need to commit part-way
    # (autocommit_block for CREATE INDEX CONCURRENTLY) and must stay under the lock.
    conn.execute(select(func.pg_advisory_lock(PG_MIGRATE_LOCK_KEY)))
    conn.commit()
    try:
        yield
    finally:
        if conn.in_transaction():
            conn.rollback()
        conn.execute(select(func.pg_advisory_unlock(PG_MIGRATE_LOCK_KEY)))
        conn.commit()


@contextmanager
def _foreign_keys_off(store: Store, conn: Connection) -> Iterator[None]:
    """SQLite rebuilds a table to alter it (Alembic batch mode); with foreign keys on, dropping
    the old copy would cascade into its children. SQLite's documented procedure: keys off outside
    the transaction, `PRAGMA foreign_key_check` before commit (env.py does that), keys back on."""
    if not store.is_sqlite:
        yield
        return
    # The raw driver connection: through SQLAlchemy the PRAGMA would open a transaction first,
    # and inside one SQLite ignores it.
    raw = conn.connection.driver_connection
    raw.execute("PRAGMA foreign_keys=OFF")  # type: ignore[union-attr]
    try:
        yield
    finally:
        raw.execute("PRAGMA foreign_keys=ON")  # type: ignore[union-attr]
