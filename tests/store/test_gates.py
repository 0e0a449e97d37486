"""Gate slots: limits per scope, release, renew, lease lapse, and no overshoot under races."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from sift_store.cache import (
    TOUCH_GRANULARITY,
    CacheEntry,
    CacheHit,
    cache_bytes,
    cache_get,
    cache_put,
    fetch_cache,
)
from sift_store.engine import Store, open_store
from sift_store.gates import (
    Full,
    GateLimits,
    Release,
    acquire_slot,
    live_slots,
    release_holders,
    release_slots,
    renew_slots,
    slot_holders,
)
from sift_store.migrate import migrate
from tests.store._procs import acquire_proc, run_spawned
from tests.support.cache_rows import cached_bytes, cached_keys

NOW = 1000.0
WIDE = GateLimits(global_=100, per_host=100, per_caller=100)


HOLDER = "test"  # _acquire's holder unless told otherwise


def _acquire(
    store: Store,
    *,
    host: str = "example.com",
    caller: str = "alice",
    limits: GateLimits = WIDE,
    lease: float = 60.0,
    now: float = NOW,
    holder: str = HOLDER,
    headroom: int = 0,
    cache_key: str | None = None,
) -> int | CacheHit | None:
    got = acquire_slot(
        store,
        holder=holder,
        host=host,
        caller=caller,
        limits=limits,
        lease_seconds=lease,
        now=now,
        headroom=headroom,
        cache_key=cache_key,
    )
    return None if isinstance(got, Full) else got


def test_global_limit(store: Store) -> None:
    limits = GateLimits(global_=3, per_host=100, per_caller=100)
    got = [_acquire(store, host=f"h{i}", caller=f"c{i}", limits=limits) for i in range(5)]
    assert [g is not None for g in got] == [True, True, True, False, False]
    assert live_slots(store, NOW) == 3


def test_per_host_limit_leaves_other_hosts_free(store: Store) -> None:
    limits = GateLimits(global_=100, per_host=2, per_caller=100)
    assert _acquire(store, host="a.example", limits=limits) is not None
    assert _acquire(store, host="a.example", limits=limits) is not None
    assert _acquire(store, host="a.example", limits=limits) is None
    assert _acquire(store, host="b.example", limits=limits) is not None


def test_per_caller_limit_leaves_other_callers_free(store: Store) -> None:
    limits = GateLimits(global_=100, per_host=100, per_caller=2)
    assert _acquire(store, caller="alice", host="a", limits=limits) is not None
    assert _acquire(store, caller="alice", host="b", limits=limits) is not None
    assert _acquire(store, caller="alice", host="c", limits=limits) is None
    assert _acquire(store, caller="bob", host="c", limits=limits) is not None


def test_release_frees_the_slot(store: Store) -> None:
    limits = GateLimits(global_=1, per_host=1, per_caller=1)
    slot = _acquire(store, limits=limits)
    assert slot is not None
    assert _acquire(store, limits=limits) is None
    release_slots(store, HOLDER, [Release(slot)])
    release_slots(store, HOLDER, [Release(slot)])  # twice is harmless
    assert live_slots(store, NOW) == 0
    assert _acquire(store, limits=limits) is not None


def test_slot_ids_are_never_reused(store: Store) -> None:
    # A late release from a process whose slot was reaped must not free a newer slot.
    first = _acquire(store)
    assert first is not None
    release_slots(store, HOLDER, [Release(first)])
    second = _acquire(store)
    assert second is not None and second != first


def test_lapsed_lease_gives_capacity_back(store: Store) -> None:
    limits = GateLimits(global_=2, per_host=2, per_caller=2)
    assert _acquire(store, limits=limits, lease=10) is not None
    assert _acquire(store, limits=limits, lease=10) is not None
    assert _acquire(store, limits=limits, now=NOW + 5) is None
    assert live_slots(store, NOW + 10) == 2  # the lease holds up to and including lease_until
    assert live_slots(store, NOW + 11) == 0
    # The holders "died" without releasing: their leases lapsed, so the capacity is back.
    assert _acquire(store, limits=limits, now=NOW + 11) is not None
    assert _acquire(store, limits=limits, now=NOW + 11) is not None
    assert _acquire(store, limits=limits, now=NOW + 11) is None


def test_renew_slots_keeps_them_past_their_first_lease(store: Store) -> None:
    limits = GateLimits(global_=2, per_host=2, per_caller=2)
    mine = _acquire(store, limits=limits, lease=10, holder="me")
    assert mine is not None
    assert _acquire(store, limits=limits, lease=10, holder="other", host="b") is not None
    assert renew_slots(store, "me", {mine}, NOW, NOW + 100) == 1
    # At NOW + 50 "other" has lapsed (and is reaped), "me" still holds.
    assert _acquire(store, limits=limits, now=NOW + 50, holder="x", host="c") is not None
    assert _acquire(store, limits=limits, now=NOW + 50, holder="y", host="d") is None
    assert live_slots(store, NOW + 50) == 2


def test_renew_slots_renews_only_those_named_and_only_the_holders(store: Store) -> None:
    # A row the holder gave back can come back (a give-back a database crash lost): it is not
    # among the slots the holder names, so it lapses. And an id named by another holder (one a
    # crash handed out twice) is not renewed for it.
    kept = _acquire(store, lease=10, holder="me")
    given_back = _acquire(store, lease=10, holder="me")
    theirs = _acquire(store, lease=10, holder="other")
    assert kept is not None and given_back is not None and theirs is not None
    assert renew_slots(store, "me", {kept, theirs}, NOW, NOW + 100) == 1
    assert live_slots(store, NOW + 50) == 1
    assert renew_slots(store, "me", set(), NOW, NOW + 100) == 0


def test_a_release_frees_only_the_holders_own_slot(store: Store) -> None:
    theirs = _acquire(store, holder="other")
    assert theirs is not None
    release_slots(store, "me", [Release(theirs)])
    assert live_slots(store, NOW) == 1
    release_slots(store, "other", [Release(theirs)])
    assert live_slots(store, NOW) == 0


def test_renew_after_the_slots_were_reaped_finds_none(store: Store) -> None:
    slot = _acquire(store, lease=10, holder="me")
    assert slot is not None
    assert renew_slots(store, "me", {slot}, NOW + 20, NOW + 100) == 0


def test_release_holders_frees_all_of_their_slots(store: Store) -> None:
    for _ in range(3):
        assert _acquire(store, holder="dying") is not None
    assert _acquire(store, holder="dead") is not None
    assert _acquire(store, holder="other") is not None
    assert sorted(slot_holders(store)) == ["dead", "dying", "other"]
    assert release_holders(store, ["dying", "dead"]) == 4
    assert release_holders(store, []) == 0
    assert live_slots(store, NOW) == 1


def test_full_names_the_gate_and_its_slots(store: Store) -> None:
    limits = GateLimits(global_=10, per_host=2, per_caller=10)
    _acquire(store, limits=limits, holder="p1", lease=30)
    _acquire(store, limits=limits, holder="p2", lease=40)
    _acquire(store, limits=limits, holder="p3", host="elsewhere", lease=50)
    full = acquire_slot(
        store,
        holder="me",
        host="example.com",
        caller="alice",
        limits=limits,
        lease_seconds=15,
        now=NOW,
    )
    assert isinstance(full, Full) and full.gate == "host"
    assert sorted(full.slots) == [("p1", NOW + 30), ("p2", NOW + 40)]


def test_headroom_leaves_every_gate_one_slot(store: Store) -> None:
    limits = GateLimits(global_=3, per_host=2, per_caller=3)
    # A batch (headroom 1) gets one of the host's two slots, an interactive fetch the other.
    assert _acquire(store, limits=limits, headroom=1) is not None
    assert _acquire(store, limits=limits, headroom=1) is None
    interactive = _acquire(store, limits=limits)
    assert interactive is not None
    # Globally the batch may fill all but the last slot, which stays interactive.
    assert _acquire(store, limits=limits, host="b", headroom=1) is None
    release_slots(store, HOLDER, [Release(interactive)])
    assert _acquire(store, limits=limits, host="b", headroom=1) is not None
    assert _acquire(store, limits=limits, host="c") is not None


def test_headroom_never_closes_a_gate_of_one(store: Store) -> None:
    limits = GateLimits(global_=8, per_host=1, per_caller=4)
    assert _acquire(store, limits=limits, headroom=1) is not None
    assert _acquire(store, limits=limits, headroom=1) is None


def _race(store: Store, n: int, limits: GateLimits, hosts: int) -> list[int | None]:
    """N threads released at once, each acquiring one slot on one of HOSTS hosts."""
    start = threading.Barrier(n)

    def one(i: int) -> int | None:
        start.wait(timeout=30)
        return _acquire(store, holder=f"t{i}", host=f"h{i % hosts}", limits=limits)

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(one, range(n)))


def test_threads_racing_never_exceed_the_global_limit(store: Store) -> None:
    limits = GateLimits(global_=8, per_host=100, per_caller=100)
    got = _race(store, 40, limits, hosts=5)
    assert sum(g is not None for g in got) == 8
    assert live_slots(store, NOW) == 8


def test_threads_racing_never_exceed_the_per_host_limit(store: Store) -> None:
    limits = GateLimits(global_=100, per_host=2, per_caller=100)
    got = _race(store, 40, limits, hosts=4)
    assert sum(g is not None for g in got) == 8  # 2 for each of the 4 hosts
    assert live_slots(store, NOW) == 8


def test_processes_racing_never_exceed_the_global_limit(store: Store) -> None:
    url = store.engine.url.render_as_string(hide_password=False)
    limits = GateLimits(global_=8, per_host=100, per_caller=100)
    results = run_spawned(acquire_proc, [(url, 5, limits)] * 6)
    slots = [s for r in results for s in r]
    assert len(slots) == 8 and len(set(slots)) == 8
    assert live_slots(store, NOW) == 8


def _last_used(store: Store, key: str) -> float:
    with store.read() as conn:
        return conn.execute(
            sa.select(fetch_cache.c.last_used).where(fetch_cache.c.key == key)
        ).scalar_one()


def test_a_live_cache_entry_answers_the_acquire_and_takes_no_slot(store: Store) -> None:
    envelope = b'{"content": "' + b"x" * 70_000 + b'"}'  # larger than a page, and than TOAST's
    cache_put(store, "k", "standard", envelope, 60.0, 1 << 20, NOW)
    got = _acquire(store, now=NOW + 0.5, cache_key="k")
    assert got == CacheHit(envelope, NOW + 60.0)
    assert live_slots(store, NOW) == 0
    assert _last_used(store, "k") == NOW  # used again within TOUCH_GRANULARITY: not rewritten
    later = NOW + 2 * TOUCH_GRANULARITY
    got = _acquire(store, now=later, cache_key="k")
    assert isinstance(got, CacheHit)
    assert _last_used(store, "k") == later


def test_an_expired_or_missing_cache_entry_takes_a_slot(store: Store) -> None:
    cache_put(store, "old", "standard", b"{}", 10.0, 1 << 20, NOW)
    for key in ("old", "missing"):
        got = _acquire(store, now=NOW + 10.0, cache_key=key)
        assert isinstance(got, int)
    assert live_slots(store, NOW + 10.0) == 2


def test_a_release_caches_its_entry_in_the_same_write(store: Store) -> None:
    slot = _acquire(store)
    assert slot is not None
    entry = CacheEntry("k", "standard", b'{"a": 1}', 60.0, 1 << 20, NOW)
    release_slots(store, HOLDER, [Release(slot, entry)])
    assert live_slots(store, NOW) == 0
    assert cache_get(store, "k", NOW) == CacheHit(b'{"a": 1}', NOW + 60.0)
    assert cache_bytes(store) == len(b'{"a": 1}')


def _entry(key: str, now: float, *, size: int = 100, budget: int = 1 << 20) -> CacheEntry:
    body = b'{"content": "' + key.encode() + b'"}'
    return CacheEntry(key, "standard", body + b" " * (size - len(body)), 60.0, budget, now)


def test_one_give_back_frees_every_slot_and_caches_what_fits(store: Store) -> None:
    slots = [_acquire(store, host=f"h{i}") for i in range(4)]
    assert all(isinstance(slot, int) for slot in slots)
    too_big = _entry("big", NOW, size=600, budget=500)
    releases = [
        Release(slots[0]),
        Release(slots[1], _entry("a", NOW)),
        Release(slots[2], too_big),
        Release(slots[3], _entry("b", NOW, size=150)),
    ]
    release_slots(store, HOLDER, releases)
    assert live_slots(store, NOW) == 0
    assert cached_keys(store) == {"a", "b"}
    assert cache_bytes(store) == 250 == cached_bytes(store)


def test_a_release_that_fills_the_cache_frees_it_down_to_its_low_water_mark(
    store: Store,
) -> None:
    budget = 1600  # sixteen entries of 100 bytes
    for i in range(16):
        cache_put(
            store, f"k{i:02}", "standard", _entry("x", NOW).envelope_json, 60, budget, NOW + i
        )
    slot = _acquire(store)
    assert isinstance(slot, int)
    release_slots(store, HOLDER, [Release(slot, _entry("new", NOW + 20, budget=budget))])
    # Down to 1500 (15/16 of the budget): the two least recently used went, the new one stays.
    assert cached_keys(store) == {f"k{i:02}" for i in range(2, 16)} | {"new"}
    assert cache_bytes(store) == 1500 == cached_bytes(store)


def test_an_acquire_that_gives_back_an_entry_that_fills_the_cache_frees_it_too(
    store: Store,
) -> None:
    budget = 1600
    for i in range(16):
        cache_put(
            store, f"k{i:02}", "standard", _entry("x", NOW).envelope_json, 60, budget, NOW + i
        )
    one = GateLimits(global_=1, per_host=1, per_caller=1)
    held = _acquire(store, limits=one)
    assert isinstance(held, int)
    # The one slot there is: the acquire gives it back before it counts.
    got = acquire_slot(
        store,
        holder="test",
        host="example.com",
        caller="alice",
        limits=one,
        lease_seconds=60.0,
        now=NOW + 20,
        releases=[Release(held, _entry("new", NOW + 20, budget=budget))],
    )
    assert isinstance(got, int) and got != held
    assert cached_keys(store) == {f"k{i:02}" for i in range(2, 16)} | {"new"}
    assert cache_bytes(store) == 1500 == cached_bytes(store)


def test_releases_racing_keep_the_cache_total_exact_and_within_budget(store: Store) -> None:
    budget, n = 2_000, 40
    slots = [_acquire(store, host=f"h{i}") for i in range(n)]
    start = threading.Barrier(n)

    def release(i: int) -> None:
        start.wait(timeout=30)
        # Half the entries share a key with another: upserts race with inserts and evictions.
        entry = _entry(f"k{i % 25}", NOW + i, size=100 + i, budget=budget)
        release_slots(store, HOLDER, [Release(slots[i], entry)])

    with ThreadPoolExecutor(n) as pool:
        list(pool.map(release, range(n)))
    assert live_slots(store, NOW) == 0
    assert cache_bytes(store) == cached_bytes(store) <= budget


@pytest.mark.parametrize(
    "call",
    [
        "sift_take_slot(NULL, 1, 1, 'me', 'h', 'c', 0, 60, 8, 2, 2)",
        "sift_put_entry('k', 'standard', '\\x7b7d'::bytea, 0, 60)",
        "sift_give_back('me', ARRAY[]::bigint[], NULL, NULL, NULL, NULL, NULL)",
    ],
)
def test_on_postgresql_a_fetchs_store_calls_commit_without_waiting_for_the_disk(
    pg_url: str, call: str
) -> None:
    # Each turns the flush off for its own transaction (migration 0009), and only for it: the
    # connection's next transaction has the server's setting again.
    pg = open_store(pg_url)
    try:
        migrate(pg)
        with pg.engine.connect() as conn:
            setting = conn.exec_driver_sql("SHOW synchronous_commit").scalar_one()
            assert setting != "off"
            conn.commit()
            conn.exec_driver_sql(f"SELECT {call}")
            assert conn.exec_driver_sql("SHOW synchronous_commit").scalar_one() == "off"
            conn.commit()
            assert conn.exec_driver_sql("SHOW synchronous_commit").scalar_one() == setting
    finally:
        pg.dispose()
