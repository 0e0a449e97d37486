"""`/v1/fetch` against a local static site, uncached and cached, beside a direct httpx GET.

Starts a static site and a real `sift serve` process on loopback, prints how long the server
took to answer /healthz and its very first clean fetch (render pool start-up included, unless
paid at start), then requests per second and median latency at a few concurrency levels, and
our overhead as a ratio.

    .venv/bin/python bench/fetch_bench.py [--requests 400] [--concurrency 1,8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

from sift_fetch.callers import token_hash

TOKEN = "bench-token"
PAGE = Path(__file__).parent / "pages"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *_args: object) -> None:
        pass


def static_site(root: Path) -> tuple[ThreadingHTTPServer, int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(root)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def site_pages(root: Path) -> list[str]:
    """The saved real pages if the render bench fetched them, else one generated article."""
    pages = sorted(p.name for p in PAGE.glob("*.html")) if PAGE.is_dir() else []
    for name in pages:
        (root / name).write_bytes((PAGE / name).read_bytes())
    if not pages:
        body = "".join(
            f"<h2>Part {i}</h2><p>{'Lorem ipsum dolor sit amet. ' * 20}</p>" for i in range(12)
        )
        (root / "article.html").write_text(
            f"<html><head><title>T</title></head><body><article>{body}</article></body></html>"
        )
        pages = ["article.html"]
    return pages


async def run(urls: list[str], concurrency: int, send) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    latencies: list[float] = []
    queue = list(urls)

    async def worker() -> None:
        while queue:
            url = queue.pop()
            t = time.perf_counter()
            await send(url)
            latencies.append(time.perf_counter() - t)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    return len(urls) / elapsed, statistics.median(latencies) * 1000


async def bench(args: argparse.Namespace, api: str, site: str, pages: list[str]) -> None:
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        headers = {"Authorization": f"Bearer {TOKEN}"}

        async def direct(url: str) -> None:
            (await client.get(url)).raise_for_status()

        def via_sift(mode: str):  # type: ignore[no-untyped-def]
            async def send(url: str) -> None:
                body = {"url": url, "mode": mode}
                r = await client.post(f"{api}/v1/fetch", json=body, headers=headers)
                if r.status_code != 200:
                    raise SystemExit(f"sift answered {r.status_code}: {r.text[:200]}")

            return send

        first = time.perf_counter()
        await via_sift("clean")(f"{site}/{pages[0]}?first")
        print(f"first clean fetch after start: {(time.perf_counter() - first) * 1000:.0f} ms")
        print(f"{len(pages)} page(s), {args.requests} requests per row")
        print(f"{'case':<28}{'conc':>5}{'req/s':>10}{'p50 ms':>10}{'ratio':>8}")
        for run_id, conc in enumerate(args.concurrency):
            unique = [
                f"{site}/{pages[i % len(pages)]}?r={run_id}-{i}" for i in range(args.requests)
            ]
            base_rps, base_p50 = await run(unique, conc, direct)
            print(f"{'direct httpx GET':<28}{conc:>5}{base_rps:>10.0f}{base_p50:>10.1f}{1.0:>8.2f}")
            # raw mode isolates our fetch path (guard, gates, cache, envelope) from extraction.
            for label, mode in (("raw", "raw"), ("clean", "clean")):
                for state in ("uncached", "cached"):
                    rps, p50 = await run(unique, conc, via_sift(mode))
                    name = f"sift {label} {state}"
                    print(f"{name:<28}{conc:>5}{rps:>10.0f}{p50:>10.1f}{base_rps / rps:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument(
        "--concurrency", type=lambda s: [int(x) for x in s.split(",")], default=[1, 8]
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "site"
        root.mkdir()
        pages = site_pages(root)
        server, site_port = static_site(root)
        api_port = free_port()
        config = Path(tmp) / "sift.toml"
        config.write_text(
            f"""
[server]
port = {api_port}
[store]
url = "sqlite:///{tmp}/bench.db"
[[callers]]
name = "bench"
token_sha256 = "{token_hash(TOKEN)}"
[fetch]
per_host = 8
per_caller = 8
[guard]
allow_cidrs = ["127.0.0.1/32"]
allow_ports = [{site_port}]
"""
        )
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "sift_cli", "serve", "--config", str(config)],
            stderr=subprocess.DEVNULL,
            env={**os.environ, "SIFT_CONFIG": ""},
        )
        try:
            api = f"http://127.0.0.1:{api_port}"
            for _ in range(200):
                try:
                    if httpx.get(f"{api}/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            print(f"start to healthy: {time.perf_counter() - started:.1f} s")
            asyncio.run(bench(args, api, f"http://127.0.0.1:{site_port}", pages))
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
            server.shutdown()


if __name__ == "__main__":
    main()
