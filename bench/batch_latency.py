"""Submit-to-first-target latency on an idle worker process: from `create_job` returning (its
commit) to the worker's claim (the target's `started_at`) and to the request reaching the site.

    .venv/bin/python bench/batch_latency.py [--samples 200] [--db both]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import threading
import time
from pathlib import Path

from batch_common import WorkerProcess, db_args, dbs, fresh_store, summary, write_config

from sift_fetch.target import Target
from sift_store.batch import JobLimits, NewTarget
from sift_store.batch_jobs import create_job, get_job
from sift_store.engine import Store
from tests.support.site import LocalSite, Reply


class Arrivals:
    """A site route that notes when each request arrives."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self.cond = threading.Condition()

    def __call__(self, path: str) -> Reply:
        with self.cond:
            self.times[path] = time.time()
            self.cond.notify_all()
        return Reply(body=b"<html><body><p>hello</p></body></html>")

    def wait(self, path: str) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: path in self.times, timeout=30):
                raise SystemExit("the worker never fetched the target")
            return self.times[path]


def sample(store: Store, site: LocalSite, arrivals: Arrivals, tag: str) -> tuple[float, float]:
    path = f"/t?{tag}"
    url = site.url(path)
    sub = create_job(
        store,
        caller="bench",
        caller_class="standard",
        targets=[NewTarget(url, Target(url=url).options_json())],
        limits=JobLimits(),
        ttl=86400,
        now=time.time(),
    )
    committed = time.time()
    arrived = arrivals.wait(path)
    while True:
        job = get_job(store, sub.job_id, caller="bench")
        assert job is not None
        if job.finished_at is not None:
            break
        time.sleep(0.005)
    started = job.targets[0].started_at
    assert started is not None
    return (started - committed) * 1000, (arrived - committed) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=200)
    db_args(parser)
    args = parser.parse_args()
    arrivals = Arrivals()
    with tempfile.TemporaryDirectory() as tmp_name, LocalSite({"/t": arrivals}) as site:
        tmp = Path(tmp_name)
        for kind in dbs(args):
            with fresh_store(kind, tmp) as (store, url):
                config = write_config(tmp, url, site.port)
                claims, hits = [], []
                with WorkerProcess(config, tmp / f"worker-{kind}.log"):
                    sample(store, site, arrivals, f"{kind}-warm-up")
                    for n in range(args.samples):
                        # A random phase against the worker's poll, as real submits would have.
                        time.sleep(random.uniform(0.05, 0.15))
                        to_claim, to_site = sample(store, site, arrivals, f"{kind}-{n}")
                        claims.append(to_claim)
                        hits.append(to_site)
            print(f"{kind:<11} submit → claim        {summary(claims)}")
            print(f"{kind:<11} submit → site request {summary(hits)}")


if __name__ == "__main__":
    main()
