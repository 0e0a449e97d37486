"""The store probe behind /healthz, on real trouble: a committed write that a lock, a read-only
PostgreSQL, an unreachable one and a really full disk each make fail, and a read that fails only
when the store is out of reach."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from sift_store import health
from sift_store.engine import Store, open_store
from sift_store.health import StoreHealth, check_store, store_probe
from sift_store.migrate import migrate
from sift_store.outage import DISK_FULL, UNREACHABLE
from tests.support.storefaults import fill, postgresql_read_only, small_disk, sqlite_locked
from tests.support.tcpproxy import TcpProxy

LOCKED = "the store is locked by another writer"


def test_a_healthy_store_commits_the_probe_row(store: Store) -> None:
    now = time.time()
    assert check_store(store, now) == StoreHealth(read=None, write=None)
    with store.read() as conn:
        assert conn.execute(sa.select(store_probe.c.at)).scalar_one() == now
    later = now + 1
    assert check_store(store, later).ok
    with store.read() as conn:
        assert conn.execute(sa.select(store_probe.c.at)).scalar_one() == later


def test_a_locked_sqlite_store_reads_but_cannot_be_written(sqlite_store: Store) -> None:
    with sqlite_locked(sqlite_store):
        assert check_store(sqlite_store, time.time()) == StoreHealth(read=None, write=LOCKED)
    assert check_store(sqlite_store, time.time()).ok


def test_a_read_only_postgresql_reads_but_cannot_be_written(pg_url: str) -> None:
    store = open_store(pg_url)
    try:
        migrate(store)
        with postgresql_read_only(store):
            health_now = check_store(store, time.time())
        assert health_now == StoreHealth(read=None, write="the store is read-only")
        assert check_store(store, time.time()).ok
    finally:
        store.dispose()


def test_an_unreachable_postgresql_can_be_neither_read_nor_written(pg_url: str) -> None:
    proxy = TcpProxy(5432)
    store = open_store(proxy.url_for(pg_url))
    try:
        migrate(store)
        with proxy.outage():
            health_now = check_store(store, time.time())
        assert health_now == StoreHealth(read=UNREACHABLE, write=UNREACHABLE)
        assert check_store(store, time.time()).ok
    finally:
        store.dispose()
        proxy.close()


def test_a_really_full_disk_fails_the_probe_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with small_disk(tmp_path / "disk") as disk:
        path = disk / "sift.db"
        store = open_store(f"sqlite:///{path}")
        try:
            migrate(store)
            fill(disk)
            # The committed write alone notices a full disk when the WAL file must grow...
            monkeypatch.setattr(health, "MIN_FREE_BYTES", 0)
            assert check_store(store, time.time()) == StoreHealth(read=None, write=DISK_FULL)
            # ...but not once a checkpoint has emptied the WAL: SQLite then rewrites the file
            # from its start and needs no new block, so the small write succeeds.
            (disk / "filler").unlink()
            with sqlite3.connect(path) as conn:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            fill(disk)
            assert check_store(store, time.time()).ok
            # The free space left beside the file shows the full disk then.
            monkeypatch.undo()
            assert check_store(store, time.time()) == StoreHealth(read=None, write=DISK_FULL)
        finally:
            store.dispose()
