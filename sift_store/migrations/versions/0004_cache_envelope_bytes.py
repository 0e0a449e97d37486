"""The cache keeps each envelope as the UTF-8 JSON its encoder made, not as text.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

Hand-written to match sift_store/cache.py. Its entries are dropped, not converted: it is a cache,
and every one of them is fetched again the next time it is asked for.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _recreate(envelope: sa.types.TypeEngine[Any]) -> None:
    op.drop_table("fetch_cache")
    op.create_table(
        "fetch_cache",
        sa.Column("key", sa.Text(), primary_key=True),
        sa.Column("caller_class", sa.Text(), nullable=False),
        sa.Column("envelope", envelope, nullable=False),
        sa.Column("nbytes", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=False),
        sa.Column("last_used", sa.Double(), nullable=False),
    )
    op.create_index("ix_fetch_cache_last_used", "fetch_cache", ["last_used"])
    op.create_index("ix_fetch_cache_expires_at", "fetch_cache", ["expires_at"])
    op.execute("UPDATE fetch_cache_total SET nbytes = 0")


def upgrade() -> None:
    _recreate(sa.LargeBinary())


def downgrade() -> None:
    _recreate(sa.Text())
