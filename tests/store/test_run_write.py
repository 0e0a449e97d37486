"""`Store.run_write` on SQLite: on the event loop when the write lock is free, never waiting for
it there. A lock held by another process or another thread sends the call to the writer
thread, and the loop runs on meanwhile: each test releases the lock from a task on the loop, so
a loop that waited would never get there (and the busy timeout would fail the call)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest
import sqlalchemy as sa

from sift_store.engine import Store
from sift_store.prepared import Prepared

_probe = sa.table("probe", sa.column("v", sa.Integer()))
_PUT = Prepared(sa.insert(_probe).values(v=sa.bindparam("v", type_=sa.Integer())))


def _insert(value: int) -> Callable[[Store], str]:
    """A run_write call that writes VALUE and says which thread it ran on."""

    def call(store: Store) -> str:
        with store.write() as conn:
            conn.execute(sa.insert(_probe).values(v=value))
        return threading.current_thread().name

    return call


def _values(store: Store) -> list[int]:
    with store.read() as conn:
        return sorted(conn.execute(sa.select(_probe.c.v)).scalars())


@pytest.fixture
def probe_store(sqlite_store: Store) -> Store:
    with sqlite_store.write() as conn:
        conn.exec_driver_sql("CREATE TABLE probe (v INTEGER)")
    return sqlite_store


def _run(store: Store, call: Callable[[Store], str], release: Callable[[], None]) -> str:
    """Run CALL through run_write while RELEASE frees the lock from a task on the loop."""

    async def main() -> str:
        async with anyio.create_task_group() as tasks:

            async def release_soon() -> None:
                await anyio.sleep(0.05)
                release()

            tasks.start_soon(release_soon)
            with anyio.fail_after(30):
                return await store.run_write(call)
        raise AssertionError("unreachable")

    return anyio.run(main)


def test_a_free_lock_means_the_call_runs_on_the_event_loop(probe_store: Store) -> None:
    async def main() -> str:
        return await probe_store.run_write(_insert(1))

    assert anyio.run(main) == threading.current_thread().name
    assert _values(probe_store) == [1]


def test_a_lock_another_process_holds_sends_the_call_to_the_writer_thread(
    probe_store: Store, tmp_path: Path
) -> None:
    other = sqlite3.connect(tmp_path / "sift.db", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO probe VALUES (1)")
    try:
        ran_on = _run(probe_store, _insert(2), lambda: other.execute("COMMIT"))
    finally:
        other.close()
    assert ran_on.startswith("sift-store-write")
    assert _values(probe_store) == [1, 2]


def test_a_write_another_thread_has_open_sends_the_call_to_the_writer_thread(
    probe_store: Store,
) -> None:
    opened, done = threading.Event(), threading.Event()

    def hold() -> None:
        with probe_store.write() as conn:
            conn.execute(sa.insert(_probe).values(v=1))
            opened.set()
            done.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    assert opened.wait(30)
    try:
        ran_on = _run(probe_store, _insert(2), done.set)
    finally:
        done.set()
        holder.join()
    assert ran_on.startswith("sift-store-write")
    assert _values(probe_store) == [1, 2]


def test_a_call_makes_one_write_transaction(probe_store: Store) -> None:
    def twice(store: Store) -> None:
        _insert(1)(store)
        _insert(2)(store)

    async def main() -> None:
        await probe_store.run_write(twice)

    # A second transaction could not be given back to the writer thread without the first
    # being written twice.
    with pytest.raises(RuntimeError, match="one write transaction"):
        anyio.run(main)
    assert _values(probe_store) == [1]


def test_the_loop_keeps_one_connection_and_a_failed_write_leaves_nothing_open(
    probe_store: Store,
) -> None:
    def connection_of(store: Store) -> object:
        with store.write() as conn:
            conn.execute(sa.insert(_probe).values(v=1))
            return conn

    def failing(store: Store) -> None:
        with store.write() as conn:
            conn.execute(sa.insert(_probe).values(v=2))
            conn.exec_driver_sql("INSERT INTO no_such_table VALUES (1)")

    async def main() -> list[object]:
        first = await probe_store.run_write(connection_of)
        second = await probe_store.run_write(connection_of)
        with pytest.raises(sa.exc.OperationalError):
            await probe_store.run_write(failing)
        return [first, second, await probe_store.run_write(connection_of)]

    first, second, after_failure = anyio.run(main)
    assert first is second
    assert after_failure is not first
    # The failed write was rolled back, and its connection holds no lock: another writer
    # gets in at once (busy_timeout 0).
    assert _values(probe_store) == [1, 1, 1]
    other = sqlite3.connect(probe_store.engine.url.database, isolation_level=None, timeout=0)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
    finally:
        other.close()


def test_a_write_on_the_loop_commits_all_its_statements_or_none(probe_store: Store) -> None:
    # On the loop the transaction is the driver's; a statement through SQLAlchemy inside it
    # (not Prepared) begins a Transaction of SQLAlchemy's, and both commit as one.
    def put(*values: int, then: int | None = None, fail: bool = False) -> Callable[[Store], str]:
        def call(store: Store) -> str:
            with store.write() as conn:
                for value in values:
                    _PUT.run(conn, {"v": value})
                if then is not None:
                    conn.execute(sa.insert(_probe).values(v=then))
                if fail:
                    raise RuntimeError("after its statements")
            return threading.current_thread().name

        return call

    async def main() -> list[str]:
        ran_on = [
            await probe_store.run_write(put(1, 2)),
            await probe_store.run_write(put(3, then=4)),
        ]
        with pytest.raises(RuntimeError):
            await probe_store.run_write(put(5, fail=True))
        with pytest.raises(RuntimeError):
            await probe_store.run_write(put(6, then=7, fail=True))
        return [*ran_on, await probe_store.run_write(put(8))]

    assert set(anyio.run(main)) == {threading.current_thread().name}
    assert _values(probe_store) == [1, 2, 3, 4, 8]
