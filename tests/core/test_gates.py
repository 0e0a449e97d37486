"""This process's side of the gates, on a real store: a dead process's slots free quickly (at once
on its own host, within a lease elsewhere), a busy answer says when a slot can really free, and
a release is written after the caller goes on (by the next acquire, or at once), and one lost to
an outage is done again rather than renewed."""

from __future__ import annotations

import subprocess
import sys
import time

import anyio
import pytest
import sqlalchemy as sa

from sift_fetch import gates as gates_module
from sift_fetch.config import FetchConfig
from sift_fetch.errors import Busy
from sift_fetch.gates import Gates, retry_after
from sift_fetch.identity import process_name
from sift_store.cache import CacheEntry, cache_get
from sift_store.engine import Store
from sift_store.gates import Full, GateLimits, acquire_slot, gate_slot, live_slots, slot_holders
from tests.support.storefaults import sqlite_locked

ONE_PER_HOST = FetchConfig(per_host=1)
ELSEWHERE = "other-host|1|4242|cafe"  # a process on another host: never judged, only leased


def _dead_local_name() -> str:
    """The name a process of ours had, on this host, once it has exited."""
    child = subprocess.run(
        [sys.executable, "-c", "from sift_fetch.identity import process_name as p; print(p())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return child.stdout.strip()


def _hold(store: Store, holder: str, lease: float, host: str = "example.com") -> int:
    got = acquire_slot(
        store,
        holder=holder,
        host=host,
        caller="bob",
        limits=GateLimits(8, 2, 4),
        lease_seconds=lease,
        now=time.time(),
    )
    assert not isinstance(got, Full)
    return got


def test_a_dead_local_holder_is_reaped_when_in_the_way(store: Store) -> None:
    _hold(store, _dead_local_name(), lease=60)
    gates = Gates(store, ONE_PER_HOST, process_name())
    slot = anyio.run(lambda: gates.acquire("example.com", "alice", batch=False))
    assert slot > 0
    assert slot_holders(store) == [gates.holder]


def test_a_new_process_frees_its_dead_predecessors_slots(store: Store) -> None:
    _hold(store, _dead_local_name(), lease=60)
    _hold(store, ELSEWHERE, lease=60, host="b.example")
    assert Gates(store, ONE_PER_HOST, process_name()).reap_dead_local() == 1
    assert slot_holders(store) == [ELSEWHERE]


def test_busy_says_when_a_slot_can_really_free(store: Store) -> None:
    # Another host's process stopped renewing: its lease lapses in about 6 s, not sooner.
    _hold(store, ELSEWHERE, lease=6)
    gates = Gates(store, ONE_PER_HOST, process_name())
    with pytest.raises(Busy) as refused:
        anyio.run(lambda: gates.acquire("example.com", "alice", batch=False))
    assert refused.value.retry_after is not None and 4.0 <= refused.value.retry_after <= 6.0
    assert "host gate" in refused.value.detail


def test_retry_after_is_short_while_the_holders_are_alive() -> None:
    now = 1000.0
    fresh = Full("host", [("a", now + gates_module.SLOT_LEASE_SECONDS)])
    assert retry_after(fresh, now) == gates_module.LIVE_RETRY_AFTER
    stale = Full("host", [("a", now + 3.5), ("b", now + 8.0)])
    assert retry_after(stale, now) == 3.5
    lapsing = Full("global", [("a", now + 0.2)])
    assert retry_after(lapsing, now) == 1.0


def test_renewed_slots_outlive_their_lease_and_lapse_once_renewal_stops(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gates_module, "SLOT_LEASE_SECONDS", 0.6)
    monkeypatch.setattr(gates_module, "RENEW_SECONDS", 0.1)
    gates = Gates(store, ONE_PER_HOST, process_name())

    async def main() -> None:
        # Not a timed assertion: a broken lease would hang here.
        with anyio.fail_after(10):
            await run(gates)

    async def run(gates: Gates) -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(gates.keep)
            await gates.acquire("example.com", "alice", batch=False)
            await anyio.sleep(1.5)  # well past the first lease: kept alive by renewals
            assert await store.run(live_slots, time.time()) == 1
            tg.cancel_scope.cancel()  # the process "dies": renewals stop, nothing released
        while await store.run(live_slots, time.time()):
            await anyio.sleep(0.05)

    anyio.run(main)


def test_a_release_is_written_after_the_caller_goes_on(store: Store) -> None:
    gates = Gates(store, ONE_PER_HOST, process_name())

    async def main() -> None:
        slot = await gates.acquire("example.com", "alice", batch=False)
        gates.release(slot)
        assert slot_holders(store) == [gates.holder]  # nothing awaited yet: not written
        with anyio.fail_after(10):  # not a timed assertion: a flush that never came would hang
            while slot_holders(store):
                await anyio.sleep(0.01)
        await gates.flush()

    anyio.run(main)


def test_a_release_waits_for_the_next_acquire_only_while_other_fetches_run(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A wait no test outlives: only the next acquire can write a release while others run.
    monkeypatch.setattr(gates_module, "FLUSH_DELAY", 3600.0)
    monkeypatch.setattr(gates_module, "IDLE_FLUSH_DELAY", 0.0)
    busy, idle = (Gates(store, FetchConfig(), process_name()) for _ in range(2))

    def held() -> int:
        return live_slots(store, time.time())

    async def main() -> None:
        first = await busy.acquire("a.example", "alice", batch=False)
        await busy.acquire("b.example", "alice", batch=False)
        busy.release(first)  # the second is still in flight
        await anyio.sleep(0.2)
        assert held() == 2
        await busy.acquire("c.example", "alice", batch=False)  # carries the release
        assert held() == 2
        # The last fetch in flight: its release goes without waiting for anyone.
        only = await idle.acquire("d.example", "alice", batch=False)
        idle.release(only)
        with anyio.fail_after(10):  # not a timed assertion: a flush that never came would hang
            while held() > 2:
                await anyio.sleep(0.01)

    anyio.run(main)


def test_the_next_acquire_gives_back_what_is_pending_first(store: Store) -> None:
    # One slot per host: had the pending release not been written by the acquire before its
    # count, the second acquire would be refused.
    gates = Gates(store, ONE_PER_HOST, process_name())
    entry = CacheEntry("k", "standard", b'{"content": "x"}', 60, 1 << 20, time.time())

    async def main() -> None:
        first = await gates.acquire("example.com", "alice", batch=False)
        gates.release(first, entry)
        second = await gates.acquire("example.com", "alice", batch=False)
        assert second != first
        assert cache_get(store, "k", time.time()) is not None
        gates.release(second)
        await gates.flush()

    anyio.run(main)
    assert slot_holders(store) == []


def test_a_release_lost_to_an_outage_is_never_renewed_and_written_at_the_next_chance(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gates_module, "RENEW_SECONDS", 0.05)
    gates = Gates(sqlite_store, ONE_PER_HOST, process_name())
    renewed: list[frozenset[int]] = []
    renew = gates_module.renew_slots

    def watched(store: Store, holder: str, slots: frozenset[int], now: float, until: float) -> int:
        renewed.append(slots)
        return renew(store, holder, slots, now, until)

    monkeypatch.setattr(gates_module, "renew_slots", watched)

    async def main() -> None:
        held = await gates.acquire("example.com", "alice", batch=False)
        lost = await gates.acquire("example.org", "alice", batch=False)
        with sqlite_locked(sqlite_store):
            gates.release(lost)
            await gates.flush()  # meets the lock: stays pending
            assert _slots(sqlite_store) == {held, lost}
            # Not a timed assertion: renewals that never came would hang here.
            with anyio.fail_after(20):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(gates.keep)
                    while len(renewed) < 2:
                        await anyio.sleep(0.01)
                    tg.cancel_scope.cancel()
        assert all(slots == {held} for slots in renewed)
        await gates.flush()  # the store is back
        assert _slots(sqlite_store) == {held}
        gates.release(held)
        await gates.flush()

    anyio.run(main)


def _slots(store: Store) -> set[int]:
    with store.read() as conn:
        return set(conn.execute(sa.select(gate_slot.c.id)).scalars())
