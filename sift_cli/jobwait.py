"""Waiting for a batch job with a progress bar, and saying how it went.

The wait is a loop of short long-polls (`?wait=S`): the server answers the moment the job
finishes, so the loop costs no latency, and between answers the bar moves.
"""

from __future__ import annotations

import time
from typing import Any

from sift_cli.client import Client
from sift_cli.exits import JOB_FAILED, OK, STILL_RUNNING
from sift_cli.progress import Progress

FINISHED = ("done", "partial", "failed", "cancelled")
# Each long-poll is this long at most, so the bar moves at least this often.
POLL_SECONDS = 1.0


def wait_for_job(
    client: Client, job_id: str, *, timeout: float = 0.0, progress: bool = True
) -> dict[str, Any]:
    """The job's summary once it finished, or when TIMEOUT (0: none) ran out."""
    deadline = time.monotonic() + timeout if timeout else None
    bar: Progress | None = None
    try:
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            poll = POLL_SECONDS if left is None else min(POLL_SECONDS, left)
            summary = client.call(
                "GET", f"/v1/batch/{job_id}", params={"wait": f"{poll:g}"}, wait=poll
            )
            if progress:
                bar = bar or Progress(int(summary["targets_total"]))
                bar.update(int(summary["targets_done"]), str(summary["status"]))
            if summary["status"] in FINISHED or left == 0:
                return summary
    finally:
        if bar is not None:
            bar.close()


def exit_code(summary: dict[str, Any]) -> int:
    status = summary["status"]
    if status == "done":
        return OK
    return JOB_FAILED if status in FINISHED else STILL_RUNNING
