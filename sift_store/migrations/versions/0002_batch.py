"""Batch tables: jobs and their targets.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02

Hand-written to match sift_store/batch.py. Times are float epoch seconds.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "batch_job",
        sa.Column("id", sa.Text(), primary_key=True),
        sa.Column("caller", sa.Text(), nullable=False),
        sa.Column("caller_class", sa.Text(), nullable=False),
        sa.Column("idem_key", sa.Text(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("error", sa.Text()),
        sa.Column("targets_total", sa.Integer(), nullable=False),
        sa.Column("targets_done", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("started_at", sa.Double()),
        sa.Column("finished_at", sa.Double()),
        sa.Column("served_at", sa.Double(), nullable=False),
        sa.Column("lease", sa.Double(), nullable=False),
        sa.Column("nbytes", sa.BigInteger(), nullable=False),
        sa.Column("inflight_idx", sa.Integer()),
    )
    op.create_index("ix_batch_job_idem_key", "batch_job", ["idem_key"])
    # Matches sift_store.batch.LIVE_PREDICATE (see there for why it is a partial index).
    live = sa.text("status IN ('queued', 'running')")
    op.create_index(
        "ix_batch_job_live", "batch_job", ["served_at"], sqlite_where=live, postgresql_where=live
    )
    op.create_index("ix_batch_job_lease", "batch_job", ["lease"])
    op.create_index(
        "ix_batch_job_inflight",
        "batch_job",
        ["inflight_idx"],
        sqlite_where=sa.text("inflight_idx IS NOT NULL"),
        postgresql_where=sa.text("inflight_idx IS NOT NULL"),
    )

    op.create_table(
        "batch_target",
        sa.Column(
            "job_id",
            sa.Text(),
            sa.ForeignKey("batch_job.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("idx", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("result", sa.Text()),
        sa.Column("error", sa.Text()),
        sa.Column("hint", sa.Text()),
        sa.Column("outcome", sa.Text()),
        sa.Column("retry_after", sa.Double()),
        sa.Column("nbytes", sa.Integer(), nullable=False),
        sa.Column("busy_attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_by", sa.Text()),
        sa.Column("lease_until", sa.Double()),
        sa.Column("started_at", sa.Double()),
        sa.Column("finished_at", sa.Double()),
    )
    op.create_index(
        "ux_batch_target_one_running",
        "batch_target",
        ["job_id"],
        unique=True,
        sqlite_where=sa.text("status = 'running'"),
        postgresql_where=sa.text("status = 'running'"),
    )


def downgrade() -> None:
    op.drop_table("batch_target")
    op.drop_table("batch_job")
