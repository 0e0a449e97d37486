"""CPU used by an idle worker process (and any children) over a minute, SQLite and PostgreSQL.

.venv/bin/python bench/batch_idle.py [--seconds 60] [--db both]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from batch_common import WorkerProcess, db_args, dbs, fresh_store, write_config

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(root: int) -> float:
    """utime + stime of ROOT and its descendants, from /proc."""
    parents: dict[int, int] = {}
    times: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = int(fields[11]) + int(fields[12])
    tree, frontier = {root}, [root]
    while frontier:
        pid = frontier.pop()
        kids = [p for p, parent in parents.items() if parent == pid]
        tree.update(kids)
        frontier += kids
    return sum(times.get(p, 0) for p in tree) / TICKS


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    db_args(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for kind in dbs(args):
            with fresh_store(kind, tmp) as (_store, url):
                config = write_config(tmp, url, 8080)
                with WorkerProcess(config, tmp / f"worker-{kind}.log") as worker:
                    time.sleep(3)  # start-up settles
                    before, t0 = cpu_seconds(worker.pid), time.monotonic()
                    time.sleep(args.seconds)
                    used, wall = cpu_seconds(worker.pid) - before, time.monotonic() - t0
            print(
                f"{kind:<11} idle worker: {used:.2f} CPU s in {wall:.0f} s wall "
                f"= {100 * used / wall:.2f}% of one core"
            )


if __name__ == "__main__":
    main()
