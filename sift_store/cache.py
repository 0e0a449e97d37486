"""The fetch cache: successful envelopes per key (caller class + URL + options, hashed by the
fetch package), with a TTL and a byte budget, least recently used out first.

The byte total lives in a one-row counter table, kept exact in the same transaction as every
change to the cache, so a put costs the same at 100 entries or 100,000. Locking that row
(`FOR UPDATE`) also serialises cache writers on PostgreSQL, which makes read-old-size, upsert and
evict race-free there as BEGIN IMMEDIATE does on SQLite.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.dialects import postgresql, sqlite

from sift_store.engine import Store
from sift_store.meta import metadata

fetch_cache = sa.Table(
    "fetch_cache",
    metadata,
    sa.Column("key", sa.Text(), primary_key=True),
    sa.Column("caller_class", sa.Text(), nullable=False),
    sa.Column("envelope", sa.Text(), nullable=False),
    sa.Column("nbytes", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.Double(), nullable=False),
    sa.Column("expires_at", sa.Double(), nullable=False),
    sa.Column("last_used", sa.Double(), nullable=False),
    sa.Index("ix_fetch_cache_last_used", "last_used"),
    sa.Index("ix_fetch_cache_expires_at", "expires_at"),
)

# Exactly one row (id 1, seeded by the migration): the sum of fetch_cache.nbytes.
fetch_cache_total = sa.Table(
    "fetch_cache_total",
    metadata,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
    sa.Column("nbytes", sa.BigInteger(), nullable=False),
)

# A hit rewrites last_used only when it is at least this stale: LRU order to the second is
# plenty, and a hot entry then costs one write a second instead of a write per hit.
TOUCH_GRANULARITY = 1.0
_EVICT_BATCH = 64


def cache_get(store: Store, key: str, now: float) -> str | None:
    """The envelope JSON stored under KEY, unless missing or expired at NOW."""
    with store.read() as conn:
        row = conn.execute(
            sa.select(
                fetch_cache.c.envelope, fetch_cache.c.expires_at, fetch_cache.c.last_used
            ).where(fetch_cache.c.key == key)
        ).first()
    if row is None or row.expires_at <= now:
        return None
    if now - row.last_used >= TOUCH_GRANULARITY:
        with store.write() as conn:
            conn.execute(
                sa.update(fetch_cache)
                .where(fetch_cache.c.key == key, fetch_cache.c.last_used < now)
                .values(last_used=now)
            )
    return row.envelope


def cache_put(
    store: Store,
    key: str,
    caller_class: str,
    envelope_json: str,
    ttl: float,
    max_bytes: int,
    now: float,
) -> None:
    """Store (or replace) KEY for TTL seconds, then evict until the cache fits MAX_BYTES:
    expired entries first, then least recently used. An envelope bigger than the whole budget
    is not cached."""
    nbytes = len(envelope_json.encode())
    if nbytes > max_bytes:
        return
    with store.write() as conn:
        total = _lock_total(conn)
        old = conn.execute(
            sa.select(fetch_cache.c.nbytes).where(fetch_cache.c.key == key)
        ).scalar_one_or_none()
        values = {
            "caller_class": caller_class,
            "envelope": envelope_json,
            "nbytes": nbytes,
            "created_at": now,
            "expires_at": now + ttl,
            "last_used": now,
        }
        insert = postgresql.insert if store.dialect == "postgresql" else sqlite.insert
        conn.execute(
            insert(fetch_cache)
            .values(key=key, **values)
            .on_conflict_do_update(index_elements=[fetch_cache.c.key], set_=values)
        )
        total += nbytes - (old or 0)
        if total > max_bytes:
            total -= _evict(conn, total - max_bytes, keep=key, now=now)
        _set_total(conn, total)


def cache_purge_expired(store: Store, now: float) -> int:
    """Delete every entry expired at NOW; returns how many. Also recounts the byte total from
    the rows, so a total that ever drifted (rows deleted by hand) heals on the next purge."""
    with store.write() as conn:
        _lock_total(conn)
        purged = conn.execute(
            sa.delete(fetch_cache).where(fetch_cache.c.expires_at <= now)
        ).rowcount
        total = conn.execute(
            sa.select(sa.func.coalesce(sa.func.sum(fetch_cache.c.nbytes), 0))
        ).scalar_one()
        _set_total(conn, int(total))
        return purged


def cache_bytes(store: Store) -> int:
    """The cache's byte total (for metrics and tests)."""
    with store.read() as conn:
        return conn.execute(sa.select(fetch_cache_total.c.nbytes)).scalar_one()


def _lock_total(conn: Connection) -> int:
    # FOR UPDATE is dropped by SQLAlchemy on SQLite, where the write transaction is the lock.
    return conn.execute(
        sa.select(fetch_cache_total.c.nbytes).where(fetch_cache_total.c.id == 1).with_for_update()
    ).scalar_one()


def _set_total(conn: Connection, total: int) -> None:
    conn.execute(
        sa.update(fetch_cache_total).where(fetch_cache_total.c.id == 1).values(nbytes=total)
    )


def _evict(conn: Connection, excess: int, *, keep: str, now: float) -> int:
    """Free at least EXCESS bytes, never KEEP; returns the bytes freed."""
    # Expired entries are dead weight: all of them go before any live one.
    freed = sum(
        conn.execute(
            sa.delete(fetch_cache)
            .where(fetch_cache.c.expires_at <= now, fetch_cache.c.key != keep)
            .returning(fetch_cache.c.nbytes)
        ).scalars()
    )
    while freed < excess:
        # Small pages in last_used order (the index): psycopg would otherwise fetch the whole
        # table into memory to read the first few rows.
        batch = conn.execute(
            sa.select(fetch_cache.c.key, fetch_cache.c.nbytes)
            .where(fetch_cache.c.key != keep)
            .order_by(fetch_cache.c.last_used, fetch_cache.c.key)
            .limit(_EVICT_BATCH)
        ).all()
        if not batch:
            break
        victims = []
        for row in batch:
            victims.append(row.key)
            freed += row.nbytes
            if freed >= excess:
                break
        conn.execute(sa.delete(fetch_cache).where(fetch_cache.c.key.in_(victims)))
    return freed
