"""Faults, tried as an operator would meet them, on SQLite and PostgreSQL:

1. Kill trials: a real worker process drains a job of a local site's pages and is SIGKILLed at a
   random moment; a second worker finishes the work. Counted: lost results, double fetches,
   stuck jobs, wrong statuses (the goal is 0 of each).
2. Slot freeing: a worker is SIGKILLed while it holds a gate slot; how long until the slot is
   free for a process on its own host (reaped at once) and for one elsewhere (its lease lapses).
3. A 10 s store outage while a target is in flight: PostgreSQL behind a loopback proxy that is
   cut; SQLite locked by another writer, and (as root) SQLite on a tmpfs that fills up. The job
   must end `done` with every target fetched once.

    .venv/bin/python bench/faults.py [--trials 100] [--db both] [--outage 10] [--skip-kills]
"""

from __future__ import annotations

import argparse
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import partial
from pathlib import Path

import anyio
from batch_common import PG_URL, article, db_args, dbs, fresh_store, write_config

from sift_fetch.config import FetchConfig
from sift_fetch.gates import Gates
from sift_fetch.identity import process_name
from sift_fetch.target import Target
from sift_store.batch import JobLimits, NewTarget
from sift_store.batch_jobs import create_job, get_job
from sift_store.engine import Store, open_store
from sift_store.gates import live_slots
from sift_store.migrate import migrate
from tests.support.site import LocalSite, Reply
from tests.support.tcpproxy import TcpProxy

ROOT = Path(__file__).resolve().parents[1]
LIMITS = JobLimits(targets_per_job=32, jobs_per_caller=8, jobs_total=64)
TARGETS = 6
STUCK_AFTER = 90.0  # a job still live this long after the second worker started is stuck


class Worker:
    """`python -m sift_worker` for one trial; `kill()` is SIGKILL, `stop()` SIGTERM."""

    def __init__(self, config: Path, log: Path) -> None:
        self.log = log
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sift_worker", "--config", str(config)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=log.open("ab"),
        )

    def wait_ready(self) -> None:
        give_up = time.monotonic() + 60
        while "batch.worker.start" not in self.log.read_text():
            if time.monotonic() > give_up or self.proc.poll() is not None:
                raise SystemExit(f"the worker did not start; see {self.log}")
            time.sleep(0.02)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=60)


def submit(store: Store, urls: list[str]) -> str:
    targets = [NewTarget(u, Target(url=u).options_json()) for u in urls]
    sub = create_job(
        store,
        caller="bench",
        caller_class="standard",
        targets=targets,
        limits=LIMITS,
        ttl=3600,
        now=time.time(),
    )
    return sub.job_id


def wait_job(store: Store, job_id: str, within: float) -> bool:
    give_up = time.monotonic() + within
    while time.monotonic() < give_up:
        view = get_job(store, job_id, caller="bench")
        if view is not None and view.status not in ("queued", "running"):
            return True
        time.sleep(0.05)
    return False


# 1. Kill trials


def judge(store: Store, job_id: str, site: LocalSite, paths: list[str]) -> Counter[str]:
    """What went wrong with one killed job, by kind (an empty Counter: nothing)."""
    view = get_job(store, job_id, caller="bench", results=True)
    assert view is not None
    wrong: Counter[str] = Counter()
    restarted = [t.idx for t in view.targets if t.outcome == "restart"]
    for t, path in zip(view.targets, paths, strict=True):
        hits = site.count(path)
        if hits > 1:
            wrong["double_fetch"] += 1
        if t.status == "pending" and hits == 1:
            wrong["lost_result"] += 1  # fetched, never stored, and not failed `restart` either
        if t.status in ("done", "failed") and not t.result:
            wrong["lost_result"] += 1
        if t.status == "done" and hits == 0:
            wrong["wrong_status"] += 1
    expected = ("failed", "restart") if restarted else ("done", None)
    if len(restarted) > 1 or (view.status, view.error) != expected:
        wrong["wrong_status"] += 1
    if restarted:
        after = [t.status for t in view.targets if t.idx > restarted[0]]
        before = [t.status for t in view.targets if t.idx < restarted[0]]
        if set(after) - {"pending"} or set(before) - {"done"}:
            wrong["wrong_status"] += 1
    return wrong


def kill_trials(kind: str, trials: int, tmp: Path, rng: random.Random) -> None:
    with LocalSite() as site, fresh_store(kind, tmp) as (store, url):
        config = write_config(tmp, url, site.port)
        totals: Counter[str] = Counter()
        moments: Counter[str] = Counter()
        for n in range(trials):
            paths = [f"/t{n}/{i}" for i in range(TARGETS)]
            for i, path in enumerate(paths):
                site.routes[path] = Reply(body=article(n * 100 + i), delay=rng.uniform(0, 0.3))
            job_id = submit(store, [site.url(p) for p in paths])
            first = Worker(config, tmp / f"{kind}-kill-{n}-a.log")
            first.wait_ready()
            time.sleep(rng.uniform(0, TARGETS * 0.2))
            first.kill()
            view = get_job(store, job_id, caller="bench")
            assert view is not None
            moments["after the job ended" if view.status == "done" else "mid-job"] += 1
            second = Worker(config, tmp / f"{kind}-kill-{n}-b.log")
            if not wait_job(store, job_id, STUCK_AFTER):
                totals["stuck_job"] += 1
            second.stop()
            totals.update(judge(store, job_id, site, paths))
        outcome = ", ".join(f"{k} {totals[k]}" for k in KINDS)
        print(f"  {kind:10} {trials} kills ({dict(moments)}): {outcome}")


KINDS = ("lost_result", "double_fetch", "stuck_job", "wrong_status")


# 2. Slot freeing


async def give_back(gates: Gates, slot: int) -> None:
    gates.release(slot)
    await gates.flush()


def slot_freeing(kind: str, rounds: int, tmp: Path) -> None:
    local_ms: list[float] = []
    remote_s: list[float] = []
    with LocalSite() as site, fresh_store(kind, tmp) as (store, url):
        config = write_config(tmp, url, site.port)
        for n in range(rounds):
            site.routes[f"/hold{n}"] = Reply(body=b"slow", delay=60)
            submit(store, [site.url(f"/hold{n}")])
            worker = Worker(config, tmp / f"{kind}-slots-{n}.log")
            worker.wait_ready()
            while site.count(f"/hold{n}") == 0:
                time.sleep(0.01)
            worker.kill()
            killed = time.monotonic()
            if n % 2 == 0:
                # Seen from elsewhere: nothing reaps it, its lease must lapse.
                while live_slots(store, time.time()):
                    time.sleep(0.05)
                remote_s.append(time.monotonic() - killed)
            else:
                # On its host: the next fetch of that host reaps it.
                gates = Gates(store, FetchConfig(per_host=1), process_name())
                slot = anyio.run(partial(gates.acquire, "127.0.0.1", "other", batch=False))
                local_ms.append((time.monotonic() - killed) * 1000)
                anyio.run(give_back, gates, slot)
    print(
        f"  {kind:10} slot of a SIGKILLed worker free: on its host after "
        f"{statistics.median(local_ms):.0f} ms (median of {len(local_ms)}), elsewhere after "
        f"{statistics.median(remote_s):.1f} s (max {max(remote_s):.1f} s of {len(remote_s)})"
    )


# 3. Outages


def outage_job(
    store: Store,
    worker_config: Path,
    site: LocalSite,
    tag: str,
    log: Path,
    stage: Callable[[], None],
) -> str:
    """A 3-target job whose middle target, once on the wire, STAGEs the outage."""

    def slow(_path: str) -> Reply:
        stage()
        return Reply(body=article(7), delay=1.0)

    paths = [f"/{tag}/a", f"/{tag}/slow", f"/{tag}/c"]
    site.routes[paths[0]] = Reply(body=article(1))
    site.routes[paths[1]] = slow
    site.routes[paths[2]] = Reply(body=article(2))
    job_id = submit(store, [site.url(p) for p in paths])
    started = time.monotonic()
    worker = Worker(worker_config, log)
    ended = wait_job(store, job_id, STUCK_AFTER)
    worker.stop()
    view = get_job(store, job_id, caller="bench")
    assert view is not None
    hits = [site.count(p) for p in paths]
    took = time.monotonic() - started
    status = view.status if ended else "stuck"
    outcomes = [t.outcome for t in view.targets]
    return f"job {status} in {took:.1f} s, targets {outcomes}, fetches per target {hits}"


def pg_outage(seconds: float, tmp: Path) -> None:
    with LocalSite() as site, fresh_store("postgresql", tmp) as (store, url):
        proxy = TcpProxy(5432)
        config = write_config(tmp, proxy.url_for(url), site.port)

        def cut() -> None:
            proxy.cut()
            threading.Timer(seconds, proxy.restore).start()

        try:
            line = outage_job(store, config, site, "pg", tmp / "pg-outage.log", cut)
        finally:
            proxy.close()
    print(f"  postgresql cut for {seconds:g} s mid-target: {line}")


def sqlite_locked(seconds: float, tmp: Path) -> None:
    with LocalSite() as site, fresh_store("sqlite", tmp) as (store, url):
        config = write_config(tmp, url, site.port)
        path = store.engine.url.database
        assert path is not None

        def lock() -> None:
            def hold() -> None:
                conn = sqlite3.connect(path, isolation_level=None)
                conn.execute("BEGIN EXCLUSIVE")
                time.sleep(seconds)
                conn.execute("ROLLBACK")
                conn.close()

            threading.Thread(target=hold, daemon=True).start()

        line = outage_job(store, config, site, "locked", tmp / "sqlite-locked.log", lock)
    print(f"  sqlite locked by another writer for {seconds:g} s mid-target: {line}")


@contextmanager
def tmpfs(size: str) -> Iterator[Path | None]:
    where = Path(tempfile.mkdtemp(prefix="sift-tmpfs-"))
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    )
    try:
        yield where if mounted.returncode == 0 else None
    finally:
        if mounted.returncode == 0:
            subprocess.run(["umount", str(where)], check=False)
        where.rmdir()


def sqlite_full(seconds: float, tmp: Path) -> None:
    with tmpfs("8m") as disk:
        if disk is None:
            print("  sqlite full disk: skipped (mounting a tmpfs needs root)")
            return
        url = f"sqlite:///{disk / 'sift.db'}"
        store = open_store(url)
        migrate(store)
        filler = disk / "filler"

        def fill() -> None:
            # Every byte the tmpfs has left, then freed SECONDS later.
            with filler.open("wb") as f, suppress(OSError):
                while True:
                    f.write(b"\0" * 65536)
            threading.Timer(seconds, filler.unlink).start()

        with LocalSite() as site:
            config = write_config(tmp, url, site.port)
            line = outage_job(store, config, site, "full", tmp / "sqlite-full.log", fill)
        store.dispose()
    print(f"  sqlite disk full for {seconds:g} s mid-target: {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--slot-rounds", type=int, default=6)
    parser.add_argument("--outage", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-kills", action="store_true")
    db_args(parser)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"faults: {args.trials} kill trials per database, PostgreSQL at {PG_URL}")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for kind in dbs(args):
            print(f"{kind}:")
            if not args.skip_kills:
                kill_trials(kind, args.trials, tmp, rng)
            slot_freeing(kind, args.slot_rounds, tmp)
            if kind == "postgresql":
                pg_outage(args.outage, tmp)
            else:
                sqlite_locked(args.outage, tmp)
                sqlite_full(args.outage, tmp)


if __name__ == "__main__":
    main()
