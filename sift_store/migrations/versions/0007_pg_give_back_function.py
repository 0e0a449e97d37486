"""PostgreSQL: giving slots back, with their fetches' cache entries, becomes one call.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02

Hand-written to match sift_store/gates.py, which calls it on PostgreSQL and runs the same steps
as separate statements on SQLite. A release with its cache entry was four round trips (BEGIN,
the slot's DELETE, sift_put_entry, COMMIT); this function runs in autocommit, one round trip.

The race analysis is 0006's: each entry goes through sift_put_entry, whose first statement locks
the byte total (FOR UPDATE, held until this call's transaction commits), and inside a function
every later statement reads what is committed when it starts (READ COMMITTED), so the old size
it reads includes every put committed before the lock was granted. Every writer that locks the
total locks it before it writes a cache row, and a hit's touch of last_used waits for nothing
while it holds its row, so none of them can deadlock. The slots' DELETE takes no gate lock, as
before: an acquire counts the slots committed when its statement starts.
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# What sift_store.gates._give_back does: delete the slots, then put each entry (the i-th of each
# entry array together); returns the byte total after the last put, NULL without entries (the
# caller evicts, in a transaction of its own, if it is over the budget).
GIVE_BACK = """
CREATE FUNCTION sift_give_back(
    p_slots bigint[], p_keys text[], p_caller_classes text[], p_envelopes bytea[],
    p_nows double precision[], p_expires_at double precision[]
) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    total bigint;
BEGIN
    DELETE FROM gate_slot g WHERE g.id = ANY (p_slots);
    FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
        total := sift_put_entry(
            p_keys[i], p_caller_classes[i], p_envelopes[i], p_nows[i], p_expires_at[i]
        );
    END LOOP;
    RETURN total;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(GIVE_BACK)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP FUNCTION sift_give_back")
