"""PostgreSQL: a fetch's gate acquire and its cache put each become one call, one round trip.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

Hand-written to match sift_store/gates.py and sift_store/cache.py, which call these functions on
PostgreSQL and run the same steps as separate statements on SQLite, where a statement is a
function call, not a round trip. On PostgreSQL each statement cost a round trip: an acquire was
five (BEGIN, cache look-up, gate lock, insert, COMMIT) and a release with its cache entry seven.
Inside a function each statement still reads what is committed when it starts (READ COMMITTED),
so the insert counts every slot committed before the gate lock was granted, as before.
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# What sift_store.cache.get_entry and sift_store.gates._TAKE do, in that order: a live cache
# entry is the answer (touched when its last use is at least p_touch old), else a slot where
# every gate has room after the gate lock, else no row (a gate is full).
TAKE_SLOT = """
CREATE FUNCTION sift_take_slot(
    p_cache_key text, p_touch double precision, p_lock bigint,
    p_holder text, p_host text, p_caller text,
    p_now double precision, p_until double precision,
    p_global_cap integer, p_host_cap integer, p_caller_cap integer
) RETURNS TABLE (o_slot bigint, o_envelope bytea, o_expires_at double precision)
LANGUAGE plpgsql AS $$
DECLARE
    hit record;
BEGIN
    IF p_cache_key IS NOT NULL THEN
        SELECT c.envelope, c.expires_at, c.last_used INTO hit
        FROM fetch_cache c WHERE c.key = p_cache_key;
        IF FOUND AND hit.expires_at > p_now THEN
            IF p_now - hit.last_used >= p_touch THEN
                UPDATE fetch_cache c SET last_used = p_now
                WHERE c.key = p_cache_key AND c.last_used < p_now;
            END IF;
            RETURN QUERY SELECT NULL::bigint, hit.envelope, hit.expires_at;
            RETURN;
        END IF;
    END IF;
    PERFORM pg_advisory_xact_lock(p_lock);
    RETURN QUERY
    INSERT INTO gate_slot AS g (holder, host, caller, acquired_at, lease_until)
    SELECT p_holder, p_host, p_caller, p_now, p_until
    WHERE (SELECT count(*) FROM gate_slot s WHERE s.lease_until >= p_now) < p_global_cap
      AND (SELECT count(*) FROM gate_slot s
           WHERE s.lease_until >= p_now AND s.host = p_host) < p_host_cap
      AND (SELECT count(*) FROM gate_slot s
           WHERE s.lease_until >= p_now AND s.caller = p_caller) < p_caller_cap
    RETURNING g.id, NULL::bytea, NULL::double precision;
END
$$
"""

# What sift_store.cache.put_entry does before it evicts: lock the byte total, replace the entry,
# add the difference; returns the new total (the caller evicts if it is over the budget).
PUT_ENTRY = """
CREATE FUNCTION sift_put_entry(
    p_key text, p_caller_class text, p_envelope bytea,
    p_now double precision, p_expires_at double precision
) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    total bigint;
    old integer;
BEGIN
    SELECT t.nbytes INTO total FROM fetch_cache_total t WHERE t.id = 1 FOR UPDATE;
    SELECT c.nbytes INTO old FROM fetch_cache c WHERE c.key = p_key;
    INSERT INTO fetch_cache AS c
        (key, caller_class, envelope, nbytes, created_at, expires_at, last_used)
    VALUES (p_key, p_caller_class, p_envelope, length(p_envelope), p_now, p_expires_at, p_now)
    ON CONFLICT (key) DO UPDATE SET
        caller_class = excluded.caller_class, envelope = excluded.envelope,
        nbytes = excluded.nbytes, created_at = excluded.created_at,
        expires_at = excluded.expires_at, last_used = excluded.last_used;
    total := total + length(p_envelope) - coalesce(old, 0);
    UPDATE fetch_cache_total t SET nbytes = total WHERE t.id = 1;
    RETURN total;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(TAKE_SLOT)
    op.execute(PUT_ENTRY)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP FUNCTION sift_put_entry")
    op.execute("DROP FUNCTION sift_take_slot")
