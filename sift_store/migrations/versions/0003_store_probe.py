"""The store probe: one row `/healthz` reads and rewrites to prove the store can be written.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Hand-written to match sift_store/health.py.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "store_probe",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("at", sa.Double(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("store_probe")
