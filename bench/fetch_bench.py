"""`/v1/fetch` beside a bare proxy of the same origin: what Sift adds to a fetch.

Starts, each in its own process on loopback: a static origin (bench/origin.py), a real
`sift serve` with its gates raised far above the load (so the figures measure the pipeline, not
the policy), and the bare proxy (bench/bare_proxy.py: one shared httpx client, the same
extraction through the same kind of pool in `clean` mode, nothing else). Then, at each
concurrency, for a few interleaved rounds of fresh URLs: the origin directly, the bare proxy,
and Sift uncached and cached, in `raw` and `clean` mode. Prints the median requests per second
and latency of the rounds, and Sift's throughput as a share of the bare proxy's in the same round,
the median of the rounds (the issue's goals: raw uncached >= 0.8, cached >= 0.95, clean
uncached >= 0.9).

    .venv/bin/python bench/fetch_bench.py [--requests 300] [--rounds 3] [--concurrency 1,8]
        [--modes raw,clean] [--store postgresql://postgres@127.0.0.1:5432/test] [--think MS]

`p50 share` is the comparator's median latency over this case's. With `--think MS` each client
pauses between its requests, as an agent does: work a server does after its answer then no
longer meets the next request, and the latency share is what a caller feels.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from sift_cli.launchers import exit_cleanly_on_sigterm
from sift_fetch.callers import token_hash

TOKEN = "bench-token"
BENCH = Path(__file__).parent
PAGE = BENCH / "pages"
Send = Callable[[str], Awaitable[None]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def site_pages(root: Path) -> list[str]:
    """The saved real pages, else one generated article."""
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


def sift_config(
    tmp: Path, api_port: int, site_port: int, store: str | None = None, cache_mb: int | None = None
) -> Path:
    """A config with the gates raised above the load; CACHE_MB, a shared cache that small (so a
    run measures a full cache, evicting as it puts, as a long-running service's is)."""
    cache = f"cache_max_bytes = {cache_mb * 1024 * 1024}" if cache_mb else ""
    config = tmp / "sift.toml"
    config.write_text(
        f"""
[server]
port = {api_port}
[store]
url = "{store or f"sqlite:///{tmp}/bench.db"}"
[[callers]]
name = "bench"
token_sha256 = "{token_hash(TOKEN)}"
[fetch]
global = 256
per_host = 256
per_caller = 256
{cache}
[guard]
allow_cidrs = ["127.0.0.1/32"]
allow_ports = [{site_port}]
"""
    )
    return config


def start(
    command: list[str], ready: str, cwd: Path = BENCH.parent, *, runner: list[str] | None = None
) -> subprocess.Popen[bytes]:
    """COMMAND under this Python (behind RUNNER, e.g. valgrind, if given), once READY answers."""
    proc = subprocess.Popen(
        [*(runner or []), sys.executable, *command],
        stdout=subprocess.DEVNULL if runner else None,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "SIFT_CONFIG": ""},
        cwd=cwd,
    )
    # Under a RUNNER a process starts tens of times slower.
    for _ in range(1200 if runner else 600):
        try:
            httpx.get(ready)
            return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{' '.join(command)} did not start")


def stop(procs: list[subprocess.Popen[bytes]], timeout: float = 30) -> None:
    """SIGTERM to every process, then wait for each: they stop side by side."""
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    for proc in procs:
        proc.wait(timeout=timeout)


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of PID and every process under it (its render pool), from /proc."""
    children: dict[int, list[int]] = defaultdict(list)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        children[int(fields[1])].append(int(stat.parent.name))
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        todo.extend(children[current])
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@dataclass(frozen=True)
class Origin:
    url: str
    port: int
    pages: list[str]
    pid: int


@contextmanager
def local_origin(tmp: Path) -> Iterator[Origin]:
    """The origin process, serving the bench pages, for the block's duration."""
    root = tmp / "site"
    root.mkdir()
    pages = site_pages(root)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start([str(BENCH / "origin.py"), str(root), str(port)], f"{url}/")
    try:
        yield Origin(url, port, pages, proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


async def run(
    urls: list[str], concurrency: int, send: Send, think: float = 0.0
) -> tuple[float, float]:
    latencies: list[float] = []
    queue = list(urls)

    async def worker() -> None:
        while queue:
            url = queue.pop()
            t = time.perf_counter()
            await send(url)
            latencies.append(time.perf_counter() - t)
            if think:
                await asyncio.sleep(think)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    return len(urls) / elapsed, statistics.median(latencies) * 1000


def poster(client: httpx.AsyncClient, endpoint: str, mode: str, headers: dict[str, str]) -> Send:
    """`/v1/fetch` for URL in MODE."""

    async def send(url: str) -> None:
        r = await client.post(endpoint, json={"url": url, "mode": mode}, headers=headers)
        if r.status_code != 200:
            raise SystemExit(f"{endpoint} answered {r.status_code}: {r.text[:200]}")

    return send


def proxied(client: httpx.AsyncClient, endpoint: str, mode: str) -> Send:
    """The bare proxy for URL in MODE."""

    async def send(url: str) -> None:
        r = await client.get(endpoint, params={"url": url, "mode": mode})
        if r.status_code != 200:
            raise SystemExit(f"{endpoint} answered {r.status_code}: {r.text[:200]}")

    return send


async def fill_cache(api: str, site: str, pages: list[str], mb: int) -> int:
    """Fresh raw fetches through API, eight at a time, until their pages add up to a tenth more
    than MB MiB (the shared cache's budget; an envelope holds at least its page), so that every
    measured put evicts; returns how many it sent."""
    async with httpx.AsyncClient(timeout=60) as client:
        sizes = [len((await client.get(f"{site}/{page}")).content) for page in pages]
        n = math.ceil(mb * 1024 * 1024 * 1.1 / statistics.mean(sizes))
        urls = [f"{site}/{pages[i % len(pages)]}?fill={i}" for i in range(n)]
        auth = {"Authorization": f"Bearer {TOKEN}"}
        await run(urls, 8, poster(client, f"{api}/v1/fetch", "raw", auth))
    return n


# (label, comparator label): each case's throughput is shown as a share of its comparator's.
CASES = [
    ("origin direct", None),
    ("bare proxy raw", None),
    ("sift raw uncached", "bare proxy raw"),
    ("sift raw cached", "bare proxy raw"),
    ("bare proxy clean", None),
    ("sift clean uncached", "bare proxy clean"),
    ("sift clean cached", "bare proxy clean"),
]


def _mode(label: str) -> str | None:
    """The mode a case fetches in (None: the origin directly, which every run measures)."""
    return next((mode for mode in ("raw", "clean") if f" {mode}" in label), None)


async def bench(
    args: argparse.Namespace, urls: dict[str, str], pids: dict[str, int], pages: list[str]
) -> None:
    api, bare, site = urls["sift"], urls["bare"], urls["origin"]
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        auth = {"Authorization": f"Bearer {TOKEN}"}

        async def direct(url: str) -> None:
            (await client.get(url)).raise_for_status()

        sends: dict[str, Send] = {"origin direct": direct}
        for mode in ("raw", "clean"):
            sends[f"bare proxy {mode}"] = proxied(client, f"{bare}/fetch", mode)
            sift = poster(client, f"{api}/v1/fetch", mode, auth)
            sends[f"sift {mode} uncached"] = sends[f"sift {mode} cached"] = sift

        cases = [(label, c) for label, c in CASES if _mode(label) in (None, *args.modes)]
        print(f"{len(pages)} page(s), {args.requests} requests a round, {args.rounds} rounds")
        print(
            f"{'case':<22}{'conc':>5}{'req/s':>9}{'p50 ms':>9}{'cpu ms':>9}{'share':>8}"
            f"{'p50 share':>11}"
        )
        for conc in args.concurrency:
            figures: dict[str, list[tuple[float, float]]] = defaultdict(list)
            cpu: dict[str, list[float]] = defaultdict(list)
            for round_ in range(args.rounds):
                # Fresh URLs every round: "uncached" never hits, "cached" always does.
                tag = f"{conc}-{round_}"
                targets = [
                    f"{site}/{pages[i % len(pages)]}?r={tag}-{i}" for i in range(args.requests)
                ]
                for label, _ in cases:
                    # A cached case asks for exactly what its uncached case just fetched.
                    case = label.replace(" cached", " uncached").replace(" ", "-")
                    use = [f"{u}&c={case}" for u in targets]
                    # CPU per request of the server that answers (its render pool included).
                    server = pids[label.split()[0]]
                    before = cpu_seconds(server)
                    figures[label].append(await run(use, conc, sends[label], args.think / 1000))
                    cpu[label].append((cpu_seconds(server) - before) / len(use) * 1000)
            rps = {label: statistics.median(r for r, _ in runs) for label, runs in figures.items()}
            for label, comparator in cases:
                p50 = statistics.median(p for _, p in figures[label])
                ms = statistics.median(cpu[label])
                # Within a round, then the median of rounds: the machine's speed drifts over
                # seconds, and a case is only ever compared with its neighbour in time.
                theirs = figures[comparator or label]
                pairs = list(zip(figures[label], theirs, strict=True))
                shares = [a / b for (a, _), (b, _) in pairs]
                # Latency as a share too (the comparator's p50 over this case's): with --think,
                # the throughput share is mostly the pause, and this is what a caller feels.
                p50_shares = [b / a for (_, a), (_, b) in pairs]
                share, p50_share = (
                    (f"{statistics.median(shares):.2f}", f"{statistics.median(p50_shares):.2f}")
                    if comparator
                    else ("", "")
                )
                print(
                    f"{label:<22}{conc:>5}{rps[label]:>9.0f}{p50:>9.1f}{ms:>9.2f}{share:>8}"
                    f"{p50_share:>11}"
                )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--store", help="a PostgreSQL URL (default: a new SQLite file)")
    parser.add_argument(
        "--cache-mb",
        type=int,
        help="the shared cache's budget in MiB, filled before the rounds (default: the config's)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="ms each client waits between its requests, as an agent does (default: none)",
    )
    parser.add_argument(
        "--concurrency", type=lambda s: [int(x) for x in s.split(",")], default=[1, 8]
    )
    parser.add_argument(
        "--modes", type=lambda s: s.split(","), default=["raw", "clean"], help="raw, clean or both"
    )
    args = parser.parse_args()
    exit_cleanly_on_sigterm()  # a killed bench stops the servers it started
    with tempfile.TemporaryDirectory() as name, local_origin(Path(name)) as origin:
        api_port, bare_port = free_port(), free_port()
        api = f"http://127.0.0.1:{api_port}"
        bare = f"http://127.0.0.1:{bare_port}"
        config = sift_config(Path(name), api_port, origin.port, args.store, args.cache_mb)
        procs: list[subprocess.Popen[bytes]] = []
        try:
            started = time.perf_counter()
            serve = ["-m", "sift_cli", "serve", "--config", str(config)]
            procs.append(start(serve, f"{api}/healthz"))
            print(f"sift: start to healthy {time.perf_counter() - started:.1f} s")
            procs.append(start([str(BENCH / "bare_proxy.py"), str(bare_port)], f"{bare}/"))
            if args.cache_mb:
                sent = asyncio.run(fill_cache(api, origin.url, origin.pages, args.cache_mb))
                print(f"sift: cache filled ({args.cache_mb} MiB, {sent} fetches)")
            urls = {"origin": origin.url, "sift": api, "bare": bare}
            pids = {"origin": origin.pid, "sift": procs[0].pid, "bare": procs[1].pid}
            asyncio.run(bench(args, urls, pids, origin.pages))
        finally:
            stop(procs)


if __name__ == "__main__":
    main()
