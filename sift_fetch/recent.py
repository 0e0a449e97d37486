"""The envelopes this process put into the shared cache or read from it lately, kept in memory so
that a repeated fetch needs no trip to the store.

Each entry is the store's own: the same key (caller class, URL and options) and the same expiry,
so an answer from here is one the shared cache would have given. It only lives longer where the
store evicted it for room before it expired, which the cache never promised against. Bounded in
bytes, least recently used out first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

# Per process: a few hundred pages at the default content cap.
RECENT_MAX_BYTES = 16 * 1024 * 1024


class Recent:
    def __init__(self, max_bytes: int = RECENT_MAX_BYTES) -> None:
        self._max_bytes = max_bytes
        self._entries: OrderedDict[str, tuple[bytes, float]] = OrderedDict()
        self._bytes = 0
        # A worker runs its loops on threads of their own.
        self._lock = threading.Lock()

    def get(self, key: str, now: float) -> bytes | None:
        """The envelope JSON under KEY, unless missing or expired at NOW."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            envelope_json, expires_at = entry
            if expires_at <= now:
                self._drop(key)
                return None
            self._entries.move_to_end(key)
            return envelope_json

    def put(self, key: str, envelope_json: bytes, expires_at: float) -> None:
        size = len(envelope_json)
        if size > self._max_bytes:
            return
        with self._lock:
            if key in self._entries:
                self._drop(key)
            self._entries[key] = (envelope_json, expires_at)
            self._bytes += size
            while self._bytes > self._max_bytes:
                self._drop(next(iter(self._entries)))

    def _drop(self, key: str) -> None:
        envelope_json, _ = self._entries.pop(key)
        self._bytes -= len(envelope_json)
