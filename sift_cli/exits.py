"""The `sift` command's exit codes (README "CLI reference") and its one-line error."""

from __future__ import annotations

from typing import Any

OK = 0
REFUSED = 1  # the server answered, and said no (4xx/5xx), or a target/job failed to give a result
USAGE = 2  # bad arguments, an unreadable targets file, no SIFT_URL/SIFT_TOKEN
UNREACHABLE = 3  # no answer from the server: connection refused, DNS, timeout
JOB_FAILED = 4  # `wait`: the job ended failed, partial or cancelled
STILL_RUNNING = 5  # `wait --timeout`: the time ran out before the job finished
INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT


class CliError(Exception):
    """Ends the command with one plain line on stderr and the given exit code."""

    def __init__(self, message: str, code: int, body: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.body = body  # the server's JSON answer, when there was one
