"""This process's side of the fetch gates: take a slot (or say truly when one can free), keep
this process's slots alive while their fetches run, give them back.

A slot is leased for SLOT_LEASE_SECONDS and `keep` renews all of this process's slots every
RENEW_SECONDS, so a process that dies frees its slots within SLOT_LEASE_SECONDS, on any host. A
dead process on this host is noticed sooner: its slots are reaped when they are in the way and
when a new process starts (a restarted process frees its previous incarnation's slots).

A batch target never takes a gate's last free slot: interactive requests always find one.
"""

from __future__ import annotations

import time

import anyio
import structlog

from sift_fetch.config import FetchConfig
from sift_fetch.errors import Busy
from sift_fetch.identity import dead_local
from sift_store.cache import CacheEntry, CacheHit
from sift_store.engine import Store
from sift_store.gates import (
    Full,
    GateLimits,
    acquire_slot,
    release_holders,
    release_slot,
    renew_holder,
    slot_holders,
)
from sift_store.outage import best_effort, is_outage, outage_reason

log = structlog.get_logger("sift.gates")

SLOT_LEASE_SECONDS = 15.0
RENEW_SECONDS = 5.0
# A live holder renews every RENEW_SECONDS, so its leases always reach at least this far ahead
# (a second is left for a slow renewal); a lease that reaches less far has stopped being renewed.
FRESH_AHEAD = SLOT_LEASE_SECONDS - RENEW_SECONDS - 1.0
# A full gate whose holders are alive frees a slot when one of their fetches ends: most take
# about a second.
LIVE_RETRY_AFTER = 1.0


class Gates:
    def __init__(self, store: Store, fetch: FetchConfig, holder: str) -> None:
        self._store = store
        self._limits = GateLimits(fetch.global_, fetch.per_host, fetch.per_caller)
        self.holder = holder
        self._held = 0
        # Slots whose release met a store outage: released again at the next chance, and
        # never renewed meanwhile, so at worst they lapse.
        self._unreleased: set[int] = set()

    async def acquire(
        self, host: str, caller: str, *, batch: bool, cache_key: str | None = None
    ) -> int | CacheHit:
        """A slot for one fetch of HOST by CALLER, or the cache's envelope under CACHE_KEY if
        it has one; Busy, with a true retry_after, if neither."""
        await self._release_unreleased()
        while True:
            got = await self._store.run_write(
                acquire_slot,
                holder=self.holder,
                host=host,
                caller=caller,
                limits=self._limits,
                lease_seconds=SLOT_LEASE_SECONDS,
                now=time.time(),
                headroom=1 if batch else 0,
                cache_key=cache_key,
            )
            if isinstance(got, CacheHit):
                return got
            if not isinstance(got, Full):
                self._held += 1
                return got
            # Reaping only ever shrinks the table, so this loop ends.
            if not await self._store.run(_reap, [holder for holder, _ in got.slots]):
                raise Busy(
                    f"too many fetches in flight ({got.gate} gate); try again shortly",
                    retry_after=retry_after(got, time.time()),
                )

    async def release(self, slot: int, cache: CacheEntry | None = None) -> None:
        """Give SLOT back, caching what its fetch got in the same transaction; an outage loses
        the cache entry, and the slot is released again at the next chance."""
        self._held -= 1
        args = (slot, cache)
        if not await best_effort(self._store, "gate.release.unavailable", release_slot, *args):
            self._unreleased.add(slot)

    async def _release_unreleased(self) -> None:
        for slot in list(self._unreleased):
            if await best_effort(self._store, "gate.release.unavailable", release_slot, slot):
                self._unreleased.discard(slot)

    async def keep(self) -> None:
        """Renew this process's slots every RENEW_SECONDS, until cancelled."""
        while True:
            await anyio.sleep(RENEW_SECONDS)
            await self._release_unreleased()
            if not self._held:
                continue
            try:
                now = time.time()
                await self._store.run_write(
                    renew_holder,
                    self.holder,
                    now,
                    now + SLOT_LEASE_SECONDS,
                    frozenset(self._unreleased),
                )
            except Exception as exc:
                # Keep renewing: a store that stays away longer than a lease loses our slots
                # to others, which only lets a few more fetches run at once for a moment.
                if is_outage(exc):
                    log.warning("gate.renew.unavailable", reason=outage_reason(exc))
                else:
                    log.error("gate.renew.error", error_type=type(exc).__name__)

    def reap_dead_local(self) -> int:
        """Free the slots of this host's dead processes (a previous incarnation's among them)."""
        return _reap(self._store, slot_holders(self._store))


def _reap(store: Store, holders: list[str]) -> int:
    dead = dead_local(set(holders))
    freed = release_holders(store, dead)
    if freed:
        log.info("gate.reaped", processes=len(dead), slots=freed)
    return freed


def retry_after(full: Full, now: float) -> float:
    """When a slot of the full gate can really free: soon if a holder is alive (its fetch ends),
    else when the earliest lease of a holder that stopped renewing lapses."""
    ends = [
        LIVE_RETRY_AFTER if until - now >= FRESH_AHEAD else until - now for _, until in full.slots
    ]
    return round(max(1.0, min(ends, default=LIVE_RETRY_AFTER)), 1)
