"""The worker loop: claim → fetch → store, one target at a time per loop, `[batch] workers` loops
round-robin over the live jobs (the claim picks the job served longest ago), so a batch never
holds more fetch slots than there are loops.

While a target runs, and until its result is stored, a heartbeat renews its row lease; a lost
lease stops the target and writes nothing. A store that is away for a moment (a database restart,
a full disk) costs no result: every store write is retried with backoff while the lease can still
hold, and the job goes on once the store is back. On stop: no more claims, the in-flight targets
get `grace_seconds` to finish and be stored, then any still running is given up (failed
`restart`, its lease released at once).
"""

from __future__ import annotations

import time

import anyio

from sift_fetch.callers import Caller
from sift_fetch.config import BatchConfig
from sift_fetch.identity import loop_name, process_name
from sift_store.batch import Claim, JobChange, TargetResult
from sift_store.batch_claims import (
    abandon,
    claim,
    complete_and_claim,
    complete_target,
    has_work,
    heartbeat,
)
from sift_store.batch_feed import ChangeFeed
from sift_store.engine import Store
from sift_store.outage import is_outage
from sift_worker import observe
from sift_worker.attempt import AttemptLimits, FetchFn, LeaseWatch, run_attempt
from sift_worker.housekeeping import housekeeping
from sift_worker.settings import WorkerSettings

# After an error, a loop pauses before claiming again, doubling the pause while the errors go
# on: up to OUTAGE_PAUSE_MAX_SECONDS while the store is away (to be back at work soon after it
# is), up to ERROR_PAUSE_MAX_SECONDS for anything else.
ERROR_PAUSE_SECONDS = 0.5
OUTAGE_PAUSE_MAX_SECONDS = 4.0
ERROR_PAUSE_MAX_SECONDS = 30.0
# A result write that met an outage is retried after this pause, doubling up to the max.
STORE_RETRY_SECONDS = 0.25
STORE_RETRY_MAX_SECONDS = 2.0


class Worker:
    def __init__(
        self,
        store: Store,
        batch: BatchConfig,
        fetch: FetchFn,
        *,
        deadline: float,
        settings: WorkerSettings | None = None,
    ) -> None:
        self.store = store
        self.batch = batch
        self.settings = settings or WorkerSettings()
        self.feed = ChangeFeed(store, poll_seconds=self.settings.poll_seconds)
        self._fetch = fetch
        self._limits = AttemptLimits(
            deadline=deadline + self.settings.deadline_margin,
            busy_for=batch.busy_retry_for,
            busy_pause_max=self.settings.busy_pause_max,
        )
        self._name = process_name()
        self._stopping = anyio.Event()
        self._inflight: set[anyio.CancelScope] = set()

    async def run(self, stop: anyio.Event, *, hurry: anyio.Event | None = None) -> None:
        """Work until STOP is set, then shut down within the grace (cut short by HURRY)."""
        hurry = hurry or anyio.Event()
        loops_done = anyio.Event()

        async def loops() -> None:
            async with anyio.create_task_group() as tg:
                for n in range(self.batch.workers):
                    tg.start_soon(self._loop, loop_name(self._name, n))
            loops_done.set()

        async with anyio.create_task_group() as background:
            await background.start(self.feed.run)
            background.start_soon(housekeeping, self.store, self.batch, self.settings)
            background.start_soon(loops)
            await stop.wait()
            self._stopping.set()
            self.feed.poke()
            with anyio.move_on_after(self.settings.grace_seconds):
                async with anyio.create_task_group() as waiting:

                    async def until(event: anyio.Event) -> None:
                        await event.wait()
                        waiting.cancel_scope.cancel()

                    waiting.start_soon(until, loops_done)
                    waiting.start_soon(until, hurry)
            for scope in list(self._inflight):
                scope.cancel()
            await loops_done.wait()
            background.cancel_scope.cancel()

    async def _loop(self, name: str) -> None:
        got: Claim | None = None
        pause = ERROR_PAUSE_SECONDS
        # A claim in hand is always served, even once stopping: it may have been taken in the
        # same transaction that stored the previous result, just as the stop came.
        while got is not None or not self._stopping.is_set():
            seen = self.feed.generation
            try:
                if got is None:
                    got = await self._next_claim(name)
                if got is None:
                    await self.feed.wait(seen, self.settings.idle_recheck_seconds)
                    continue
                got = await self._serve(got)
                pause = ERROR_PAUSE_SECONDS
            except Exception as exc:
                # A claim that was in hand lapses and fails `restart` in the housekeeping.
                got = None
                observe.failed("batch.loop.error", exc, worker=name, pause_s=pause)
                with anyio.move_on_after(pause):
                    await self._stopping.wait()
                longest = OUTAGE_PAUSE_MAX_SECONDS if is_outage(exc) else ERROR_PAUSE_MAX_SECONDS
                pause = min(pause * 2, longest)

    async def _next_claim(self, name: str) -> Claim | None:
        if not await self.store.run(has_work):
            return None
        return await self.store.run(
            claim, worker=name, now=time.time(), lease_seconds=self.settings.lease_seconds
        )

    async def _serve(self, got: Claim) -> Claim | None:
        """Run GOT to its stored result; returns the loop's next claim, taken in the same
        transaction as the result unless the worker is stopping."""
        caller = Caller(got.caller, got.caller_class)  # type: ignore[arg-type]
        observe.claimed(got, caller)
        started = time.monotonic()
        watch = LeaseWatch(held_until=time.time() + self.settings.lease_seconds)
        result: TargetResult | None = None
        stored: tuple[JobChange | None, Claim | None] | None = None
        with anyio.CancelScope() as scope:
            self._inflight.add(scope)
            try:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(self._keep_lease, got, watch, scope)
                    result = await run_attempt(self._fetch, got, caller, watch, self._limits)
                    stored = await self._store(got, result, watch)
                    tg.cancel_scope.cancel()
            finally:
                self._inflight.discard(scope)
        if result is None or stored is None:
            # Cancelled: the lease was lost, or the shutdown grace ran out.
            if watch.lost:
                observe.target_lost(got)
            else:
                change = await self.store.run(abandon, got, now=time.time())
                observe.restarted([change] if change else [], reason="shutdown")
            return None
        change, following = stored
        observe.target_stored(got, caller, result, change, time.monotonic() - started)
        return following

    async def _store(
        self, got: Claim, result: TargetResult, watch: LeaseWatch
    ) -> tuple[JobChange | None, Claim | None]:
        """Store RESULT (and take the loop's next claim with it unless stopping), retrying
        while the store is away and the lease can still hold; past that, the outage is raised
        and the target fails `restart` once its lease lapses."""
        pause = STORE_RETRY_SECONDS
        while True:
            try:
                if self._stopping.is_set():
                    return await self.store.run(complete_target, got, result, now=time.time()), None
                return await self.store.run(
                    complete_and_claim,
                    got,
                    result,
                    now=time.time(),
                    lease_seconds=self.settings.lease_seconds,
                )
            except Exception as exc:
                if not is_outage(exc) or time.time() + pause >= watch.held_until:
                    raise
                observe.failed("batch.store.retry", exc, job=got.job_id, idx=got.idx, pause_s=pause)
            await anyio.sleep(pause)
            pause = min(pause * 2, STORE_RETRY_MAX_SECONDS)

    async def _keep_lease(self, got: Claim, watch: LeaseWatch, scope: anyio.CancelScope) -> None:
        pause = self.settings.heartbeat_seconds
        while True:
            await anyio.sleep(pause)
            renewed_at = time.time()
            try:
                state = await self.store.run(
                    heartbeat, got, now=renewed_at, lease_seconds=self.settings.lease_seconds
                )
            except Exception as exc:
                # Try again soon: the lease must be renewed as soon as the store is back. If
                # it stays away, the lease lapses, the target fails `restart`, and our late
                # result is fenced out.
                observe.failed("batch.heartbeat.error", exc, job=got.job_id, idx=got.idx)
                pause = min(self.settings.heartbeat_seconds, STORE_RETRY_MAX_SECONDS)
                continue
            pause = self.settings.heartbeat_seconds
            if state == "lost":
                watch.lost = True
                scope.cancel()
                return
            watch.held_until = renewed_at + self.settings.lease_seconds
            if state == "cancelled":
                watch.cancelled.set()
