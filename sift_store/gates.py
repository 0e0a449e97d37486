"""Fetch gates as leased slots in the store, so every process on every host shares one count.

One row per fetch in flight. A slot holds only while its lease does: a process that dies without
releasing frees its slots once their leases lapse, because every acquire first deletes lapsed rows.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def acquire_slot(
    store: Store,
    *,
    holder: str,
    host: str,
    caller: str,
    limits: GateLimits,
    lease_seconds: float,
    now: float,
) -> int | None:
    """Take a slot for one fetch of HOST by CALLER, or None when any gate is full."""
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
        if total >= limits.global_ or on_host >= limits.per_host or by_caller >= limits.per_caller:
            return None
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


def release_holder(store: Store, holder: str) -> int:
    """Give back every slot HOLDER still has (a process shutting down); returns how many."""
    with store.write() as conn:
        return conn.execute(sa.delete(gate_slot).where(gate_slot.c.holder == holder)).rowcount


def renew_slot(store: Store, slot_id: int, lease_until: float) -> bool:
    """Extend a slot's lease; False when it is gone (lapsed and reaped, or released).

    Renewing a lapsed row that nobody reaped yet is safe: the reaping happens in every acquire
    before it counts, so no acquire can have counted that capacity as free."""
    with store.write() as conn:
        result = conn.execute(
            sa.update(gate_slot).where(gate_slot.c.id == slot_id).values(lease_until=lease_until)
        )
        return result.rowcount == 1


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
