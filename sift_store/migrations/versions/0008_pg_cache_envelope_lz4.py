"""PostgreSQL: the cache's envelopes are compressed with lz4 instead of pglz.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02

An envelope over 2 KB is compressed as it is stored (TOAST), by default with pglz, which cost the
database 1.3 ms of CPU a 56 KB envelope: more than the rest of a fetch's store work, on the
cores the fetches share (bench/fetch_bench.py's pages, upserted in autocommit on this machine:
1.57 ms a put with pglz, 0.23-0.26 with lz4, 0.18-0.33 uncompressed; lz4 kept them as small as
pglz did). Only values written from now on are compressed so; older ones read as before. A
server built without lz4 keeps pglz: the cache works the same, only slower to write.
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

# Column compression methods came with PostgreSQL 14.
_FIRST_VERSION = (14,)


def _set_compression(method: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    version = bind.dialect.server_version_info
    if version is None or version < _FIRST_VERSION:
        return
    op.execute(
        f"""
        DO $$
        BEGIN
            ALTER TABLE fetch_cache ALTER COLUMN envelope SET COMPRESSION {method};
        EXCEPTION WHEN feature_not_supported THEN
            NULL;  -- a server built without it
        END
        $$
        """
    )


def upgrade() -> None:
    _set_compression("lz4")


def downgrade() -> None:
    _set_compression("default")
