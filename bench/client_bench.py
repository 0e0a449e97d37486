"""The guarded client alone (HttpClient.fetch) beside a plain shared httpx.AsyncClient.

Both GET the same 7 KB page from a local server at a few concurrency levels; the ratio is
what the guard (pre-check, pinned connect, our body reading) costs per request.

    .venv/bin/python bench/client_bench.py [--requests 2000] [--concurrency 1,8]
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import statistics
import threading
import time
from collections.abc import Awaitable, Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

from sift_fetch.config import FetchConfig
from sift_fetch.guard import Policy
from sift_fetch.http import HttpClient

PAGE = b"<html><body>" + b"<p>lorem ipsum dolor sit amet</p>" * 210 + b"</body></html>"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Head and body in one write, sent at once: otherwise delayed ACKs add ~40 ms to every
    # request and hide what is being measured.
    wbufsize = -1
    disable_nagle_algorithm = True

    def log_message(self, *_args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)


async def _run(
    get: Callable[[], Awaitable[object]], requests: int, concurrency: int
) -> list[float]:
    latencies: list[float] = []
    remaining = iter(range(requests))

    async def worker() -> None:
        for _ in remaining:
            started = time.perf_counter()
            await get()
            latencies.append(time.perf_counter() - started)

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies


async def _measure(name: str, get: Callable[[], Awaitable[object]], n: int, c: int) -> float:
    await _run(get, min(n, 100), c)  # warm the pool
    started = time.perf_counter()
    latencies = await _run(get, n, c)
    rate = n / (time.perf_counter() - started)
    p50 = statistics.median(latencies) * 1000
    print(f"  {name:<12} {rate:8.0f} req/s   p50 {p50:6.2f} ms")
    return rate


async def main(requests: int, levels: list[int]) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    url = f"http://127.0.0.1:{port}/page"
    policy = Policy(allow_networks=(ipaddress.ip_network("127.0.0.1/32"),), allow_ports=(port,))
    guarded = HttpClient(FetchConfig(), policy)
    plain = httpx.AsyncClient(trust_env=False)
    try:
        for c in levels:
            print(f"concurrency {c}, {requests} requests of {len(PAGE)} bytes")
            base = await _measure("plain httpx", lambda: plain.get(url), requests, c)
            ours = await _measure("HttpClient", lambda: guarded.fetch(url, timeout=30), requests, c)
            print(f"  ratio        {ours / base:8.2f} (HttpClient / plain)")
    finally:
        await guarded.aclose()
        await plain.aclose()
        server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", default="1,8")
    args = parser.parse_args()
    asyncio.run(main(args.requests, [int(c) for c in args.concurrency.split(",")]))
