"""Run the real worker loop in-process against a store, with an injected fetch function."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import anyio

from sift_fetch.callers import Caller
from sift_fetch.config import BatchConfig, Config
from sift_fetch.guard import Resolver
from sift_fetch.pipeline import fetch_target
from sift_fetch.runtime import Runtime
from sift_fetch.target import Target
from sift_store.batch import JobView
from sift_store.batch_jobs import get_job
from sift_store.engine import Store
from sift_worker.attempt import Fetched
from sift_worker.settings import WorkerSettings
from sift_worker.worker import Worker
from tests.support.net import Connector

FAST = WorkerSettings(
    lease_seconds=5.0,
    heartbeat_seconds=0.05,
    housekeeping_seconds=0.2,
    idle_recheck_seconds=0.5,
    poll_seconds=0.005,
    grace_seconds=5.0,
    busy_pause_max=0.01,
    deadline_margin=0.0,
)
# Not a timed assertion: only keeps a broken worker from hanging the suite.
HANG_GUARD = 30.0


@dataclass
class Reply:
    envelope: dict[str, Any]
    outcome: str = "ok"


def ok_reply(target: Target) -> Reply:
    return Reply({"success": True, "url": target.url, "content": f"body of {target.url}"})


def fail_reply(outcome: str, error: str, hint: str | None = "retry", **extra: Any) -> Reply:
    return Reply({"success": False, "error": error, "hint": hint, **extra}, outcome)


@dataclass
class Recorder:
    """An injected fetch: records each call, answers with REPLY (sync or async)."""

    reply: Callable[[Caller, Target], Awaitable[Fetched] | Fetched] = lambda _c, t: ok_reply(t)
    calls: list[tuple[str, str]] = field(default_factory=list)  # (caller, url)

    async def __call__(self, caller: Caller, target: Target) -> Fetched:
        self.calls.append((caller.name, target.url))
        out = self.reply(caller, target)
        if isinstance(out, Awaitable):
            return await out
        return out


def job(store: Store, job_id: str, caller: str = "alice") -> JobView:
    view = get_job(store, job_id, caller=caller, results=True)
    assert view is not None
    return view


def finished(store: Store, job_id: str, caller: str = "alice") -> Callable[[], bool]:
    def check() -> bool:
        view = job(store, job_id, caller)
        return view.status not in ("queued", "running") and not any(
            t.status == "running" for t in view.targets
        )

    return check


def run_worker(
    store: Store,
    fetch: Callable[[Caller, Target], Awaitable[Fetched]],
    until: Callable[[], bool],
    *,
    batch: BatchConfig | None = None,
    settings: WorkerSettings = FAST,
    deadline: float = 10.0,
    meanwhile: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Run a worker until UNTIL() holds (checked in a thread), then stop it cleanly.
    MEANWHILE runs beside it, for tests that act on the store while a target is in flight."""

    async def main() -> None:
        worker = Worker(store, batch or BatchConfig(), fetch, deadline=deadline, settings=settings)
        stop = anyio.Event()
        with anyio.fail_after(HANG_GUARD):
            async with anyio.create_task_group() as tg:
                tg.start_soon(worker.run, stop)
                if meanwhile is not None:
                    await meanwhile()
                while not await anyio.to_thread.run_sync(until):
                    await anyio.sleep(0.005)
                stop.set()

    anyio.run(main)


async def eventually(check: Callable[[], bool]) -> None:
    while not await anyio.to_thread.run_sync(check):
        await anyio.sleep(0.005)


def run_pipeline_worker(
    config: Config,
    store: Store,
    until: Callable[[], bool],
    *,
    settings: WorkerSettings = FAST,
    resolver: Resolver | None = None,
    loops: int | None = None,
    meanwhile: Callable[[Runtime], Awaitable[None]] | None = None,
) -> None:
    """The worker loop with the real pipeline (`fetch_target`, batch deadline) on STORE, which
    the runtime shares, until UNTIL() holds; every connection goes to 127.0.0.1 or fails the
    test. MEANWHILE gets the runtime, for interactive fetches beside the batch."""
    batch = config.batch if loops is None else replace(config.batch, workers=loops)

    async def main() -> None:
        rt = Runtime.open(config, store=store, resolver=resolver, connector=Connector())

        async def fetch(caller: Caller, target: Target) -> Fetched:
            return await fetch_target(rt, caller, target, batch=True)

        worker = Worker(store, batch, fetch, deadline=30, settings=settings)
        stop = anyio.Event()
        try:
            with anyio.fail_after(HANG_GUARD):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(worker.run, stop)
                    if meanwhile is not None:
                        await meanwhile(rt)
                    await eventually(until)
                    stop.set()
        finally:
            await rt.aclose()  # the test's store stays open

    anyio.run(main)
