"""Wakes idle workers when the store may hold new batch work, at almost no cost while idle.

SQLite: `PRAGMA data_version` on a dedicated connection changes whenever another connection
commits; reading it costs a few microseconds, so it is polled every few milliseconds.
PostgreSQL: `LISTEN` on the channel that `create_job` notifies in its transaction.

Waiters compare generations, so a change that lands between a worker's empty claim and its
wait is never missed: the worker notes the generation before it claims and waits for a newer one.
"""

from __future__ import annotations

import sqlite3

import anyio
import psycopg
import structlog
from anyio.abc import TaskStatus

from sift_store.batch import NOTIFY_CHANNEL
from sift_store.engine import Store

log = structlog.get_logger("sift.batch")

SQLITE_POLL_SECONDS = 0.01
PG_RECONNECT_SECONDS = 1.0


class ChangeFeed:
    def __init__(self, store: Store, *, poll_seconds: float = SQLITE_POLL_SECONDS) -> None:
        self._store = store
        self._poll_seconds = poll_seconds
        self._event = anyio.Event()
        self.generation = 0

    def poke(self) -> None:
        """Wake every waiter (a change, or a reason of the caller's own such as shutdown)."""
        self.generation += 1
        self._event.set()
        self._event = anyio.Event()

    async def wait(self, since: int, timeout: float) -> None:
        """Return once the generation has moved past SINCE, or after TIMEOUT seconds."""
        with anyio.move_on_after(timeout):
            while self.generation == since:
                await self._event.wait()

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Watch the store until cancelled; start it with `TaskGroup.start`."""
        if self._store.is_sqlite:
            await self._poll_sqlite(task_status)
        else:
            await self._listen_pg(task_status)

    async def _poll_sqlite(self, task_status: TaskStatus[None]) -> None:
        path = self._store.engine.url.database
        conn = sqlite3.connect(path or ":memory:", isolation_level=None, check_same_thread=False)
        try:
            last = conn.execute("PRAGMA data_version").fetchone()[0]
            task_status.started()
            while True:
                await anyio.sleep(self._poll_seconds)
                version = conn.execute("PRAGMA data_version").fetchone()[0]
                if version != last:
                    last = version
                    self.poke()
        finally:
            conn.close()

    async def _listen_pg(self, task_status: TaskStatus[None]) -> None:
        conninfo = self._store.engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False
        )
        started = False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    if not started:
                        task_status.started()
                        started = True
                    else:
                        self.poke()  # notifications sent while we were away are lost
                    async for _ in conn.notifies():
                        self.poke()
            except psycopg.OperationalError as exc:
                log.warning("batch.feed.reconnect", error_type=type(exc).__name__)
                if not started:
                    task_status.started()
                    started = True
                await anyio.sleep(PG_RECONNECT_SECONDS)
