"""Linux inotify on one directory, through libc (no dependency): which files in it were written.

Used to wake the batch worker the moment another process commits to the SQLite database (a
commit writes the `-wal` file), instead of waking up every few milliseconds to ask.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys

IN_MODIFY = 0x002
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_Q_OVERFLOW = 0x4000
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then `len` bytes of NUL-padded name


class DirWatch:
    def __init__(self, fd: int) -> None:
        self._fd = fd

    @classmethod
    def open(cls, directory: str) -> DirWatch | None:
        """Watch DIRECTORY for writes, or None where inotify is unavailable."""
        if not sys.platform.startswith("linux"):
            return None
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, AttributeError):
            return None
        if fd < 0:
            return None
        mask = IN_MODIFY | IN_CREATE | IN_MOVED_TO
        if libc.inotify_add_watch(fd, os.fsencode(directory), mask) < 0:
            os.close(fd)
            return None
        return cls(fd)

    def fileno(self) -> int:
        return self._fd

    def written(self) -> set[str] | None:
        """Names written since the last call (drains the queue); None when the kernel dropped
        events, so anything may have changed."""
        names: set[str] = set()
        while True:
            try:
                data = os.read(self._fd, 64 * 1024)
            except BlockingIOError:
                return names
            offset = 0
            while offset < len(data):
                _wd, mask, _cookie, size = _EVENT.unpack_from(data, offset)
                offset += _EVENT.size
                if mask & IN_Q_OVERFLOW:
                    return None
                names.add(data[offset : offset + size].rstrip(b"\0").decode(errors="replace"))
                offset += size

    def close(self) -> None:
        os.close(self._fd)
