"""The worker's timer: fail targets whose worker died, sweep expired jobs, keep the byte budget.

Every worker runs it; the store functions are transactions, so two running at once is harmless.
"""

from __future__ import annotations

import time

import anyio
import structlog

from sift_fetch.config import BatchConfig
from sift_fetch.identity import dead_local
from sift_store.batch_claims import fail_lapsed, running_workers
from sift_store.batch_retention import evict_over_budget, sweep
from sift_store.engine import Store
from sift_worker import observe
from sift_worker.settings import WorkerSettings

log = structlog.get_logger("sift.batch")


def housekeep_once(store: Store, batch: BatchConfig) -> None:
    now = time.time()
    dead = dead_local(running_workers(store))
    observe.restarted(fail_lapsed(store, now=now, dead_workers=dead), reason="lapsed")
    swept = sweep(store, now=now, ttl=batch.ttl)
    evicted = evict_over_budget(store, max_bytes=batch.max_bytes)
    if swept or evicted:
        log.info("batch.sweep", swept=swept, evicted=evicted)


async def housekeeping(store: Store, batch: BatchConfig, settings: WorkerSettings) -> None:
    """Run `housekeep_once` now and then every `housekeeping_seconds`, until cancelled."""
    while True:
        try:
            await store.run(housekeep_once, batch)
        except Exception as exc:
            observe.failed("batch.housekeeping.error", exc)
        await anyio.sleep(settings.housekeeping_seconds)
