"""The outage classifier on real failures: a full SQLite disk, a locked SQLite file, a PostgreSQL
that refuses connections, and a real bug that must not be taken for an outage; and a pooled
PostgreSQL connection the server closed, which is replaced before any statement fails on it."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from sift_store.engine import Store, open_store
from sift_store.outage import is_outage, outage_reason
from sift_store.prepared import Prepared
from tests.conftest import PG_URL
from tests.support.tcpproxy import TcpProxy

# The connection's server process, on the driver's cursor as a fetch's statements run.
_PID = Prepared(sa.select(sa.func.pg_backend_pid()))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_full_sqlite_disk_is_an_outage(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'full.db'}")
    with store.write() as conn:
        conn.exec_driver_sql("CREATE TABLE t (v TEXT)")
    with pytest.raises(sa.exc.OperationalError) as caught, store.write() as conn:
        conn.exec_driver_sql("PRAGMA max_page_count = 1")
        conn.exec_driver_sql("INSERT INTO t VALUES (?)", ("x" * 100_000,))
    assert is_outage(caught.value)
    assert outage_reason(caught.value) == "the store's disk is full"
    store.dispose()


def test_locked_sqlite_is_an_outage(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (v)")
    holder.execute("BEGIN IMMEDIATE")
    store = open_store(f"sqlite:///{path}")
    try:
        with pytest.raises(sa.exc.OperationalError) as caught, store.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA busy_timeout = 50")
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        assert is_outage(caught.value)
        assert outage_reason(caught.value) == "the store is locked by another writer"
    finally:
        holder.close()
        store.dispose()


@pytest.mark.skipif(not PG_URL, reason="SIFT_TEST_PG_URL is not set")
def test_postgresql_syntax_error_is_not_an_outage() -> None:
    store = open_store(PG_URL)
    with pytest.raises(sa.exc.DBAPIError) as caught, store.read() as conn:
        conn.exec_driver_sql("SELEC 1")
    assert not is_outage(caught.value)
    store.dispose()


def test_unreachable_postgresql_is_an_outage() -> None:
    # Nothing listens on this loopback port: the connection is refused at once.
    store = open_store(f"postgresql://postgres@127.0.0.1:{_free_port()}/test?connect_timeout=2")
    with pytest.raises(sa.exc.OperationalError) as caught, store.read() as conn:
        conn.exec_driver_sql("SELECT 1")
    assert is_outage(caught.value)
    assert outage_reason(caught.value) == "the store cannot be reached"
    store.dispose()


def test_a_bug_is_not_an_outage(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'bug.db'}")
    with pytest.raises(sa.exc.DBAPIError) as caught, store.read() as conn:
        conn.exec_driver_sql("SELECT * FROM no_such_table")
    # SQLite reports a missing table as an OperationalError too: its code tells them apart.
    assert isinstance(caught.value, sa.exc.OperationalError)
    assert not is_outage(caught.value)
    store.dispose()


@pytest.mark.skipif(not PG_URL, reason="SIFT_TEST_PG_URL is not set")
def test_postgresql_behind_a_cut_proxy_is_an_outage_then_recovers() -> None:
    proxy = TcpProxy(5432)
    store = open_store(proxy.url_for(PG_URL))
    try:
        with store.read() as conn:
            assert conn.exec_driver_sql("SELECT 1").scalar_one() == 1
        with proxy.outage():
            with pytest.raises(sa.exc.DBAPIError) as caught, store.read() as conn:
                conn.exec_driver_sql("SELECT 1")
            assert is_outage(caught.value)
        # The dead connection is replaced at the next checkout: no restart of ours is needed.
        with store.read() as conn:
            assert conn.exec_driver_sql("SELECT 1").scalar_one() == 1
    finally:
        store.dispose()
        proxy.close()


def _backend_pid(store: Store) -> int:
    with store.write(each_alone=True) as conn:
        return int(_PID.first(conn)[0])


@pytest.mark.skipif(not PG_URL, reason="SIFT_TEST_PG_URL is not set")
def test_a_pooled_connection_the_server_ended_is_replaced_before_it_is_used() -> None:
    store, admin = open_store(PG_URL), open_store(PG_URL)
    try:
        pooled = _backend_pid(store)
        with admin.read() as conn:  # as a restart ends it, while it sits in the pool
            conn.exec_driver_sql(f"SELECT pg_terminate_backend({pooled}, 10000)")
        # No statement fails on it: the checkout saw it closed and opened another.
        assert _backend_pid(store) != pooled
    finally:
        store.dispose()
        admin.dispose()


@pytest.mark.skipif(not PG_URL, reason="SIFT_TEST_PG_URL is not set")
def test_postgresql_away_between_requests_costs_none_of_them_an_error() -> None:
    proxy = TcpProxy(5432)
    store = open_store(proxy.url_for(PG_URL))
    try:
        pooled = _backend_pid(store)
        with proxy.outage():  # every connection dropped (reset), as a blip or a restart does
            pass
        assert _backend_pid(store) != pooled
        assert proxy.accepted == 2
    finally:
        store.dispose()
        proxy.close()
