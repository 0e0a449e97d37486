"""A progress bar on stderr, so stdout stays clean for results.

On a terminal the bar is redrawn in place; elsewhere (CI logs, pipes) a line is written only when
the count or the status changes, so a log never fills with identical lines.
"""

from __future__ import annotations

import sys
from typing import TextIO

WIDTH = 28


class Progress:
    def __init__(self, total: int, stream: TextIO | None = None, label: str = "batch") -> None:
        self.total = max(total, 0)
        self.stream = stream or sys.stderr
        self.label = label
        self.tty = self.stream.isatty()
        self._last: tuple[int, str] | None = None

    def update(self, done: int, status: str) -> None:
        if (done, status) == self._last:
            return
        self._last = (done, status)
        filled = WIDTH * done // self.total if self.total else WIDTH
        bar = "#" * filled + "-" * (WIDTH - filled)
        line = f"{self.label} [{bar}] {done}/{self.total} {status}"
        if self.tty:
            self.stream.write(f"\r{line}\x1b[K")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty and self._last is not None:
            self.stream.write("\n")
            self.stream.flush()
