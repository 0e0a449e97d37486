"""Fetch gates as leased slots in the store, so every process on every host shares one count.

One row per fetch in flight. A slot holds only while its lease does: a process that dies without
releasing frees its slots once their leases lapse, because every acquire first deletes lapsed rows.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy import Connection

from sift_store.engine import Store
from sift_store.meta import metadata

gate_slot = sa.Table(
    "gate_slot",
    metadata,
    # AUTOINCREMENT on SQLite: ids are never reused, so a stale release or renew from a process
    # whose slot lapsed can never hit the slot someone else took after it.
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
    sa.Column("holder", sa.Text(), nullable=False),
    sa.Column("host", sa.Text(), nullable=False),
    sa.Column("caller", sa.Text(), nullable=False),
    sa.Column("acquired_at", sa.Double(), nullable=False),
    sa.Column("lease_until", sa.Double(), nullable=False),
    sa.Index("ix_gate_slot_host", "host"),
    sa.Index("ix_gate_slot_caller", "caller"),
    sa.Index("ix_gate_slot_holder", "holder"),
    sa.Index("ix_gate_slot_lease_until", "lease_until"),
    sqlite_autoincrement=True,
)

# Serialises acquires across processes on PostgreSQL (SQLite has BEGIN IMMEDIATE for that).
PG_GATE_LOCK_KEY = int.from_bytes(b"sift:gat", "big")


@dataclass(frozen=True)
class GateLimits:
    global_: int
    per_host: int
    per_caller: int


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
) -> int | Full:
    """Take a slot for one fetch of HOST by CALLER, or say which gate is full.

    HEADROOM slots of every gate stay free for others (but a gate of one slot is always
    usable): a batch target passes 1, so it never takes a gate's last free slot."""
    with store.write() as conn:
        _serialise(store, conn)
        conn.execute(sa.delete(gate_slot).where(gate_slot.c.lease_until < now))
        total, on_host, by_caller = conn.execute(
            sa.select(
                sa.func.count(),
                sa.func.count().filter(gate_slot.c.host == host),
                sa.func.count().filter(gate_slot.c.caller == caller),
            )
        ).one()
        gates: list[tuple[Literal["global", "host", "caller"], int, int, Any]] = [
            ("global", total, limits.global_, sa.true()),
            ("host", on_host, limits.per_host, gate_slot.c.host == host),
            ("caller", by_caller, limits.per_caller, gate_slot.c.caller == caller),
        ]
        for gate, used, limit, scope in gates:
            if used >= max(1, limit - headroom):
                slots = conn.execute(
                    sa.select(gate_slot.c.holder, gate_slot.c.lease_until).where(scope)
                ).all()
                return Full(gate, [(row.holder, row.lease_until) for row in slots])
        return conn.execute(
            sa.insert(gate_slot)
            .values(
                holder=holder,
                host=host,
                caller=caller,
                acquired_at=now,
                lease_until=now + lease_seconds,
            )
            .returning(gate_slot.c.id)
        ).scalar_one()


def release_slot(store: Store, slot_id: int) -> None:
    """Give the slot back; a slot that already lapsed and was reaped is fine."""
    with store.write() as conn:
        conn.execute(sa.delete(gate_slot).where(gate_slot.c.id == slot_id))


def release_holders(store: Store, holders: Collection[str]) -> int:
    """Give back every slot HOLDERS still have (a process shutting down, or found dead);
    returns how many."""
    if not holders:
        return 0
    with store.write() as conn:
        return conn.execute(
            sa.delete(gate_slot).where(gate_slot.c.holder.in_(list(holders)))
        ).rowcount


def renew_holder(store: Store, holder: str, lease_until: float, skip: Collection[int] = ()) -> int:
    """Extend the lease of every slot HOLDER has but those in SKIP; returns how many."""
    with store.write() as conn:
        return conn.execute(
            sa.update(gate_slot)
            .where(gate_slot.c.holder == holder, gate_slot.c.id.not_in(list(skip)))
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


def _serialise(store: Store, conn: Connection) -> None:
    if not store.is_sqlite:
        # Transaction-scoped: released by the commit that makes our insert visible, so the
        # next acquirer's count (a fresh READ COMMITTED snapshot) includes it.
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(PG_GATE_LOCK_KEY)))
