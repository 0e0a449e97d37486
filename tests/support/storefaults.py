"""Real store trouble: SQLite locked by another writer or out of room, PostgreSQL read-only as
a standby is, and a real disk that fills up. (PostgreSQL out of reach: `tcpproxy`.)

The first three work on a running app's own engine through a pool `checkout` listener, so every
connection the app takes meets the trouble, and end by dropping the pooled connections, so none
keeps it afterwards.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from sift_store.engine import Store

OnCheckout = Callable[[Any], None]


@contextmanager
def _on_checkout(store: Store, fn: OnCheckout) -> Iterator[None]:
    def listener(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
        fn(dbapi_conn)

    event.listen(store.engine, "checkout", listener)
    try:
        yield
    finally:
        event.remove(store.engine, "checkout", listener)
        store.engine.dispose()


@contextmanager
def sqlite_locked(store: Store, wait_ms: int = 200) -> Iterator[None]:
    """Another connection holds the write lock; STORE's writers give up after WAIT_MS (the
    store's own 10 s would only slow the test down), its readers go on (WAL)."""
    path = store.engine.url.database
    assert store.is_sqlite and path
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with _on_checkout(store, lambda c: c.execute(f"PRAGMA busy_timeout = {wait_ms}")):
            yield
    finally:
        holder.rollback()
        holder.close()


@contextmanager
def sqlite_full(store: Store) -> Iterator[None]:
    """No page beyond the file's current size: a full disk as SQLite sees it. A write that
    needs new pages fails; one that fits in the pages it has still succeeds."""
    path = store.engine.url.database
    assert store.is_sqlite and path
    with sqlite3.connect(path) as conn:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    with _on_checkout(store, lambda c: c.execute(f"PRAGMA max_page_count = {pages}")):
        yield


@contextmanager
def postgresql_read_only(store: Store) -> Iterator[None]:
    """Every transaction STORE begins is read-only, as on a standby: writes fail (25006)."""
    assert not store.is_sqlite

    def read_only(conn: Any) -> None:
        conn.read_only = True

    with _on_checkout(store, read_only):
        yield


@contextmanager
def small_disk(where: Path, size_mib: int = 16) -> Iterator[Path]:
    """A real file system of SIZE_MIB mounted at WHERE (a tmpfs), for a disk that really fills
    up. Mounting needs root: the test is skipped, saying so, where the suite runs without it."""
    if os.geteuid() != 0:
        pytest.skip("a real full disk needs a tmpfs mount, which needs root")
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_mib}m", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        # Lazy: the app under test may still hold the store's files open.
        subprocess.run(["umount", "-l", str(where)], check=True)


def fill(disk: Path) -> None:
    """Write a file on DISK until the file system has no byte left."""
    chunk = b"\0" * 65536
    with open(disk / "filler", "wb", buffering=0) as out:
        for size in (65536, 4096, 1):
            try:
                while True:
                    out.write(chunk[:size])
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
