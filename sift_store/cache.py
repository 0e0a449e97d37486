"""The fetch cache: successful envelopes per key (caller class + URL + options, hashed by the
fetch package), with a TTL and a byte budget, least recently used out first.

The byte total lives in a one-row counter table, kept exact in the same transaction as every
change to the cache, so a put costs the same at 100 entries or 100,000. Locking that row
(`FOR UPDATE`) also serialises cache writers on PostgreSQL, which makes read-old-size, upsert and
evict race-free there as BEGIN IMMEDIATE does on SQLite.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.dialects import sqlite

from sift_store.engine import Store
from sift_store.meta import metadata
from sift_store.prepared import Prepared

fetch_cache = sa.Table(
    "fetch_cache",
    metadata,
    sa.Column("key", sa.Text(), primary_key=True),
    sa.Column("caller_class", sa.Text(), nullable=False),
    # UTF-8 JSON as the encoder made it: text would be decoded and encoded again on each side.
    sa.Column("envelope", sa.LargeBinary(), nullable=False),
    sa.Column("nbytes", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.Double(), nullable=False),
    sa.Column("expires_at", sa.Double(), nullable=False),
    sa.Column("last_used", sa.Double(), nullable=False),
    # Covering for eviction, which reads victims' sizes in LRU order (migration 0010).
    sa.Index("ix_fetch_cache_lru", "last_used", "key", "nbytes"),
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
# A cache over its budget frees down to this share of it, not just under it: a full cache then
# evicts once every few hundred puts rather than on every put (an eviction was a third of the
# store's work a fetch under bench/fetch_bench.py once the cache had filled).
LOW_WATER = 15 / 16

# Eviction's candidates, _EVICT_BATCH at a time in last_used order, from the covering index alone
# (psycopg would otherwise fetch the whole table into memory to read the first few rows).
LRU_BATCH = (
    sa.select(fetch_cache.c.key, fetch_cache.c.nbytes)
    .where(fetch_cache.c.key != sa.bindparam("keep"))
    .order_by(fetch_cache.c.last_used, fetch_cache.c.key)
    .limit(_EVICT_BATCH)
)

# The statements every fetch runs (sift_store.prepared).
_GET = Prepared(
    sa.select(fetch_cache.c.envelope, fetch_cache.c.expires_at, fetch_cache.c.last_used).where(
        fetch_cache.c.key == sa.bindparam("entry_key")
    )
)
_TOUCH = Prepared(
    sa.update(fetch_cache)
    .where(
        fetch_cache.c.key == sa.bindparam("entry_key"), fetch_cache.c.last_used < sa.bindparam("at")
    )
    .values(last_used=sa.bindparam("at"))
)
# A put's change to the byte total, less the size of the entry it replaces, in the statement
# that reads the total: on SQLite a put is this and the upsert (four statements were a fifth
# of a raw fetch's store work: bench/fetch_cost.py).
_ADD_SIZE = Prepared(
    sa.update(fetch_cache_total)
    .where(fetch_cache_total.c.id == 1)
    .values(
        nbytes=fetch_cache_total.c.nbytes
        + sa.bindparam("nbytes", type_=sa.BigInteger())
        - sa.func.coalesce(
            sa.select(fetch_cache.c.nbytes)
            .where(fetch_cache.c.key == sa.bindparam("entry_key", type_=sa.Text()))
            .scalar_subquery(),
            0,
        )
    )
    .returning(fetch_cache_total.c.nbytes)
)
_LOCK_TOTAL = Prepared(
    sa.select(fetch_cache_total.c.nbytes).where(fetch_cache_total.c.id == 1).with_for_update()
)
_SET_TOTAL = Prepared(
    sa.update(fetch_cache_total)
    .where(fetch_cache_total.c.id == 1)
    .values(nbytes=sa.bindparam("total"))
)
_REPLACED = ("caller_class", "envelope", "nbytes", "created_at", "expires_at", "last_used")


_INSERT = sqlite.insert(fetch_cache)
_UPSERT = Prepared(
    _INSERT.on_conflict_do_update(
        index_elements=[fetch_cache.c.key],
        set_={name: _INSERT.excluded[name] for name in _REPLACED},
    )
)
# On PostgreSQL, where each statement is a round trip, the total's lock, the old size, the
# upsert and the new total are one function call (migration 0006).
_PG_PUT = Prepared(
    sa.text(
        "SELECT sift_put_entry(CAST(:key AS text), CAST(:caller_class AS text),"
        " CAST(:envelope AS bytea), CAST(:now AS double precision),"
        " CAST(:expires_at AS double precision))"
    )
)


@dataclass(frozen=True)
class CacheHit:
    envelope_json: bytes
    expires_at: float


def cache_get(store: Store, key: str, now: float) -> CacheHit | None:
    """The envelope JSON stored under KEY and when it expires, unless missing or expired at
    NOW (a fetch asks `acquire_slot`, which looks in the same transaction as it takes a slot)."""
    with store.write() as conn:
        return get_entry(conn, key, now)


def get_entry(conn: Connection, key: str, now: float) -> CacheHit | None:
    """`cache_get` inside CONN's write transaction; a hit marks the entry used."""
    row = _GET.first(conn, {"entry_key": key})
    if row is None:
        return None
    envelope, expires_at, last_used = row
    if expires_at <= now:
        return None
    if now - last_used >= TOUCH_GRANULARITY:
        _TOUCH.run(conn, {"entry_key": key, "at": now})
    return CacheHit(envelope, expires_at)


@dataclass(frozen=True)
class CacheEntry:
    """One envelope to keep under KEY for TTL seconds from NOW, in a cache of MAX_BYTES."""

    key: str
    caller_class: str
    envelope_json: bytes
    ttl: float
    max_bytes: int
    now: float

    @property
    def fits(self) -> bool:
        """Whether it can be cached at all: an envelope bigger than the whole budget is not."""
        return len(self.envelope_json) <= self.max_bytes


def cache_put(
    store: Store,
    key: str,
    caller_class: str,
    envelope_json: bytes,
    ttl: float,
    max_bytes: int,
    now: float,
) -> None:
    entry = CacheEntry(key, caller_class, envelope_json, ttl, max_bytes, now)
    with store.write() as conn:
        put_entry(conn, store.dialect, entry)


def put_entry(conn: Connection, dialect: str, entry: CacheEntry) -> None:
    """Store (or replace) the entry inside CONN's write transaction; a cache over its budget
    then evicts down to LOW_WATER of it: expired entries first, then least recently used. An
    envelope bigger than the whole budget is not cached."""
    if not entry.fits:
        return
    if _replace(conn, dialect, entry) > entry.max_bytes:
        shrink(conn, entry)


def shrink(conn: Connection, entry: CacheEntry) -> None:
    """Under the byte total's lock, inside CONN's write transaction: a cache over ENTRY's
    budget evicts down to LOW_WATER of it, expired entries first, then least recently used,
    never ENTRY itself. The put that went over may have committed already (on PostgreSQL a
    release's puts are one call of their own), so the total is read again here."""
    total = _lock_total(conn)
    if total > entry.max_bytes:
        excess = total - int(entry.max_bytes * LOW_WATER)
        _set_total(conn, total - _evict(conn, excess, keep=entry.key, now=entry.now))


def _replace(conn: Connection, dialect: str, entry: CacheEntry) -> int:
    """Write ENTRY under the byte total's lock and add its size to the total (less the size of
    the entry it replaces); returns the new total."""
    expires_at = entry.now + entry.ttl
    if dialect == "postgresql":
        params = {
            "key": entry.key,
            "caller_class": entry.caller_class,
            "envelope": entry.envelope_json,
            "now": entry.now,
            "expires_at": expires_at,
        }
        return int(_PG_PUT.first(conn, params)[0])
    nbytes = len(entry.envelope_json)
    # Before the upsert, so that the subquery reads the size of the entry it replaces.
    total = int(_ADD_SIZE.first(conn, {"entry_key": entry.key, "nbytes": nbytes})[0])
    row = {
        "key": entry.key,
        "caller_class": entry.caller_class,
        "envelope": entry.envelope_json,
        "nbytes": nbytes,
        "created_at": entry.now,
        "expires_at": expires_at,
        "last_used": entry.now,
    }
    _UPSERT.run(conn, row)
    return total


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
    return int(_LOCK_TOTAL.first(conn)[0])


def _set_total(conn: Connection, total: int) -> None:
    _SET_TOTAL.run(conn, {"total": total})


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
        batch = conn.execute(LRU_BATCH, {"keep": keep}).all()
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
