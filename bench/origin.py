"""A static origin for the fetch benchmarks, fast enough never to be what is measured.

Its own process (an asyncio server on uvloop when installed), HTTP/1.1 keep-alive, and one
write per response: `BaseHTTPRequestHandler` writes the headers and the body separately, and
that second small write waits for a delayed ACK (~40 ms a request on loopback).

    python bench/origin.py DIR PORT     # serves DIR's files at /NAME, any query string ignored
"""

from __future__ import annotations

import asyncio
import mimetypes
import sys
from pathlib import Path

MAX_HEAD = 16 * 1024


def load(root: Path) -> dict[str, bytes]:
    """Every file's whole response, built once."""
    responses = {}
    for path in sorted(root.iterdir()):
        if path.is_file():
            body = path.read_bytes()
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            if kind.startswith("text/"):
                kind += "; charset=utf-8"
            head = f"HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n\r\n"
            responses[f"/{path.name}"] = head.encode() + body
    return responses


NOT_FOUND = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"


async def serve(root: Path, port: int) -> None:
    responses = load(root)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                if len(head) > MAX_HEAD:
                    break
                target = head.split(b" ", 2)[1].decode("latin-1")
                writer.write(responses.get(target.partition("?")[0], NOT_FOUND))
                await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", port, backlog=1024)
    async with server:
        await server.serve_forever()


def main() -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(serve(Path(sys.argv[1]), int(sys.argv[2])))


if __name__ == "__main__":
    main()
