"""Shared fixtures: a migrated store on a real SQLite file and on the real PostgreSQL.

`SIFT_TEST_PG_URL` (CI sets it to the local server) turns the PostgreSQL half on; each test
gets a schema of its own there, dropped afterwards, so tests never see each other's rows.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from sift_store.engine import Store, open_store
from sift_store.migrate import migrate

PG_URL = os.environ.get("SIFT_TEST_PG_URL", "")


def _pg_schema_url(base: str) -> Iterator[str]:
    schema = "t_" + uuid.uuid4().hex[:12]
    admin = sa.create_engine(base.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """A fresh, empty database URL: a SQLite file, or a private PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'sift.db'}"
        return
    if not PG_URL:
        pytest.skip("SIFT_TEST_PG_URL is not set (CI sets it; README shows how)")
    yield from _pg_schema_url(PG_URL)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A private PostgreSQL schema, for what only PostgreSQL does."""
    if not PG_URL:
        pytest.skip("SIFT_TEST_PG_URL is not set (CI sets it; README shows how)")
    yield from _pg_schema_url(PG_URL)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = open_store(db_url)
    migrate(s)
    yield s
    s.dispose()


@pytest.fixture
def sqlite_store(tmp_path) -> Iterator[Store]:  # type: ignore[no-untyped-def]
    s = open_store(f"sqlite:///{tmp_path / 'sift.db'}")
    migrate(s)
    yield s
    s.dispose()
