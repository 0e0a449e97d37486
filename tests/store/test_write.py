"""`Store.write(each_alone=True)`: on PostgreSQL each statement commits as it runs, and the
pooled connection it used makes transactions again afterwards."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from sift_store.engine import Store
from sift_store.health import store_probe


def _probes(store: Store) -> list[int]:
    with store.read() as conn:
        return sorted(conn.execute(sa.select(store_probe.c.id)).scalars())


def test_each_alone_commits_each_statement_on_postgresql(store: Store) -> None:
    with pytest.raises(RuntimeError), store.write(each_alone=True) as conn:
        conn.execute(sa.insert(store_probe).values(id=5, at=1.0))
        raise RuntimeError
    # SQLite runs the block as one transaction all the same, which the error rolls back.
    assert _probes(store) == ([] if store.is_sqlite else [5])


def test_a_write_after_an_each_alone_one_is_one_transaction_again(store: Store) -> None:
    with store.write(each_alone=True) as conn:
        conn.execute(sa.delete(store_probe))
    with pytest.raises(RuntimeError), store.write() as conn:
        conn.execute(sa.insert(store_probe).values(id=7, at=1.0))
        raise RuntimeError
    assert _probes(store) == []
