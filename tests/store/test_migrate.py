"""Migrations: fresh database to head, idempotent, race-safe, in the URL's PostgreSQL schema."""

from __future__ import annotations

import importlib
import sqlite3

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from sift_store.cache import cache_bytes, cache_get, cache_put
from sift_store.engine import SQLITE_BUSY_TIMEOUT_MS, Store, open_store
from sift_store.migrate import alembic_config, migrate
from tests.store._procs import migrate_proc, run_spawned

CORE_TABLES = {"gate_slot", "fetch_cache", "fetch_cache_total"}
TABLE_MODULES = ("sift_store.gates", "sift_store.cache", "sift_store.health")


def _head() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def _version(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def _tables(conn: Connection) -> set[str]:
    return set(sa.inspect(conn).get_table_names())


def test_fresh_database_reaches_head_and_rerun_is_a_no_op(db_url: str) -> None:
    store = open_store(db_url)
    try:
        with store.read() as conn:
            assert _version(conn) is None
        migrate(store)
        migrate(store)
        with store.read() as conn:
            assert _version(conn) == _head()
            assert CORE_TABLES | {"alembic_version"} <= _tables(conn)
            assert conn.execute(sa.text("SELECT count(*) FROM fetch_cache_total")).scalar() == 1
    finally:
        store.dispose()


def test_everything_lands_in_the_search_path_schema(store: Store) -> None:
    if store.is_sqlite:
        return
    with store.read() as conn:
        schema = conn.execute(sa.text("SELECT current_schema()")).scalar_one()
        assert schema.startswith("t_")  # the fixture's own schema, not public
        # Other schemas of the shared test database may hold Sift tables too: look only at
        # where each of ours resolves through the search_path.
        for table in (*CORE_TABLES, "alembic_version"):
            where = conn.execute(
                sa.text(
                    "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                    " WHERE c.oid = to_regclass(:t)"
                ),
                {"t": table},
            ).scalar_one()
            assert where == schema, table


def test_sqlite_file_is_wal_with_busy_timeout(sqlite_store: Store) -> None:
    path = sqlite_store.engine.url.database
    assert path is not None
    raw = sqlite3.connect(path)
    try:
        # WAL is a property of the file: a plain connection that set nothing sees it.
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        raw.close()
    with sqlite_store.read() as conn:
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == SQLITE_BUSY_TIMEOUT_MS
        # migrate() turns foreign keys off while it runs; the pooled connection gets them back.
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        # 2 is FAST: freed pages are not written again just to zero them, whatever the build.
        assert conn.exec_driver_sql("PRAGMA secure_delete").scalar() == 2


def test_processes_migrating_one_fresh_database_at_once_all_succeed(db_url: str) -> None:
    assert run_spawned(migrate_proc, [(db_url,)] * 3) == ["ok"] * 3
    store = open_store(db_url)
    try:
        with store.read() as conn:
            assert _version(conn) == _head()
            assert conn.execute(sa.text("SELECT count(*) FROM fetch_cache_total")).scalar() == 1
    finally:
        store.dispose()


def test_downgrade_to_base_then_up_again(store: Store) -> None:
    with store.engine.connect() as conn:
        command.downgrade(alembic_config(conn), "base")
        conn.commit()
        assert not _tables(conn) & CORE_TABLES
    migrate(store)
    with store.read() as conn:
        assert _version(conn) == _head()
        assert _tables(conn) >= CORE_TABLES


def test_migrations_match_the_table_definitions(store: Store) -> None:
    # A hand-written migration that drifts from its Table object fails here. Add a table
    # module to TABLE_MODULES when its migration lands.
    wanted = sa.MetaData()
    for name in TABLE_MODULES:
        module = importlib.import_module(name)
        for table in vars(module).values():
            if isinstance(table, sa.Table):
                table.to_metadata(wanted)

    def ours(name: str | None, type_: str, _parents: object) -> bool:
        return type_ != "table" or name in wanted.tables

    with store.read() as conn:
        context = MigrationContext.configure(conn, opts={"include_name": ours})
        assert compare_metadata(context, wanted) == []


def test_the_cache_comes_through_its_move_to_bytes_empty_and_counted(store: Store) -> None:
    with store.engine.connect() as conn:
        command.downgrade(alembic_config(conn), "0003")
        conn.exec_driver_sql(
            "INSERT INTO fetch_cache VALUES ('k', 'standard', '{\"a\": \"\u00e9\"}', 11, 0, 9e9, 0)"
        )
        conn.exec_driver_sql("UPDATE fetch_cache_total SET nbytes = 11")
        conn.commit()
    migrate(store)
    assert cache_get(store, "k", 1.0) is None
    assert cache_bytes(store) == 0
    cache_put(store, "k", "standard", '{"a": "\u00e9"}'.encode(), 60, 1 << 20, 1.0)
    hit = cache_get(store, "k", 2.0)
    assert hit is not None and hit.envelope_json == '{"a": "\u00e9"}'.encode()
    assert cache_bytes(store) == 11
