"""A loopback TCP proxy a test can cut and restore, to stage a store outage: put it in front of
PostgreSQL, point Sift's store URL at it, and `cut()` drops every open connection and refuses
new ones until `restore()`, as a database restart or a network blip would.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress

LOOPBACK = "127.0.0.1"


class TcpProxy:
    def __init__(self, upstream_port: int, upstream_host: str = LOOPBACK) -> None:
        if upstream_host != LOOPBACK:
            raise ValueError("tests proxy to loopback only")
        self._upstream = (upstream_host, upstream_port)
        self._lock = threading.Lock()
        # Each open connection: its two sockets and the two threads pumping between them.
        self._pairs: list[tuple[socket.socket, socket.socket, list[threading.Thread]]] = []
        self._open = threading.Event()
        self._open.set()
        self._closed = False
        self._listener = socket.create_server((LOOPBACK, 0))
        self._listener.settimeout(0.1)
        self.port: int = self._listener.getsockname()[1]
        self.accepted = 0
        self._thread = threading.Thread(target=self._serve, name="tcpproxy", daemon=True)
        self._thread.start()

    def url_for(self, pg_url: str) -> str:
        """PG_URL with its host and port replaced by this proxy's."""
        scheme, rest = pg_url.split("://", 1)
        userinfo, _, hostpart = rest.rpartition("@")
        path = hostpart[hostpart.index("/") :] if "/" in hostpart else ""
        prefix = f"{userinfo}@" if userinfo else ""
        return f"{scheme}://{prefix}{LOOPBACK}:{self.port}{path}"

    def cut(self) -> None:
        """Drop every open connection (RST) and refuse new ones; returns once the resets are
        out, so the peer's next read sees them."""
        self._open.clear()
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for client, upstream, pumps in pairs:
            _reset(client)
            _reset(upstream)
            # A pump blocked in recv() holds its socket open past close(): the kernel sends the
            # RST only when that recv returns, so wait for the pumps to let go.
            for pump in pumps:
                pump.join(timeout=5)

    def restore(self) -> None:
        self._open.set()

    @contextmanager
    def outage(self) -> Iterator[None]:
        self.cut()
        try:
            yield
        finally:
            self.restore()

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._thread.join(timeout=5)
        self._listener.close()

    def _serve(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if not self._open.is_set():
                _reset(client)
                continue
            try:
                upstream = socket.create_connection(self._upstream, timeout=5)
            except OSError:
                _reset(client)
                continue
            self.accepted += 1
            pumps = [
                threading.Thread(target=_pump, args=(src, dst), daemon=True)
                for src, dst in ((client, upstream), (upstream, client))
            ]
            with self._lock:  # started under the lock, so cut() never joins an unstarted one
                self._pairs.append((client, upstream, pumps))
                for pump in pumps:
                    pump.start()


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        with suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
    finally:
        _reset(dst)
        _reset(src)


def _reset(sock: socket.socket) -> None:
    # SO_LINGER 0: close with RST, as a dead peer looks, not a polite FIN.
    with suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    # A pump blocked in recv() on this socket keeps it alive through close(), so no RST would
    # go out and the peer would wait for an answer forever; shutting reads down wakes it first.
    with suppress(OSError):
        sock.shutdown(socket.SHUT_RD)
    with suppress(OSError):
        sock.close()
