"""SQLite's WAL checkpoints on a thread of their own, off every request's path.

Left to itself, SQLite checkpoints in the commit that takes the WAL past 1,000 pages: that commit
copies megabytes into the database file and syncs it while every fetch queues behind it (under
bench/fetch_bench.py a cached envelope's write crossed the threshold every ~75 fetches; raw
fetches at 8 concurrent made 309 a second so, and 320-349 with this thread). So commits never
checkpoint (the connections set `wal_autocheckpoint=0`), and each process runs a PASSIVE
checkpoint every INTERVAL seconds instead: it waits for no reader or writer, runs in C without
the GIL, and the WAL restarts from its beginning at the next write once all of it is copied.
"""

from __future__ import annotations

import threading

import structlog
from sqlalchemy import Engine

log = structlog.get_logger("sift.store")

INTERVAL = 1.0


class Checkpointer:
    def __init__(self, engine: Engine, interval: float = INTERVAL) -> None:
        self._engine = engine
        self._interval = interval
        self._stop = threading.Event()
        self._failing = False
        self._thread = threading.Thread(target=self._run, name="sift-store-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            self.checkpoint()

    def checkpoint(self) -> None:
        """One PASSIVE checkpoint; a failure (a full disk, say) is logged once and tried again
        next time, as the next commit would have."""
        try:
            conn = self._engine.raw_connection()
            try:
                conn.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)").close()
            finally:
                conn.close()
        except Exception as exc:
            if not self._failing:
                log.warning("store.checkpoint.failed", error_type=type(exc).__name__)
            self._failing = True
        else:
            self._failing = False

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
