"""The demo's built-in site: the files in `demo_site/` served on 127.0.0.1, plus one redirect
to a loopback address outside the guard's allowance (the demo's "private address")."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".pdf": "application/pdf",
    ".json": "application/json",
}
# 127.0.0.2 is loopback, so even a broken guard could only ever reach this machine; the demo's
# allowance is 127.0.0.1 alone, so the guard must refuse it.
PRIVATE_ADDRESS = "127.0.0.2"


def _files() -> dict[str, tuple[bytes, str]]:
    root = resources.files("sift_cli") / "demo_site"
    files = {}
    for entry in root.iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1]
        files[f"/{entry.name}"] = (entry.read_bytes(), CONTENT_TYPES[suffix])
    return files


class DemoSite:
    """Binds at construction (so its port can go into the config before any thread starts),
    serves from `start()` until `stop()`."""

    def __init__(self) -> None:
        files = _files()
        not_found = files.pop("/404.html")
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: object) -> None:
                pass

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                if path == "/intranet":
                    location = f"http://{PRIVATE_ADDRESS}:{site.port}/admin"
                    self._reply(302, b"", "text/plain", {"Location": location})
                    return
                body, ctype = files.get(path, not_found)
                self._reply(200 if path in files else 404, body, ctype, {})

            def _reply(self, status: int, body: bytes, ctype: str, extra: dict[str, str]) -> None:
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                for name, value in extra.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = int(self._server.server_address[1])
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        if self._thread.is_alive():
            self._server.shutdown()
        self._server.server_close()
