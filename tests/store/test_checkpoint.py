"""WAL checkpoints: never in a commit, always on the store's own thread, which stops with it."""

from __future__ import annotations

import sqlite3
import threading
import time
from functools import partial
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from sift_store import engine as engine_module
from sift_store.cache import cache_put
from sift_store.checkpoint import Checkpointer
from sift_store.engine import open_store
from sift_store.migrate import migrate

ENVELOPE = b'{"content": "' + b"x" * 100_000 + b'"}'


def _checkpointers() -> int:
    return sum(t.name == "sift-store-checkpoint" for t in threading.enumerate())


def test_commits_never_checkpoint_the_thread_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The store's own thread waits an hour here, so only the test's checkpointer copies.
    monkeypatch.setattr(engine_module, "Checkpointer", partial(Checkpointer, interval=3600))
    path = tmp_path / "sift.db"
    store = open_store(f"sqlite:///{path}")
    try:
        migrate(store)
        before = path.stat().st_size
        for i in range(60):  # ~6 MB: well past the 1,000 pages at which a commit would copy
            cache_put(store, f"k{i}", "standard", ENVELOPE, 600, 1 << 30, time.time())
        assert Path(f"{path}-wal").stat().st_size > 5_000_000
        assert path.stat().st_size == before
        copier = Checkpointer(store.engine, interval=0.05)
        try:
            # Not a timed assertion: a checkpointer that never copied would hang here.
            deadline = time.monotonic() + 30
            while path.stat().st_size < 5_000_000:
                assert time.monotonic() < deadline, "the checkpointer never copied the WAL"
                time.sleep(0.05)
        finally:
            copier.stop()
        with sqlite3.connect(path) as conn:
            assert conn.execute("SELECT count(*) FROM fetch_cache").fetchone() == (60,)
    finally:
        store.dispose()


def test_the_thread_stops_with_its_store(tmp_path: Path) -> None:
    before = _checkpointers()
    store = open_store(f"sqlite:///{tmp_path / 'sift.db'}")
    assert _checkpointers() == before + 1
    store.dispose()
    assert _checkpointers() == before


def test_a_failing_checkpoint_is_logged_once_until_it_works_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'sift.db'}")
    copier = Checkpointer(store.engine, interval=3600)
    try:

        def broken() -> None:
            raise sqlite3.OperationalError("disk I/O error")

        with capture_logs() as logs:
            with monkeypatch.context() as patch:
                patch.setattr(store.engine, "raw_connection", broken)
                copier.checkpoint()
                copier.checkpoint()
            copier.checkpoint()  # works again
            with monkeypatch.context() as patch:
                patch.setattr(store.engine, "raw_connection", broken)
                copier.checkpoint()
        failed = [line for line in logs if line["event"] == "store.checkpoint.failed"]
        assert [line["error_type"] for line in failed] == ["OperationalError"] * 2
    finally:
        copier.stop()
        store.dispose()
