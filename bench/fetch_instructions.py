"""Instructions a raw, uncached `/v1/fetch` costs in `sift serve`, beside the bare proxy's.

Timings on this shared VM move by a third from one minute to the next; valgrind's callgrind
counts the instructions a process runs, which repeat for the same code and inputs whatever else
the machine is doing. This starts one origin, `sift serve` and bench/bare_proxy.py on loopback,
the two servers under callgrind with counting off, warms both, then counts REQUESTS fresh raw
fetches one at a time through each and prints instructions per request: in all, and inclusive in
the C functions where Sift's extra work shows (the JSON envelope, SQLite, decoding and encoding
the page's text, regular expressions, copies). Kernel time (the syscalls) is not counted.

    .venv/bin/python bench/fetch_instructions.py [--requests 200]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from fetch_bench import BENCH, TOKEN, free_port, local_origin, sift_config, start, stop

from sift_cli.launchers import exit_cleanly_on_sigterm

# (label, a substring of the C function's name in callgrind_annotate's listing)
PARTS = [
    ("in all", "PROGRAM TOTALS"),
    ("orjson dumps", "orjson.cpython"),
    ("  of it, str to UTF-8", "PyUnicode_AsUTF8AndSize"),
    ("SQLite statements", "pysqlite_cursor_execute"),
    ("bytes to str", ":PyUnicode_Decode "),
    ("regular expressions", "_sre_SRE_Pattern_"),
    ("memcpy", "__memcpy_"),
]
_LINE = re.compile(r"^\s*([\d,]+) \([^)]*\)\s+(.*)$")


def callgrind(out: Path) -> list[str]:
    return ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]


def counting(pid: int, on: bool) -> None:
    subprocess.run(
        ["callgrind_control", "-i", "on" if on else "off", str(pid)],
        check=True,
        capture_output=True,
    )


def inclusive(out: Path) -> dict[str, int]:
    """Each function's inclusive count, by its name in callgrind_annotate's listing."""
    listing = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    counts: dict[str, int] = {}
    for line in listing.splitlines():
        if m := _LINE.match(line):
            name = m.group(2)
            counts[name] = max(counts.get(name, 0), int(m.group(1).replace(",", "")))
    return counts


def part(counts: dict[str, int], needle: str) -> int:
    """The largest inclusive count among functions whose name holds NEEDLE (the outermost)."""
    return max((n for name, n in counts.items() if needle in name), default=0)


async def drive(tag: str, requests: int, api: str, bare: str, site: str, pages: list[str]) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(timeout=120) as client:

        async def sift(url: str) -> None:
            r = await client.post(f"{api}/v1/fetch", json={"url": url, "mode": "raw"}, headers=auth)
            r.raise_for_status()

        async def proxied(url: str) -> None:
            r = await client.get(f"{bare}/fetch", params={"url": url, "mode": "raw"})
            r.raise_for_status()

        urls = [f"{site}/{pages[i % len(pages)]}?{tag}={i}" for i in range(requests)]
        for send in (sift, proxied):
            for url in urls:
                await send(url)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    exit_cleanly_on_sigterm()
    with tempfile.TemporaryDirectory() as name, local_origin(Path(name)) as origin:
        tmp = Path(name)
        api_port, bare_port = free_port(), free_port()
        api, bare = f"http://127.0.0.1:{api_port}", f"http://127.0.0.1:{bare_port}"
        config = sift_config(tmp, api_port, origin.port)
        outs = {"sift": tmp / "sift.callgrind", "bare proxy": tmp / "bare.callgrind"}
        serve = ["-m", "sift_cli", "serve", "--config", str(config)]
        procs = {
            "sift": start(serve, f"{api}/healthz", runner=callgrind(outs["sift"])),
            "bare proxy": start(
                [str(BENCH / "bare_proxy.py"), str(bare_port)],
                f"{bare}/",
                runner=callgrind(outs["bare proxy"]),
            ),
        }
        try:
            # Warm-up uncounted: the first requests import and compile what later ones reuse.
            asyncio.run(drive("warm", 30, api, bare, origin.url, origin.pages))
            for proc in procs.values():
                counting(proc.pid, True)
            asyncio.run(drive("count", args.requests, api, bare, origin.url, origin.pages))
            time.sleep(1)  # the release after the last answer
            for proc in procs.values():
                counting(proc.pid, False)
        finally:
            # Under callgrind a process writes its counts as it exits.
            stop(list(procs.values()), timeout=120)
        counts = {label: inclusive(out) for label, out in outs.items()}
    n = args.requests
    print(f"{n} raw uncached fetches one at a time; thousands of instructions a request")
    print(f"{'':<24}{'sift':>10}{'bare proxy':>12}")
    for label, needle in PARTS:
        sift, proxy = (part(counts[k], needle) / n / 1000 for k in ("sift", "bare proxy"))
        print(f"{label:<24}{sift:>10.0f}{proxy:>12.0f}")


if __name__ == "__main__":
    main()
