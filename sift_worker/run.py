"""The worker process: the runtime (store, guarded HTTP client, render pool) plus the worker
loop, until SIGTERM or SIGINT. A second signal cuts the shutdown grace short."""

from __future__ import annotations

import os
import signal

import anyio
import structlog
from anyio.abc import TaskStatus

from sift_fetch.callers import Caller
from sift_fetch.config import Config
from sift_fetch.guard import Resolver
from sift_fetch.http import Connector
from sift_fetch.runtime import Runtime
from sift_fetch.target import Target
from sift_worker.attempt import Fetched
from sift_worker.settings import WorkerSettings
from sift_worker.worker import Worker

log = structlog.get_logger("sift.batch")


def main(
    config: Config,
    *,
    settings: WorkerSettings | None = None,
    resolver: Resolver | None = None,
    connector: Connector | None = None,
) -> int:
    """Run the batch worker in this process until signalled; 0 after a clean stop.
    `resolver` and `connector` are for tests, as in `Runtime.open`."""
    rt = Runtime.open(config, resolver=resolver, connector=connector)
    return anyio.run(_run, rt, settings or WorkerSettings())


async def _run(rt: Runtime, settings: WorkerSettings) -> int:
    from sift_fetch.pipeline import fetch_target

    config = rt.config

    async def fetch(caller: Caller, target: Target) -> Fetched:
        return await fetch_target(rt, caller, target, batch=True)

    worker = Worker(
        rt.store, config.batch, fetch, deadline=config.fetch.batch_total_timeout, settings=settings
    )
    stop, hurry = anyio.Event(), anyio.Event()
    try:
        async with anyio.create_task_group() as tg:
            await tg.start(_on_signals, stop, hurry)
            tg.start_soon(rt.gates.keep)
            log.info(
                "batch.worker.start",
                pid=os.getpid(),
                loops=config.batch.workers,
                shared_metrics=bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR")),
            )
            await worker.run(stop, hurry=hurry)
            tg.cancel_scope.cancel()
    finally:
        await rt.aclose()
    log.info("batch.worker.stop", pid=os.getpid())
    return 0


async def _on_signals(
    stop: anyio.Event, hurry: anyio.Event, *, task_status: TaskStatus[None]
) -> None:
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        task_status.started()
        async for signum in signals:
            log.info("batch.worker.signal", signal=signal.Signals(signum).name, hurry=stop.is_set())
            if stop.is_set():
                hurry.set()
            stop.set()
