"""Two revisions of Sift side by side: is a change to the fetch path faster, or only noise?

On a shared virtual machine the speed of the same code moves by a third from one minute to the
next, so two runs of bench/fetch_bench.py cannot tell a change of a few percent from drift.
This starts, on loopback, one origin and two `sift serve`s: A from a git revision (checked out
into a temporary worktree) and B from this working tree, then sends them alternate bursts of
fresh `/v1/fetch` requests (A then B, then B then A, ...). Each pair of neighbouring bursts gives
one B/A ratio of throughput, so the drift falls on both sides of it; the median and quartiles of
those ratios are the answer, with each side's requests per second and CPU per request.

    .venv/bin/python bench/fetch_ab.py [--base HEAD] [--bursts 40] [--requests 100]
        [--concurrency 1] [--mode raw] [--store postgresql://…] [--cache-mb 4]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from fetch_bench import (
    TOKEN,
    cpu_seconds,
    free_port,
    local_origin,
    poster,
    run,
    sift_config,
    start,
    stop,
)

from sift_cli.launchers import exit_cleanly_on_sigterm

TREE = Path(__file__).resolve().parent.parent


@contextmanager
def checkout(rev: str) -> Iterator[Path]:
    """REV in a temporary git worktree, removed afterwards."""
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "base"
        git = ["git", "-C", str(TREE)]
        subprocess.run([*git, "worktree", "add", "--detach", str(path), rev], check=True)
        try:
            yield path
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(path)], check=True)


async def compare(
    args: argparse.Namespace, origin: str, pages: list[str], servers: dict[str, tuple[int, str]]
) -> None:
    rps: dict[str, list[float]] = {"A": [], "B": []}
    cpu: dict[str, list[float]] = {"A": [], "B": []}
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        for n in range(args.bursts):
            for side in "AB" if n % 2 == 0 else "BA":
                pid, api = servers[side]
                send = poster(client, f"{api}/v1/fetch", args.mode, auth)
                urls = [
                    f"{origin}/{pages[i % len(pages)]}?ab={n}-{side}-{i}"
                    for i in range(args.requests)
                ]
                before = cpu_seconds(pid)
                rps[side].append((await run(urls, args.concurrency, send))[0])
                cpu[side].append((cpu_seconds(pid) - before) / args.requests * 1000)
    ratios = [b / a for a, b in zip(rps["A"], rps["B"], strict=True)]
    q1, median, q3 = statistics.quantiles(ratios, n=4)
    for side, what in (("A", args.base), ("B", "working tree")):
        print(
            f"{side} ({what}): {statistics.median(rps[side]):.0f} req/s, "
            f"{statistics.median(cpu[side]):.2f} ms CPU a request"
        )
    print(f"B/A throughput: median {median:.3f} (quartiles {q1:.3f}-{q3:.3f}, {len(ratios)} pairs)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="HEAD", help="the revision A runs (default: HEAD)")
    parser.add_argument("--bursts", type=int, default=40)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--mode", default="raw", choices=["raw", "clean"])
    parser.add_argument("--store", help="a PostgreSQL URL (default: a new SQLite file each)")
    parser.add_argument(
        "--cache-mb",
        type=int,
        help="the shared cache's budget in MiB, small enough to fill (default: the config's)",
    )
    args = parser.parse_args()
    exit_cleanly_on_sigterm()  # a killed bench stops the servers it started
    with (
        tempfile.TemporaryDirectory() as name,
        local_origin(Path(name)) as origin,
        checkout(args.base) as base,
    ):
        procs: list[subprocess.Popen[bytes]] = []
        servers: dict[str, tuple[int, str]] = {}
        try:
            for side, tree in (("A", base), ("B", TREE)):
                port = free_port()
                api = f"http://127.0.0.1:{port}"
                (Path(name) / side).mkdir()
                config = sift_config(
                    Path(name) / side, port, origin.port, args.store, args.cache_mb
                )
                # `python -m` puts the working directory first on sys.path: each side runs the
                # packages of its own tree.
                serve = ["-m", "sift_cli", "serve", "--config", str(config)]
                procs.append(start(serve, f"{api}/healthz", cwd=tree))
                servers[side] = (procs[-1].pid, api)
            asyncio.run(compare(args, origin.url, origin.pages, servers))
        finally:
            stop(procs)


if __name__ == "__main__":
    main()
