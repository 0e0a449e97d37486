"""What the fetch cache holds, read straight from its table, for tests that check its rows."""

from __future__ import annotations

import sqlalchemy as sa

from sift_store.cache import fetch_cache
from sift_store.engine import Store


def cached_keys(store: Store) -> set[str]:
    with store.read() as conn:
        return set(conn.execute(sa.select(fetch_cache.c.key)).scalars())


def cached_bytes(store: Store) -> int:
    """The sum of the rows' sizes (the table's own total is kept apart)."""
    with store.read() as conn:
        return conn.execute(
            sa.select(sa.func.coalesce(sa.func.sum(fetch_cache.c.nbytes), 0))
        ).scalar_one()
