"""The change feed wakes an idle worker when another connection commits: inotify plus
data_version on SQLite (and the polling fallback), LISTEN/NOTIFY on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from sift_store import batch_feed
from sift_store.batch_feed import ChangeFeed
from sift_store.engine import Store
from sift_store.fswatch import DirWatch
from tests.batch.helpers import submit
from tests.batch.worker_harness import HANG_GUARD


def _woken_by_a_submit(store: Store) -> bool:
    async def main() -> bool:
        feed = ChangeFeed(store, poll_seconds=0.005)
        async with anyio.create_task_group() as tg:
            await tg.start(feed.run)
            since = feed.generation
            await anyio.to_thread.run_sync(lambda: submit(store, 2))
            await feed.wait(since, HANG_GUARD)
            tg.cancel_scope.cancel()
        return feed.generation > since

    return anyio.run(main)


def test_a_submit_wakes_the_feed(store: Store) -> None:
    assert _woken_by_a_submit(store)


def test_the_polling_fallback_wakes_too(
    sqlite_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch_feed.DirWatch, "open", classmethod(lambda _cls, _dir: None))
    assert _woken_by_a_submit(sqlite_store)


def test_dirwatch_names_the_files_written(tmp_path: Path) -> None:
    watch = DirWatch.open(str(tmp_path))
    if watch is None:
        pytest.skip("no inotify here")
    try:
        assert watch.written() == set()
        (tmp_path / "a.db-wal").write_bytes(b"x")
        (tmp_path / "b.txt").write_bytes(b"y")
        assert watch.written() == {"a.db-wal", "b.txt"}
        assert watch.written() == set()
    finally:
        watch.close()
