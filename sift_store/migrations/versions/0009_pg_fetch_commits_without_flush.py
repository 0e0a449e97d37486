"""PostgreSQL: a fetch's gate and cache calls commit without waiting for the WAL's flush.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02

Every one of these calls commits on its own (autocommit), and each commit waited for the WAL's
flush to disk: with `synchronous_commit = off` for the bench database, an acquire's wall time
fell from 1.03-1.17 to 0.60-0.66 ms and a release's from 1.74-2.00 to 1.15-1.27. What they
write is leased or disposable, so each call now sets it off for its own transaction
(`set_config(..., true)`, which lasts until the commit: a function's SET clause would be undone
before it). Others see the commit at once, as before; only a database crash differs, and may
lose the last fraction of a second of these commits:
- a take: its fetch runs on without a row, so a gate may admit a few more fetches until those
  end (as when the store stays away longer than a lease);
- a give-back: the slot's row comes back, and lapses within a lease, because a process renews
  only the slots it knows it holds (sift_fetch.gates);
- a cache put or touch: a miss, later.
A crash may also hand out a slot id again; a release and a renewal name their holder as well
as the id, so one process never frees or renews another's slot. Batch jobs, claims and results
keep the server's setting.

sift_give_back takes the holder now, for that; the functions are 0006's and 0007's otherwise,
copied rather than imported from them: a migration is a snapshot, which a later edit of an
earlier one must not change.
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_NO_FLUSH = "PERFORM set_config('synchronous_commit', 'off', true);"

TAKE_SLOT = f"""
CREATE OR REPLACE FUNCTION sift_take_slot(
    p_cache_key text, p_touch double precision, p_lock bigint,
    p_holder text, p_host text, p_caller text,
    p_now double precision, p_until double precision,
    p_global_cap integer, p_host_cap integer, p_caller_cap integer
) RETURNS TABLE (o_slot bigint, o_envelope bytea, o_expires_at double precision)
LANGUAGE plpgsql AS $$
DECLARE
    hit record;
BEGIN
    {_NO_FLUSH}
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

PUT_ENTRY = f"""
CREATE OR REPLACE FUNCTION sift_put_entry(
    p_key text, p_caller_class text, p_envelope bytea,
    p_now double precision, p_expires_at double precision
) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    total bigint;
    old integer;
BEGIN
    {_NO_FLUSH}
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

GIVE_BACK = f"""
CREATE FUNCTION sift_give_back(
    p_holder text, p_slots bigint[], p_key text, p_caller_class text, p_envelope bytea,
    p_now double precision, p_expires_at double precision
) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    {_NO_FLUSH}
    DELETE FROM gate_slot g WHERE g.id = ANY (p_slots) AND g.holder = p_holder;
    IF p_key IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN sift_put_entry(p_key, p_caller_class, p_envelope, p_now, p_expires_at);
END
$$
"""

# 0007's sift_give_back, without the holder, for the downgrade.
_GIVE_BACK_0007 = """
CREATE FUNCTION sift_give_back(
    p_slots bigint[], p_key text, p_caller_class text, p_envelope bytea,
    p_now double precision, p_expires_at double precision
) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM gate_slot g WHERE g.id = ANY (p_slots);
    IF p_key IS NULL THEN
        RETURN NULL;
    END IF;
    RETURN sift_put_entry(p_key, p_caller_class, p_envelope, p_now, p_expires_at);
END
$$
"""

_OLD_GIVE_BACK = "sift_give_back(bigint[], text, text, bytea, double precision, double precision)"
_NEW_GIVE_BACK = (
    "sift_give_back(text, bigint[], text, text, bytea, double precision, double precision)"
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(TAKE_SLOT)
    op.execute(PUT_ENTRY)
    op.execute(f"DROP FUNCTION {_OLD_GIVE_BACK}")
    op.execute(GIVE_BACK)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    # 0006's functions are these without the line that turns the flush off.
    op.execute(TAKE_SLOT.replace(_NO_FLUSH, ""))
    op.execute(PUT_ENTRY.replace(_NO_FLUSH, ""))
    op.execute(f"DROP FUNCTION {_NEW_GIVE_BACK}")
    op.execute(_GIVE_BACK_0007)
