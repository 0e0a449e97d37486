"""A real HTTP server on 127.0.0.1 for targets: routes map a path to a canned or computed reply.

It records every request and the peak number handled at once, so tests can assert what was
fetched (and how often, and how concurrently) from the server's side.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering (a slow target)


Route = Reply | Callable[[str], Reply]


class LocalSite:
    def __init__(self, routes: dict[str, Route] | None = None) -> None:
        self.routes: dict[str, Route] = dict(routes or {})
        self.hits: list[str] = []
        self.bodies: list[bytes] = []  # request bodies of POSTs, in arrival order
        self.inflight = 0
        self.peak_inflight = 0
        self._lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: object) -> None:
                pass

            def do_GET(self) -> None:
                site._serve(self)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                site.bodies.append(self.rfile.read(length))
                site._serve(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def count(self, path: str) -> int:
        with self._lock:
            return sum(1 for p in self.hits if p == path)

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        path = handler.path
        with self._lock:
            self.hits.append(path)
            self.inflight += 1
            self.peak_inflight = max(self.peak_inflight, self.inflight)
        try:
            route = self.routes.get(path.split("?", 1)[0])
            reply = Reply(404, b"not found", "text/plain") if route is None else route
            if callable(reply):
                reply = reply(path)
            if reply.delay:
                time.sleep(reply.delay)
            handler.send_response(reply.status)
            handler.send_header("Content-Type", reply.content_type)
            handler.send_header("Content-Length", str(len(reply.body)))
            for name, value in reply.headers.items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(reply.body)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            with self._lock:
                self.inflight -= 1

    def __enter__(self) -> LocalSite:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
