"""Fetch gates as leased slots in the store, so every process on every host shares one count.

One row per fetch in flight. A slot holds only while its lease does: a process that dies without
releasing frees its slots once their leases lapse, because a lapsed row never counts, is never
renewed, and is deleted when it could be in the way (a gate that refuses).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy import Connection

from sift_store.cache import (
    TOUCH_GRANULARITY,
    CacheEntry,
    CacheHit,
    get_entry,
    put_entry,
    shrink,
)
from sift_store.engine import Store
from sift_store.meta import metadata
from sift_store.prepared import Prepared

gate_slot = sa.Table(
    "gate_slot",
    metadata,
    # AUTOINCREMENT on SQLite: ids are never reused, so a stale release or renew from a process
    # whose slot lapsed can never hit the slot someone else took after it. A release and a
    # renewal name the holder too: on PostgreSQL a take commits without waiting for the disk,
    # and a database crash may then hand out an id again.
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
    sa.Column("holder", sa.Text(), nullable=False),
    sa.Column("host", sa.Text(), nullable=False),
    sa.Column("caller", sa.Text(), nullable=False),
    sa.Column("acquired_at", sa.Double(), nullable=False),
    sa.Column("lease_until", sa.Double(), nullable=False),
    # No indexes (migration 0005): a row per fetch in flight is read whole faster than through
    # one, and each would cost every acquire and release a page written.
    sqlite_autoincrement=True,
)

# Serialises acquires across processes on PostgreSQL (SQLite has BEGIN IMMEDIATE for that):
# transaction-scoped, so released by the commit that makes the new slot visible, and the next
# acquirer's count (a fresh READ COMMITTED snapshot) includes it.
PG_GATE_LOCK_KEY = int.from_bytes(b"sift:gat", "big")

# The statements every fetch runs (sift_store.prepared), and those only a refusal runs.
_DELETE_LAPSED = sa.delete(gate_slot).where(gate_slot.c.lease_until < sa.bindparam("now"))
_COUNT = sa.select(
    sa.func.count(),
    sa.func.count().filter(gate_slot.c.host == sa.bindparam("host")),
    sa.func.count().filter(gate_slot.c.caller == sa.bindparam("caller")),
)


def _live(*where: Any) -> Any:
    """How many slots whose lease holds at :now match WHERE (lapsed rows never count)."""
    lease_holds = gate_slot.c.lease_until >= sa.bindparam("now", type_=sa.Double())
    return sa.select(sa.func.count()).where(lease_holds, *where).scalar_subquery()


_HOST = sa.bindparam("host", type_=sa.Text())
_CALLER = sa.bindparam("caller", type_=sa.Text())
# The whole acquire in one statement: insert the slot only where every gate has room.
_TAKE = Prepared(
    sa.insert(gate_slot)
    .from_select(
        ["holder", "host", "caller", "acquired_at", "lease_until"],
        sa.select(
            sa.bindparam("holder", type_=sa.Text()),
            _HOST,
            _CALLER,
            sa.bindparam("now", type_=sa.Double()),
            sa.bindparam("until", type_=sa.Double()),
        ).where(
            _live() < sa.bindparam("global_cap", type_=sa.Integer()),
            _live(gate_slot.c.host == _HOST) < sa.bindparam("host_cap", type_=sa.Integer()),
            _live(gate_slot.c.caller == _CALLER) < sa.bindparam("caller_cap", type_=sa.Integer()),
        ),
    )
    .returning(gate_slot.c.id)
)
_RELEASE = Prepared(
    sa.delete(gate_slot).where(
        gate_slot.c.id == sa.bindparam("slot"), gate_slot.c.holder == sa.bindparam("holder")
    )
)
# On PostgreSQL, where each statement is a round trip, the cache look-up, the gate lock and
# _TAKE are one function call (migration 0006).
_PG_TAKE = Prepared(
    sa.text(
        "SELECT o_slot, o_envelope, o_expires_at FROM sift_take_slot("
        "CAST(:cache_key AS text), CAST(:touch AS double precision), CAST(:lock AS bigint),"
        " CAST(:holder AS text), CAST(:host AS text), CAST(:caller AS text),"
        " CAST(:now AS double precision), CAST(:until AS double precision),"
        " CAST(:global_cap AS integer), CAST(:host_cap AS integer),"
        " CAST(:caller_cap AS integer))"
    )
)
# And the give-back: the slots' DELETE and one entry's put (migration 0009, which puts it
# through sift_put_entry, as cache.put_entry does).
_PG_GIVE_BACK = Prepared(
    sa.text(
        "SELECT sift_give_back(CAST(:holder AS text), CAST(:slots AS bigint[]), CAST(:key AS text),"
        " CAST(:caller_class AS text), CAST(:envelope AS bytea),"
        " CAST(:now AS double precision), CAST(:expires_at AS double precision))"
    )
)


@dataclass(frozen=True)
class GateLimits:
    global_: int
    per_host: int
    per_caller: int


@dataclass(frozen=True)
class Release:
    """A slot to give back, with the cache entry its fetch got, if any."""

    slot: int
    cache: CacheEntry | None = None


@dataclass(frozen=True)
class Full:
    """An acquire refused: which gate was full, and its slots' holders and lease ends."""

    gate: Literal["global", "host", "caller"]
    slots: list[tuple[str, float]]  # (holder, lease_until)


def acquire_slot(
    store: Store,
    *,
    holder: str,
    host: str,
    caller: str,
    limits: GateLimits,
    lease_seconds: float,
    now: float,
    headroom: int = 0,
    cache_key: str | None = None,
    releases: Sequence[Release] = (),
) -> int | Full | CacheHit:
    """Give back RELEASES, then take a slot for one fetch of HOST by CALLER, or say which gate
    is full.

    HEADROOM slots of every gate stay free for others (but a gate of one slot is always
    usable): a batch target passes 1, so it never takes a gate's last free slot. With
    CACHE_KEY, a live cache entry under it is the answer instead, and no slot is taken: a
    fetch's whole first step is one store call, and it writes what earlier fetches of this
    process gave back too (on SQLite in one transaction; on PostgreSQL a call of their own
    goes first)."""

    def cap(limit: int) -> int:
        return max(1, limit - headroom)

    take = {
        "holder": holder,
        "host": host,
        "caller": caller,
        "now": now,
        "until": now + lease_seconds,
        "global_cap": cap(limits.global_),
        "host_cap": cap(limits.per_host),
        "caller_cap": cap(limits.per_caller),
    }
    # Every statement here is complete on its own (one call each on PostgreSQL, the give-back
    # before the take, so the take counts without the slots given back), and the refusal's
    # statements each stand alone.
    with store.write(each_alone=True) as conn:
        over = _give_back(conn, store.dialect, holder, releases)
        got = _take_or_refuse(conn, store.dialect, cache_key, take)
    _shrink_after(store, over)
    return got


def _take_or_refuse(
    conn: Connection, dialect: str, cache_key: str | None, take: dict[str, Any]
) -> int | Full | CacheHit:
    while True:
        got = _take(conn, dialect, cache_key, take)
        if got is not None:
            return got
        # Refused. Lapsed slots (their holders died) never counted; clear them here, off
        # the path every fetch takes, and say which gate is full and who holds it.
        conn.execute(_DELETE_LAPSED, {"now": take["now"]})
        counts = conn.execute(_COUNT, {"host": take["host"], "caller": take["caller"]}).one()
        gates: list[tuple[Literal["global", "host", "caller"], int, Any]] = [
            ("global", counts[0], sa.true()),
            ("host", counts[1], gate_slot.c.host == take["host"]),
            ("caller", counts[2], gate_slot.c.caller == take["caller"]),
        ]
        for gate, used, scope in gates:
            if used >= take[f"{gate}_cap"]:
                slots = conn.execute(
                    sa.select(gate_slot.c.holder, gate_slot.c.lease_until).where(scope)
                ).all()
                return Full(gate, [(row.holder, row.lease_until) for row in slots])
        # None is full any more: on PostgreSQL each statement reads what is committed when
        # it starts, and a release (which takes no gate lock) came in between. Try again.


def _take(
    conn: Connection, dialect: str, cache_key: str | None, take: dict[str, Any]
) -> int | CacheHit | None:
    """The live cache entry under CACHE_KEY, else a slot taken as TAKE says, else None (a gate
    is full)."""
    if dialect == "postgresql":
        row = _PG_TAKE.first(
            conn,
            {"cache_key": cache_key, "touch": TOUCH_GRANULARITY, "lock": PG_GATE_LOCK_KEY, **take},
        )
        if row is None:
            return None
        slot, envelope, expires_at = row
        return int(slot) if slot is not None else CacheHit(envelope, expires_at)
    if cache_key is not None:
        hit = get_entry(conn, cache_key, take["now"])
        if hit is not None:
            return hit
    taken = _TAKE.first(conn, take)
    return int(taken[0]) if taken is not None else None


def release_slots(store: Store, holder: str, releases: Sequence[Release]) -> None:
    """Give HOLDER's slots back, and cache what their fetches got: one transaction on SQLite,
    one call an entry on PostgreSQL (a cache that went over its budget then evicts in a
    transaction of its own); a slot that already lapsed and was reaped is fine."""
    with store.write(each_alone=True) as conn:
        over = _give_back(conn, store.dialect, holder, releases)
    _shrink_after(store, over)


def _give_back(
    conn: Connection, dialect: str, holder: str, releases: Sequence[Release]
) -> CacheEntry | None:
    """Delete HOLDER's RELEASES' slots and cache their entries. On PostgreSQL that is one call (each
    committed alone) with the slots and the first entry, and one more for each other entry;
    returns the last entry whose put left the cache over its budget there, for
    `_shrink_after` to evict in a transaction of its own. On SQLite each put evicts in the
    same transaction."""
    if dialect != "postgresql":
        for release in releases:
            _RELEASE.run(conn, {"slot": release.slot, "holder": holder})
            if release.cache is not None:
                put_entry(conn, dialect, release.cache)
        return None
    if not releases:
        return None
    entries: list[CacheEntry | None] = [
        r.cache for r in releases if r.cache is not None and r.cache.fits
    ]
    slots = [release.slot for release in releases]
    over = None
    for entry in entries or [None]:
        params = {"holder": holder, "slots": slots, **_entry_params(entry)}
        total = _PG_GIVE_BACK.first(conn, params)[0]
        if entry is not None and total > entry.max_bytes:
            over = entry
        slots = []  # the first call gave them back
    return over


def _entry_params(entry: CacheEntry | None) -> dict[str, Any]:
    if entry is None:
        return dict.fromkeys(("key", "caller_class", "envelope", "now", "expires_at"))
    return {
        "key": entry.key,
        "caller_class": entry.caller_class,
        "envelope": entry.envelope_json,
        "now": entry.now,
        "expires_at": entry.now + entry.ttl,
    }


def _shrink_after(store: Store, over: CacheEntry | None) -> None:
    if over is not None:
        with store.write() as conn:
            shrink(conn, over)


def release_holders(store: Store, holders: Collection[str]) -> int:
    """Give back every slot HOLDERS still have (a process shutting down, or found dead);
    returns how many."""
    if not holders:
        return 0
    with store.write() as conn:
        return conn.execute(
            sa.delete(gate_slot).where(gate_slot.c.holder.in_(list(holders)))
        ).rowcount


def renew_slots(
    store: Store, holder: str, slots: Collection[int], now: float, lease_until: float
) -> int:
    """Extend the lease of HOLDER's SLOTS; returns how many. Only the slots the holder knows it
    holds: a row it gave back comes back if a database crash loses the give-back (on
    PostgreSQL it commits without waiting for the disk), and must lapse. A slot whose lease
    lapsed before NOW stays lapsed: others may have taken its place."""
    if not slots:
        return 0
    with store.write() as conn:
        return conn.execute(
            sa.update(gate_slot)
            .where(
                gate_slot.c.holder == holder,
                gate_slot.c.id.in_(list(slots)),
                gate_slot.c.lease_until >= now,
            )
            .values(lease_until=lease_until)
        ).rowcount


def slot_holders(store: Store) -> list[str]:
    """Every process that holds a slot now (for spotting dead ones on this host)."""
    with store.read() as conn:
        return list(conn.execute(sa.select(gate_slot.c.holder).distinct()).scalars())


def live_slots(store: Store, now: float) -> int:
    """Slots whose lease still holds at NOW, in every process."""
    with store.read() as conn:
        return conn.execute(
            sa.select(sa.func.count()).where(gate_slot.c.lease_until >= now)
        ).scalar_one()
