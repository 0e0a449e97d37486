"""Core tables: fetch gate slots and the fetch cache.

Revision ID: 0001
Revises:
Create Date: 2025-01-01

Hand-written, with no schema named anywhere: on PostgreSQL the tables land in the first schema
of the connection's search_path. Times are float epoch seconds.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gate_slot",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("holder", sa.Text(), nullable=False),
        sa.Column("host", sa.Text(), nullable=False),
        sa.Column("caller", sa.Text(), nullable=False),
        sa.Column("acquired_at", sa.Double(), nullable=False),
        sa.Column("lease_until", sa.Double(), nullable=False),
        # Never reuse an id on SQLite: a late release must not free someone else's slot.
        sqlite_autoincrement=True,
    )
    op.create_index("ix_gate_slot_host", "gate_slot", ["host"])
    op.create_index("ix_gate_slot_caller", "gate_slot", ["caller"])
    op.create_index("ix_gate_slot_holder", "gate_slot", ["holder"])
    op.create_index("ix_gate_slot_lease_until", "gate_slot", ["lease_until"])

    op.create_table(
        "fetch_cache",
        sa.Column("key", sa.Text(), primary_key=True),
        sa.Column("caller_class", sa.Text(), nullable=False),
        sa.Column("envelope", sa.Text(), nullable=False),
        sa.Column("nbytes", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=False),
        sa.Column("last_used", sa.Double(), nullable=False),
    )
    op.create_index("ix_fetch_cache_last_used", "fetch_cache", ["last_used"])
    op.create_index("ix_fetch_cache_expires_at", "fetch_cache", ["expires_at"])

    total = op.create_table(
        "fetch_cache_total",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("nbytes", sa.BigInteger(), nullable=False),
    )
    op.bulk_insert(total, [{"id": 1, "nbytes": 0}])


def downgrade() -> None:
    op.drop_table("fetch_cache_total")
    op.drop_table("fetch_cache")
    op.drop_table("gate_slot")
