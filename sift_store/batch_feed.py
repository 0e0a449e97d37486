"""Wakes idle workers when the store may hold new batch work, at almost no cost while idle.

SQLite: `PRAGMA data_version` on a dedicated connection changes whenever another connection
commits. On Linux, inotify on the database's directory says when any process writes the WAL, and
data_version then confirms the commit, so an idle worker sleeps until there is something to see.
Elsewhere a thread polls data_version every few tens of milliseconds (cheap, but not free: each
wake-up of an idle process costs tens of microseconds of CPU on a virtual machine).
PostgreSQL: `LISTEN` on the channel that `create_job` notifies in its transaction.

Waiters compare generations, so a change that lands between a worker's empty claim and its
wait is never missed: the worker notes the generation before it claims and waits for a newer one.
"""

from __future__ import annotations

import os
import sqlite3
import threading

import anyio
import psycopg
import structlog
from anyio.abc import TaskStatus

from sift_store.batch import NOTIFY_CHANNEL
from sift_store.engine import Store
from sift_store.fswatch import DirWatch

log = structlog.get_logger("sift.batch")

SQLITE_POLL_SECONDS = 0.02
# After a write to the WAL, how long to look for the commit it belongs to, and how often: SQLite
# publishes a commit in shared memory just after its last WAL write, so the first look can be
# a few microseconds early. A write that is no commit (a checkpoint) ends the look unseen; the
# worker's own periodic re-check covers a committer stalled for longer than the look.
CONFIRM_SECONDS = 0.02
CONFIRM_POLL_SECONDS = 0.001
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
        if not self._store.is_sqlite:
            await self._listen_pg(task_status)
            return
        path = self._store.engine.url.database or ":memory:"
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        watch = (
            None if path == ":memory:" else DirWatch.open(os.path.dirname(os.path.abspath(path)))
        )
        if watch is None:
            await self._poll_sqlite(conn, task_status)
            return
        try:
            await self._watch_sqlite(conn, watch, os.path.basename(path), task_status)
        finally:
            watch.close()
            conn.close()

    async def _watch_sqlite(
        self,
        conn: sqlite3.Connection,
        watch: DirWatch,
        db_name: str,
        task_status: TaskStatus[None],
    ) -> None:
        last = _data_version(conn)
        task_status.started()
        while True:
            await anyio.wait_readable(watch)
            written = watch.written()
            if written is not None and not any(name.startswith(db_name) for name in written):
                continue
            version = last
            with anyio.move_on_after(CONFIRM_SECONDS):
                while (version := _data_version(conn)) == last:
                    await anyio.sleep(CONFIRM_POLL_SECONDS)
            if version != last:
                last = version
                self.poke()

    async def _poll_sqlite(self, conn: sqlite3.Connection, task_status: TaskStatus[None]) -> None:
        # A plain thread sleeping between checks: an event-loop timer per check would cost
        # several times the CPU, idle, for nothing.
        stop = threading.Event()

        def poll(last: int) -> None:
            try:
                while not stop.wait(self._poll_seconds):
                    version = _data_version(conn)
                    if version != last:
                        last = version
                        anyio.from_thread.run_sync(self.poke)
            except RuntimeError:
                pass  # the event loop has gone: the worker is shutting down
            finally:
                conn.close()

        first = _data_version(conn)
        task_status.started()
        try:
            await anyio.to_thread.run_sync(
                poll, first, abandon_on_cancel=True, limiter=anyio.CapacityLimiter(1)
            )
        finally:
            stop.set()

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
                    while True:
                        # Waiting on the socket ourselves: psycopg's own notifies() wakes
                        # ten times a second to check for a timeout we do not have.
                        await anyio.wait_readable(conn.fileno())
                        if [n async for n in conn.notifies(timeout=0)]:
                            self.poke()
            except psycopg.OperationalError as exc:
                log.warning("batch.feed.reconnect", error_type=type(exc).__name__)
                if not started:
                    task_status.started()
                    started = True
                await anyio.sleep(PG_RECONNECT_SECONDS)


def _data_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA data_version").fetchone()[0])
