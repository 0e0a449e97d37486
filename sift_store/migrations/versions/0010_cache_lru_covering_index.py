"""The cache's LRU index holds what eviction reads: last_used, key and nbytes.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03

Eviction picks victims in last_used order and adds up their sizes. With an index on last_used
alone, each candidate's `nbytes` came from its table row, and on SQLite that column sits after the
envelope in the record, so reading it walked the envelope's overflow pages (a 50 KB envelope, a
dozen pages): a full cache of such pages read 64 candidates' chains to evict five
(`py-spy` on `sift serve` under bench/fetch_bench.py --cache-mb 4: half of its store work).
The covering index answers the same query from the index alone.
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_fetch_cache_lru", "fetch_cache", ["last_used", "key", "nbytes"])
    op.drop_index("ix_fetch_cache_last_used", "fetch_cache")


def downgrade() -> None:
    op.create_index("ix_fetch_cache_last_used", "fetch_cache", ["last_used"])
    op.drop_index("ix_fetch_cache_lru", "fetch_cache")
