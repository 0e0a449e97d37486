"""Prepared statements on the driver's cursor, on SQLite and PostgreSQL: they bind as SQLAlchemy
would (repeated and literal parameters, positional drivers), and fail as SQLAlchemy would, so
an outage is still told from a bug and a lost connection is replaced."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from sift_store.engine import Store, open_store
from sift_store.outage import is_outage
from sift_store.prepared import Prepared
from tests.conftest import PG_URL

_meta = sa.MetaData()
_t = sa.Table(
    "prepared_probe",
    _meta,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
    sa.Column("name", sa.Text(), nullable=False),
    sa.Column("score", sa.Double(), nullable=False),
)
_NAME = sa.bindparam("name", type_=sa.Text())
# NAME twice, a literal (7) SQLAlchemy binds itself, and RETURNING.
_INSERT = Prepared(
    sa.insert(_t)
    .from_select(
        ["id", "name", "score"],
        sa.select(sa.bindparam("id", type_=sa.Integer()), _NAME, sa.literal(7.5)).where(
            ~sa.exists().where(_t.c.name == _NAME)
        ),
    )
    .returning(_t.c.id)
)
_GET = Prepared(sa.select(_t.c.name, _t.c.score).where(_t.c.id == sa.bindparam("id")))
_BUMP = Prepared(sa.update(_t).where(_t.c.score < 100).values(score=_t.c.score + 1))


@pytest.fixture
def probe(store: Store) -> Iterator[Store]:
    _meta.create_all(store.engine)
    yield store
    _meta.drop_all(store.engine)


def test_binds_repeated_and_literal_parameters_and_returns_rows(probe: Store) -> None:
    with probe.write() as conn:
        assert _INSERT.first(conn, {"id": 1, "name": "a"}) == (1,)
        # The name is taken: the repeated parameter reached the subquery too.
        assert _INSERT.first(conn, {"id": 2, "name": "a"}) is None
        assert _INSERT.first(conn, {"id": 3, "name": "b"}) == (3,)
        assert _BUMP.run(conn) == 2
    with probe.read() as conn:
        assert _GET.first(conn, {"id": 1}) == ("a", 8.5)
        assert _GET.first(conn, {"id": 2}) is None


def test_runs_inside_the_connections_transaction(probe: Store) -> None:
    with pytest.raises(RuntimeError), probe.write() as conn:
        _INSERT.first(conn, {"id": 1, "name": "a"})
        raise RuntimeError("roll back")
    with probe.read() as conn:
        assert _GET.first(conn, {"id": 1}) is None


def test_a_missing_value_is_refused_before_the_database_sees_it(probe: Store) -> None:
    with pytest.raises(sa.exc.ArgumentError, match="name"), probe.write() as conn:
        _INSERT.first(conn, {"id": 1})


def test_a_driver_error_comes_out_as_sqlalchemys_and_is_no_outage(probe: Store) -> None:
    duplicate = Prepared(sa.insert(_t).values(id=1, name=sa.bindparam("name"), score=1.0))
    with probe.write() as conn:
        duplicate.run(conn, {"name": "a"})
    with pytest.raises(sa.exc.IntegrityError) as caught, probe.write() as conn:
        duplicate.run(conn, {"name": "b"})
    assert not is_outage(caught.value)
    with probe.read() as conn:
        assert _GET.first(conn, {"id": 1}) == ("a", 1.0)


@pytest.mark.skipif(not PG_URL, reason="SIFT_TEST_PG_URL is not set")
def test_a_lost_postgresql_connection_is_an_outage_and_is_replaced(pg_url: str) -> None:
    store, killer = open_store(pg_url), open_store(pg_url)
    ping = Prepared(sa.select(sa.literal(1)))
    try:
        with pytest.raises(sa.exc.DBAPIError) as caught, store.read() as conn:
            pid = int(conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one())
            # The server ends this connection while it is checked out (no checkout to catch it).
            with killer.read() as other:
                other.exec_driver_sql(f"SELECT pg_terminate_backend({pid}, 10000)")
            ping.first(conn)
        assert is_outage(caught.value)
        assert caught.value.connection_invalidated
        with store.read() as conn:
            assert ping.first(conn) == (1,)
    finally:
        store.dispose()
        killer.dispose()
