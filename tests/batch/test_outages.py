"""A store that goes away while a target is in flight costs no result and fails no job: the worker
keeps what it fetched, retries its writes until the store is back, and goes on with the job.

PostgreSQL goes away for real (a loopback proxy in front of it drops every connection and refuses
new ones for ~10 s); SQLite runs out of room (`max_page_count` pinned to the file's size).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import event

from sift_store.engine import Store, open_store
from sift_store.migrate import migrate
from tests.batch.helpers import new_targets, submit
from tests.batch.worker_harness import FAST, finished, job, run_pipeline_worker
from tests.support.config import make_config
from tests.support.site import LocalSite, Reply
from tests.support.tcpproxy import TcpProxy

# Long enough for the lease to outlast the outage; heartbeats often enough to notice it.
SETTINGS = replace(FAST, lease_seconds=30.0, heartbeat_seconds=0.5)
OUTAGE_SECONDS = 10.0
# A page whose stored result needs new database pages (so a full disk refuses it).
BIG = b"<html><body><article>" + b"<p>The keeper logged the weather. </p>" * 3000 + b"</article>"


def page(text: str) -> Reply:
    return Reply(body=f"<html><body><article><p>{text}</p></article></body></html>".encode())


def _site(on_slow: Any) -> LocalSite:
    def slow(_path: str) -> Reply:
        on_slow()
        return Reply(body=BIG, delay=1.0)

    return LocalSite({"/a": page("first"), "/slow": slow, "/c": page("third")})


def _assert_job_done_once_each(
    tmp_path: Path, site: LocalSite, store: Store, worker_store: Store
) -> None:
    """A job of the site's three pages, submitted on STORE and drained by a worker on
    WORKER_STORE (the outage happens on its way), ends done, each page fetched exactly once."""
    config = make_config(tmp_path, [site.port])
    urls = [site.url("/a"), site.url("/slow"), site.url("/c")]
    sub = submit(store, new_targets(urls), now=time.time())
    run_pipeline_worker(config, worker_store, finished(store, sub.job_id), settings=SETTINGS)
    view = job(store, sub.job_id)
    assert view.status == "done", [(t.status, t.outcome, t.error) for t in view.targets]
    assert [t.outcome for t in view.targets] == ["ok", "ok", "ok"]
    assert site.hits == ["/a", "/slow", "/c"]


def test_postgresql_away_mid_target_loses_nothing(tmp_path: Path, pg_url: str) -> None:
    direct = open_store(pg_url)
    migrate(direct)
    proxy = TcpProxy(5432)
    through_proxy = open_store(proxy.url_for(pg_url))
    cut_at: list[float] = []

    def cut_for_a_while() -> None:
        cut_at.append(time.monotonic())
        proxy.cut()
        threading.Timer(OUTAGE_SECONDS, proxy.restore).start()

    try:
        with _site(cut_for_a_while) as site:
            _assert_job_done_once_each(tmp_path, site, direct, through_proxy)
        assert cut_at, "the outage was never staged"
    finally:
        through_proxy.dispose()
        proxy.close()
        direct.dispose()


def test_sqlite_disk_full_mid_target_loses_nothing(tmp_path: Path, sqlite_store: Store) -> None:
    path = sqlite_store.engine.url.database
    assert path is not None
    # A full disk, as SQLite sees it: no page beyond the file's size, on every connection.
    max_pages = [1 << 30]

    @event.listens_for(sqlite_store.engine, "checkout")
    def _cap(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
        dbapi_conn.execute(f"PRAGMA max_page_count = {max_pages[0]}")

    def fill_for_a_while() -> None:
        with sqlite3.connect(path) as conn:
            max_pages[0] = conn.execute("PRAGMA page_count").fetchone()[0]
        threading.Timer(3.0, lambda: max_pages.__setitem__(0, 1 << 30)).start()

    with _site(fill_for_a_while) as site:
        _assert_job_done_once_each(tmp_path, site, sqlite_store, sqlite_store)
