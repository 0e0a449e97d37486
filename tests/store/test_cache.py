"""Fetch cache: round trip, TTL, upsert, partition by key, LRU eviction under the byte budget."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import sqlalchemy as sa

from sift_store.cache import (
    LRU_BATCH,
    CacheHit,
    cache_bytes,
    cache_get,
    cache_purge_expired,
    cache_put,
    fetch_cache,
)
from sift_store.engine import Store, open_store
from sift_store.migrate import migrate
from tests.support.cache_rows import cached_bytes, cached_keys

T0 = 1_700_000_000.0
BIG = 1 << 30


def _env(tag: str, size: int = 100) -> bytes:
    """An envelope of exactly SIZE bytes (UTF-8)."""
    head = f'{{"content": "{tag}'
    return (head + "x" * (size - len(head) - 2) + '"}').encode()


def _json(hit: CacheHit | None) -> bytes | None:
    return None if hit is None else hit.envelope_json


def test_round_trip(store: Store) -> None:
    env = '{"success": true, "content": "h\\u00e9llo \u00e9t\u00e9"}'.encode()
    cache_put(store, "k1", "standard", env, 60, BIG, T0)
    hit = cache_get(store, "k1", T0 + 1)
    assert hit is not None and hit.envelope_json == env and hit.expires_at == T0 + 60
    assert cache_get(store, "missing", T0 + 1) is None
    assert cache_bytes(store) == len(env)


def test_entry_expires_after_its_ttl(store: Store) -> None:
    cache_put(store, "k", "standard", _env("a"), 60, BIG, T0)
    assert cache_get(store, "k", T0 + 59.9) is not None
    assert cache_get(store, "k", T0 + 60) is None


def test_put_replaces_the_entry_and_its_size(store: Store) -> None:
    cache_put(store, "k", "standard", _env("old", 300), 60, BIG, T0)
    cache_put(store, "k", "standard", _env("new", 120), 60, BIG, T0 + 100)
    assert _json(cache_get(store, "k", T0 + 101)) == _env("new", 120)  # and a fresh TTL
    assert cache_bytes(store) == 120 == cached_bytes(store)


def test_caller_classes_are_separate_entries(store: Store) -> None:
    # The fetch package folds the caller class into the key; the store keeps keys apart.
    cache_put(store, "std:url", "standard", _env("std"), 60, BIG, T0)
    cache_put(store, "res:url", "restricted", _env("res"), 60, BIG, T0)
    assert _json(cache_get(store, "std:url", T0)) == _env("std")
    assert _json(cache_get(store, "res:url", T0)) == _env("res")
    with store.read() as conn:
        classes = dict(conn.execute(sa.select(fetch_cache.c.key, fetch_cache.c.caller_class)).all())
    assert classes == {"std:url": "standard", "res:url": "restricted"}


def test_least_recently_used_goes_first_over_the_budget(store: Store) -> None:
    budget = 350
    for i, key in enumerate("abc"):
        cache_put(store, key, "standard", _env(key), 600, budget, T0 + i)
    assert cache_get(store, "a", T0 + 10) is not None  # a is now the most recently used
    cache_put(store, "d", "standard", _env("d"), 600, budget, T0 + 11)
    assert cached_keys(store) == {"a", "c", "d"}
    cache_put(store, "e", "standard", _env("e", 200), 600, budget, T0 + 12)
    assert cached_keys(store) == {"d", "e"}  # c then a, in LRU order, to under the low-water mark
    assert cache_bytes(store) == 300 == cached_bytes(store)


def test_a_full_cache_frees_down_to_its_low_water_mark(store: Store) -> None:
    budget = 1600  # sixteen entries of 100 bytes
    for i in range(17):
        cache_put(store, f"k{i:02}", "standard", _env(str(i)), 600, budget, T0 + i)
    # The 17th put went over: it freed two entries (down to 1500 = 15/16 of the budget), not one,
    assert cached_keys(store) == {f"k{i:02}" for i in range(2, 17)}
    # so the next put fits without evicting anything.
    cache_put(store, "k17", "standard", _env("17"), 600, budget, T0 + 17)
    assert len(cached_keys(store)) == 16
    assert cache_bytes(store) == budget == cached_bytes(store)


def test_eviction_reads_its_candidates_from_the_index_alone(sqlite_store: Store) -> None:
    """On SQLite a row's nbytes lies after its envelope: read from the table, each candidate's
    size would walk the envelope's overflow pages."""
    sql = LRU_BATCH.params(keep="k").compile(
        dialect=sqlite_store.engine.dialect, compile_kwargs={"literal_binds": True}
    )
    with sqlite_store.read() as conn:
        plan = " ".join(row[-1] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}"))
    assert "COVERING INDEX ix_fetch_cache_lru" in plan
    assert "TEMP B-TREE" not in plan  # the index gives the order too


def test_expired_entries_are_evicted_before_live_ones(store: Store) -> None:
    budget = 320  # its low-water mark, 300, holds three entries
    cache_put(store, "old-live", "standard", _env("1"), 600, budget, T0)
    cache_put(store, "new-dead", "standard", _env("2"), 5, budget, T0 + 1)
    cache_put(store, "x", "standard", _env("3"), 600, budget, T0 + 2)
    cache_put(store, "y", "standard", _env("4"), 600, budget, T0 + 10)
    assert cached_keys(store) == {"old-live", "x", "y"}


def test_an_envelope_bigger_than_the_budget_is_not_cached(store: Store) -> None:
    cache_put(store, "small", "standard", _env("s"), 600, 500, T0)
    cache_put(store, "huge", "standard", _env("h", 501), 600, 500, T0 + 1)
    assert cached_keys(store) == {"small"}


def test_purge_expired(store: Store) -> None:
    cache_put(store, "short", "standard", _env("s"), 10, BIG, T0)
    cache_put(store, "long", "standard", _env("l", 150), 1000, BIG, T0)
    assert cache_purge_expired(store, T0 + 5) == 0
    assert cache_purge_expired(store, T0 + 10) == 1
    assert cached_keys(store) == {"long"}
    assert cache_bytes(store) == 150


def test_purge_heals_a_drifted_total(store: Store) -> None:
    cache_put(store, "a", "standard", _env("a"), 600, BIG, T0)
    cache_put(store, "b", "standard", _env("b"), 600, BIG, T0)
    with store.write() as conn:  # rows removed behind the store's back
        conn.execute(sa.delete(fetch_cache).where(fetch_cache.c.key == "a"))
    cache_purge_expired(store, T0)
    assert cache_bytes(store) == 100


def test_concurrent_puts_keep_the_total_exact_and_within_budget(store: Store) -> None:
    budget, n = 2_000, 40
    start = threading.Barrier(n)

    def put(i: int) -> None:
        start.wait(timeout=30)
        # Half the writers hit keys another writer also writes: upserts race with inserts.
        cache_put(store, f"k{i % 25}", "standard", _env(str(i), 100 + i), 600, budget, T0 + i)

    with ThreadPoolExecutor(n) as pool:
        list(pool.map(put, range(n)))
    assert cache_bytes(store) == cached_bytes(store) <= budget


def test_postgresql_compresses_an_envelope_with_lz4(pg_url: str) -> None:
    store = open_store(pg_url)
    try:
        migrate(store)
        # Compressible and over TOAST's 2 KB threshold, as a page's envelope is.
        envelope = b'{"content": "' + b"<p>the keeper logged the weather</p>" * 2000 + b'"}'
        cache_put(store, "k", "standard", envelope, 600, BIG, T0)
        with store.read() as conn:
            method = conn.execute(
                sa.select(sa.func.pg_column_compression(fetch_cache.c.envelope))
            ).scalar_one()
        assert method == "lz4"
        assert _json(cache_get(store, "k", T0)) == envelope
    finally:
        store.dispose()
