"""Batch store latency, empty versus 100,000 finished jobs: create_job (32 targets), claim,
complete_target and the summary read, on SQLite and on PostgreSQL.

    .venv/bin/python bench/batch_store.py [--jobs 100000] [--targets-per-job 4] [--db both]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import uuid
from pathlib import Path

import sqlalchemy as sa
from batch_common import db_args, dbs, fresh_store, summary

from sift_store.batch import JobLimits, NewTarget, TargetResult, batch_job, batch_target
from sift_store.batch_claims import claim, complete_target
from sift_store.batch_jobs import cancel, create_job, get_job
from sift_store.engine import Store

LIMITS = JobLimits(targets_per_job=32, jobs_per_caller=1, jobs_total=8)
OPTIONS = json.dumps({"mode": "clean"})
RESULT = TargetResult(
    ok=True, outcome="ok", result=json.dumps({"success": True, "content": "x" * 2000})
)


def fill(store: Store, jobs: int, per_job: int) -> None:
    """JOBS finished jobs of PER_JOB done targets each, written in bulk."""
    now = time.time()
    chunk = 5000
    for start in range(0, jobs, chunk):
        job_rows, target_rows = [], []
        for n in range(start, min(jobs, start + chunk)):
            job_id = uuid.uuid4().hex
            at = now - 80_000 + n * 0.5
            job_rows.append(
                {
                    "id": job_id,
                    "caller": f"old{n % 500}",
                    "caller_class": "standard",
                    "idem_key": uuid.uuid4().hex + uuid.uuid4().hex,
                    "status": "done",
                    "targets_total": per_job,
                    "targets_done": per_job,
                    "created_at": at,
                    "started_at": at,
                    "finished_at": at + 10,
                    "served_at": at + 9,
                    "lease": at + 10,
                    "nbytes": per_job * 2000,
                }
            )
            target_rows += [
                {
                    "job_id": job_id,
                    "idx": i,
                    "url": f"https://example.com/{n}/{i}",
                    "options": OPTIONS,
                    "status": "done",
                    "result": RESULT.result,
                    "outcome": "ok",
                    "nbytes": 2000,
                    "busy_attempts": 0,
                    "started_at": at,
                    "finished_at": at + 1,
                }
                for i in range(per_job)
            ]
        with store.write() as conn:
            conn.execute(sa.insert(batch_job), job_rows)
            conn.execute(sa.insert(batch_target), target_rows)
    with store.write() as conn:
        conn.exec_driver_sql("ANALYZE")


def targets(n: int, tag: str) -> list[NewTarget]:
    return [NewTarget(f"https://bench.example/{tag}/{i}", OPTIONS) for i in range(n)]


def measure(store: Store, rounds: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"create_job": [], "claim": [], "complete": [], "read": []}
    for r in range(rounds):
        # create_job on its own: submit, then cancel (untimed) so the caps stay clear.
        t = time.perf_counter()
        sub = create_job(
            store,
            caller="bench",
            caller_class="standard",
            targets=targets(32, f"c{r}-{uuid.uuid4().hex[:6]}"),
            limits=LIMITS,
            ttl=86400,
            now=time.time(),
        )
        out["create_job"].append((time.perf_counter() - t) * 1000)
        cancel(store, sub.job_id, caller="bench", now=time.time())
    live = None
    for _ in range(rounds):
        if live is None:
            live = create_job(
                store,
                caller="drain",
                caller_class="standard",
                targets=targets(32, uuid.uuid4().hex),
                limits=LIMITS,
                ttl=86400,
                now=time.time(),
            ).job_id
        t = time.perf_counter()
        got = claim(store, worker="bench", now=time.time(), lease_seconds=30)
        out["claim"].append((time.perf_counter() - t) * 1000)
        assert got is not None
        t = time.perf_counter()
        change = complete_target(store, got, RESULT, now=time.time())
        out["complete"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        get_job(store, got.job_id, caller="drain")
        out["read"].append((time.perf_counter() - t) * 1000)
        if change is not None and change.job_finished:
            live = None
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--targets-per-job", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=320)
    db_args(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for kind in dbs(args):
            for stored in (0, args.jobs):
                with fresh_store(kind, Path(tmp)) as (store, _url):
                    if stored:
                        t = time.perf_counter()
                        fill(store, stored, args.targets_per_job)
                        took = time.perf_counter() - t
                        print(f"{kind}: filled {stored} finished jobs in {took:.0f} s")
                    results = measure(store, args.rounds)
                for op, values in results.items():
                    print(f"{kind:<11} {stored:>7} jobs  {op:<11} {summary(values)}")


if __name__ == "__main__":
    main()
