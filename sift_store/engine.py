"""The engine and transactions both processes share: SQLite (WAL) by default, or PostgreSQL.

`Store.write()` opens a transaction that holds the write lock from its first statement
(SQLite `BEGIN IMMEDIATE`), so read-then-write logic (caps, claims, gate slots) cannot race
another process. On PostgreSQL the store's functions take the row or advisory locks they need.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import anyio
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DisconnectionError, OperationalError

from sift_store.checkpoint import Checkpointer
from sift_store.prepared import Prepared

SQLITE_BUSY_TIMEOUT_MS = 10_000
# Threads for store calls from event loops: at least the PostgreSQL pool's connections (10 + 10),
# so a call waits for a connection, never for a thread.
STORE_THREADS = 20
WAL_SIZE_LIMIT = 64 * 1024 * 1024
_BEGIN = Prepared(text("BEGIN"))
_BEGIN_IMMEDIATE = Prepared(text("BEGIN IMMEDIATE"))
_COMMIT = Prepared(text("COMMIT"))

T = TypeVar("T")


class Store:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self._threads = ThreadPoolExecutor(STORE_THREADS, thread_name_prefix="sift-store")
        # On SQLite the hot writes queue for its one write lock anyway; see run_write.
        self._writer = (
            ThreadPoolExecutor(1, thread_name_prefix="sift-store-write")
            if self.is_sqlite
            else self._threads
        )
        # SQLite has one writer at a time, and a connection that finds the write lock taken
        # sleeps 1 ms or more before it tries again (its busy handler), even when the lock
        # frees microseconds later. This process's writers queue here instead and wake at once
        # (strace of `sift serve` under bench/fetch_bench.py at 4 concurrent fetches: two such
        # sleeps a request before, none after); other processes still meet the busy handler.
        # Reentrant, so a write opened inside another fails as SQLite's busy timeout says,
        # instead of hanging.
        self._one_writer = threading.RLock() if self.is_sqlite else None
        database = engine.url.database
        on_disk = self.is_sqlite and database not in (None, "", ":memory:")
        self._checkpointer = Checkpointer(engine) if on_disk else None
        # For run_write's calls on the event loop: a connection that never waits for the lock.
        self._now_engine = _sqlite_engine(engine.url, busy_timeout_ms=0) if on_disk else None
        # Its one connection, kept open between those calls (each holds _one_writer): a pool
        # checkout and check-in around every fetch's transaction cost more than SQLite's work.
        self._now_conn: Connection | None = None
        self._inline = threading.local()

    @property
    def is_sqlite(self) -> bool:
        return self.dialect == "sqlite"

    @contextmanager
    def write(self, *, each_alone: bool = False) -> Iterator[Connection]:
        """A write transaction. EACH_ALONE says every statement the block runs is complete on
        its own, so on PostgreSQL each commits as it runs, without the BEGIN and COMMIT round
        trips around them; on SQLite the block is one transaction all the same."""
        if getattr(self._inline, "writes", None) is not None:
            with self._write_now() as conn:
                yield conn
            return
        with self._one_writer or contextlib.nullcontext(), self.engine.connect() as conn:
            if each_alone and not self.is_sqlite:
                conn = conn.execution_options(isolation_level="AUTOCOMMIT")
            else:
                conn = conn.execution_options(sift_immediate=True)
            with conn.begin():
                yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    async def run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """`fn(self, *args, **kwargs)` in one of the store's threads: store calls block, event
        loops must not. Like anyio's to_thread, a cancelled caller still waits for the call to
        end, so one task's store calls never overlap; a plain executor spares every call
        anyio's limiter and its Python queue, which showed in profiles of the event loop."""
        return await self._run_on(self._threads, partial(fn, self, *args, **kwargs))

    async def run_write(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """`run` for a call that is one short write transaction (the gate slots every fetch
        takes and gives back).

        On SQLite the call runs on the event loop itself when the write lock is free this
        instant, and otherwise takes its turn on one writer thread. A hop to a thread and
        back costs two thread wake-ups, which on a virtual machine cost more than the
        transaction (py-spy on bench/fetch_cost.py: a third of a raw fetch's store work, and
        raw fetches one at a time made 89-93 a second so, 109 inline, bench/fetch_bench.py).
        Waiting for the lock never happens on the loop: another writer in this process or
        another one sends the call to the thread, where writers queue for SQLite's one write
        lock anyway, and threads queued for it would cost the loop the GIL (raw fetches 8 at a
        time: 3.2 ms of CPU a request with shared threads, 2.9 ms with one writer thread). A
        commit the disk holds up holds the loop up with it (a 57 KB envelope's commit: 0.6 ms
        on average, 8.5 ms at the 99th percentile on the VM of these figures); on the thread
        it held up every fetch's acquire behind it all the same.

        On PostgreSQL every statement is a round trip, so calls run on the shared threads; one
        writer thread there measured no better at 8 at a time and worse at 1."""
        call = partial(fn, self, *args, **kwargs)
        if self._now_engine is not None:
            try:
                return self._run_inline(call)
            except _WouldWait:
                pass
        return await self._run_on(self._writer, call)

    def _run_inline(self, call: Callable[[], T]) -> T:
        self._inline.writes = 0
        try:
            return call()
        finally:
            self._inline.writes = None

    @contextmanager
    def _write_now(self) -> Iterator[Connection]:
        """`write()` inside `_run_inline`: the write lock now, or _WouldWait before anything
        is written, so the call can run again on the writer thread."""
        assert self._now_engine is not None and self._one_writer is not None
        self._inline.writes += 1
        if self._inline.writes > 1:
            raise RuntimeError("a run_write call makes one write transaction")
        if not self._one_writer.acquire(blocking=False):
            raise _WouldWait
        try:
            if self._now_conn is None:
                self._now_conn = self._now_engine.connect()
            conn = self._now_conn
            # The transaction is the driver's, not SQLAlchemy's: its Transaction object, its
            # events and its commit path cost more than SQLite's BEGIN and COMMIT themselves
            # (an acquire and a release, 283 µs of CPU so against 106 µs on the bare driver,
            # bench/fetch_cost.py's store figures). A statement run through SQLAlchemy rather
            # than Prepared begins its own Transaction inside this one (see _on_begin), and
            # commits it.
            try:
                _BEGIN_IMMEDIATE.run(conn)
            except OperationalError as exc:
                if getattr(exc.orig, "sqlite_errorname", None) == "SQLITE_BUSY":
                    raise _WouldWait from None
                raise
            yield conn
            if conn.in_transaction():
                conn.commit()
            else:
                _COMMIT.run(conn)
        except _WouldWait:
            raise
        except BaseException:
            # Whatever went wrong, the next call starts from a fresh connection (the pool rolls
            # back what this one began as it takes it back).
            self._close_now_conn()
            raise
        finally:
            self._one_writer.release()

    def _close_now_conn(self) -> None:
        if self._now_conn is not None:
            self._now_conn.close()
            self._now_conn = None

    async def _run_on(self, threads: ThreadPoolExecutor, call: Callable[[], T]) -> T:
        future = asyncio.get_running_loop().run_in_executor(threads, call)
        with anyio.CancelScope(shield=True):
            result = await future
        return result

    def dispose(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.stop()
        if self._now_engine is not None:
            assert self._one_writer is not None
            with self._one_writer:
                self._close_now_conn()
            self._now_engine.dispose()
        self._threads.shutdown(wait=False)
        self._writer.shutdown(wait=False)
        self.engine.dispose()


class _WouldWait(Exception):
    """The write lock is taken: this call must wait for it, off the event loop."""


def _sqlite_engine(url: str | URL, busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS) -> Engine:
    parsed = make_url(url)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        parsed, connect_args={"timeout": busy_timeout_ms / 1000, "check_same_thread": False}
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Take transaction control from the driver so BEGIN IMMEDIATE is ours to emit.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        # Commits never checkpoint: the store's Checkpointer thread does (sift_store.checkpoint),
        # and a WAL that a burst grew is cut back to this size once it has been copied.
        cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
        cur.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        cur.execute("PRAGMA foreign_keys=ON")
        # Debian's and other distributions' SQLite is built to zero every deleted byte, which
        # writes a replaced or evicted cache entry's pages out again (an eviction's commit: 17
        # ms instead of 0.5). FAST zeros what it can without more I/O.
        cur.execute("PRAGMA secure_delete=FAST")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        if conn.connection.dbapi_connection.in_transaction:  # type: ignore[union-attr]
            return  # inside Store._write_now's transaction, which the driver began
        immediate = conn.get_execution_options().get("sift_immediate", False)
        # Prepared, on the driver's cursor: through SQLAlchemy's execution path, BEGIN cost
        # more than SQLite took for the whole transaction (an empty write: 130 µs of CPU, 9 µs
        # of it SQLite's; 75-95 µs so).
        (_BEGIN_IMMEDIATE if immediate else _BEGIN).run(conn)

    return engine


def open_store(url: str) -> Store:
    """An engine for URL; `sqlite:///path` or `postgresql+psycopg://…` (plain `postgresql://`
    is mapped to the psycopg 3 driver)."""
    if url.startswith("sqlite"):
        return Store(_sqlite_engine(url))
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    engine = create_engine(url, pool_size=10, max_overflow=10)
    event.listen(engine, "checkout", _closed_by_the_server)
    return Store(engine)


def _closed_by_the_server(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
    """Replace a pooled PostgreSQL connection the server has closed (a restart, a terminated
    backend, a reset on the way) before a statement fails on it.

    An idle connection has nothing to read unless the server ended it (its last message, then
    EOF or a reset), so a socket that polls readable is a dead one, and SQLAlchemy's pool then
    opens a fresh one in its place. This is the pool's pre-ping without its round trip: a `;`
    sent and answered before every checkout, one of three round trips a raw fetch made. What it
    cannot see (a path that died without a word) fails the statement instead, and SQLAlchemy
    then invalidates the pool, as it would have done for a pre-ping that found it dead."""
    fd = dbapi_conn.fileno()
    if select.select([fd], [], [], 0)[0]:
        raise DisconnectionError("the server closed this pooled connection")
