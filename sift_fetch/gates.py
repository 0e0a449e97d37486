"""This process's side of the fetch gates: take a slot (or say truly when one can free), keep
this process's slots alive while their fetches run, give them back.

A slot is leased for SLOT_LEASE_SECONDS and `keep` renews the slots this process holds every
RENEW_SECONDS, so a process that dies frees its slots within SLOT_LEASE_SECONDS, on any host. A
dead process on this host is noticed sooner: its slots are reaped when they are in the way and
when a new process starts (a restarted process frees its previous incarnation's slots).

A slot is given back without making its caller wait: the write (with the fetch's cache entry)
rides on this process's next acquire, whose store call gives back before it counts, or a flush
task does it FLUSH_DELAY later (as soon as the answer is written when nothing else is in flight);
either way, one store call (on SQLite one transaction; on PostgreSQL the give-back is a call of
its own, one round trip, before the take's).

A batch target never takes a gate's last free slot: interactive requests always find one.
"""

from __future__ import annotations

import asyncio
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
    Release,
    acquire_slot,
    release_holders,
    release_slots,
    renew_slots,
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
# How long a given-back slot waits for this process's next acquire to carry its write, before the
# flush task writes it alone: overlapping fetches then cost one transaction each, not two (raw
# fetches at concurrency 1, when every release waited so: 2.5-2.8 ms of CPU a fetch against
# 2.8-3.5 without the wait, bench/fetch_bench.py). Others see the slot held that much longer;
# no limit changes.
FLUSH_DELAY = 0.005
# With no other fetch of this process in flight, no acquire is likely to come soon: the write
# (with its cache entry, the bulk of a commit) then goes as soon as the answer is on its way (the
# task's turn comes once /v1/fetch has written its response), in the time before the next
# request, rather than on that request's path. Fetches one at a time, interleaved runs: 0.61 and
# 0.66 of the bare proxy at FLUSH_DELAY, 0.67 and 0.74 at 1 ms (bench/fetch_bench.py); 0.60-0.66
# at 1 ms against 0.68-0.79 at once (mean latency, four pairs), a write 1 ms late meeting the
# next request as it came in. With all releases written at once, 8 at a time lost as much
# (0.73-0.84 against 0.88-0.92) to the extra transactions.
IDLE_FLUSH_DELAY = 0.0


class Gates:
    def __init__(self, store: Store, fetch: FetchConfig, holder: str) -> None:
        self._store = store
        self._limits = GateLimits(fetch.global_, fetch.per_host, fetch.per_caller)
        self.holder = holder
        self._held: set[int] = set()  # the slots its fetches hold, which `keep` renews
        # Slots given back but not yet written. The caller answers without waiting for the
        # write: the next acquire writes them in its own store call, or the flush task does.
        # A write lost to a store outage leaves its slots here (their cache entries dropped),
        # never renewed meanwhile, so at worst they lapse.
        self._pending: list[Release] = []
        self._flushing: asyncio.Task[None] | None = None

    async def acquire(
        self, host: str, caller: str, *, batch: bool, cache_key: str | None = None
    ) -> int | CacheHit:
        """A slot for one fetch of HOST by CALLER, or the cache's envelope under CACHE_KEY if
        it has one; Busy, with a true retry_after, if neither."""
        releases = self._take_pending()
        while True:
            try:
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
                    releases=releases,
                )
            except BaseException:
                self._keep_pending(releases)
                raise
            releases = []
            if isinstance(got, CacheHit):
                return got
            if not isinstance(got, Full):
                self._held.add(got)
                return got
            # Reaping only ever shrinks the table, so this loop ends.
            if not await self._store.run(_reap, [holder for holder, _ in got.slots]):
                raise Busy(
                    f"too many fetches in flight ({got.gate} gate); try again shortly",
                    retry_after=retry_after(got, time.time()),
                )

    def release(self, slot: int, cache: CacheEntry | None = None) -> None:
        """Give SLOT back, caching what its fetch got in the same transaction, without waiting
        for the write: it rides on this process's next acquire, or follows FLUSH_DELAY later
        (at once, after the caller's answer, if this was the process's last fetch in flight)."""
        self._held.discard(slot)
        self._pending.append(Release(slot, cache))
        if self._flushing is None or self._flushing.done():
            delay = FLUSH_DELAY if self._held else IDLE_FLUSH_DELAY
            self._flushing = asyncio.get_running_loop().create_task(self._flush_soon(delay))

    async def flush(self) -> None:
        """Write everything given back so far, now (a process that stops gives its slots back
        so); an outage keeps it pending for the next chance."""
        if self._flushing is not None:
            await self._flushing
        await self._write_pending()

    async def _flush_soon(self, delay: float) -> None:
        await anyio.sleep(delay)
        await self._write_pending()

    async def _write_pending(self) -> None:
        while releases := self._take_pending():
            written = await best_effort(
                self._store, "gate.release.unavailable", release_slots, self.holder, releases
            )
            if not written:
                self._keep_pending(releases)
                return

    def _take_pending(self) -> list[Release]:
        releases, self._pending = self._pending, []
        return releases

    def _keep_pending(self, releases: list[Release]) -> None:
        self._pending.extend(Release(release.slot) for release in releases)

    async def keep(self) -> None:
        """Renew this process's slots every RENEW_SECONDS, until cancelled."""
        while True:
            await anyio.sleep(RENEW_SECONDS)
            await self.flush()
            if not self._held:
                continue
            try:
                now = time.time()
                await self._store.run_write(
                    renew_slots,
                    self.holder,
                    frozenset(self._held),  # a copy: the call may run on a store thread
                    now,
                    now + SLOT_LEASE_SECONDS,
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
