"""RenderPool: `render()` in worker processes, bounded in count, time and memory.

Why processes: rendering is CPU-bound (trafilatura, PDFium) and runs agent-supplied programs (jq
is C code that cannot be interrupted from Python). A process can be killed; a thread cannot.
pebble's ProcessPool kills a task's process when the task outlives `timeout` and starts a fresh
one, so a runaway program costs one worker for at most `timeout` seconds and nothing else.

Bounds:
- count: at most `workers + queue` tasks are pending (running or waiting); one more gets
  `Busy` at once, like a full gate, instead of queueing without limit;
- time: `timeout` per task from the moment a worker starts it;
- memory: each worker's address space is capped (RLIMIT_AS), so an exploding program fails
  its own allocation (MemoryError, or libjq aborting the process) instead of starving the host.

Workers start from a forkserver that has already imported the renderers, so replacing a killed
worker takes milliseconds and never forks the (threaded) server process itself. Starting that
forkserver takes seconds: `start()` pays them when the process starts, not the first render
(whose event loop pebble would block meanwhile).

Cheap renders skip the pool: a small body in raw HTML, text or JSON without a program runs no
code of the agent's and costs a few milliseconds at worst (charset detection, JSON
pretty-printing), less than the pool's round trip.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import resource
import signal
import threading

import pebble

from sift_fetch.errors import BadRequest, Busy, FetchError, Timeout, TooLong, Unsupported
from sift_fetch.render.core import render
from sift_fetch.render.decode import classify
from sift_fetch.render.model import Document, Rendered
from sift_fetch.target import Target

MEMORY_LIMIT = 1 << 30  # bytes of address space per worker
_PRELOAD = ["sift_fetch.render.core"]
# A generous bound on starting the forkserver and the workers (a couple of seconds on 2 cores).
START_TIMEOUT = 120.0
# The largest body a cheap render takes in-process: pretty-printing this much JSON, or detecting
# this much text's charset, costs ~3 ms.
INLINE_MAX_BYTES = 64 * 1024


def _init_worker(memory_limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # an aborting libjq must not dump core
    # pebble stops a timed-out worker with SIGTERM and its own Python handler, which cannot run
    # while libjq holds the thread, so the kill came only after a 3 s grace. The default action
    # ends the process at once.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _ready() -> None:
    """The task `start()` waits for: it runs once a worker is up."""


def renders_inline(doc: Document, target: Target) -> bool:
    """Whether rendering DOC for TARGET is cheap enough to do without the pool."""
    if len(doc.body) > INLINE_MAX_BYTES or target.context:
        return False
    if target.jq or target.grep or target.question:
        return False
    try:
        kind = classify(doc)
    except FetchError:
        return False  # the pool's render gives the same refusal
    return kind in ("text", "json") or (kind == "html" and target.mode == "raw")


def _program(target: Target) -> str | None:
    if target.jq:
        return "jq program"
    if target.grep:
        return "grep pattern"
    return None


class RenderPool:
    def __init__(
        self, workers: int, queue: int, timeout: float, *, memory_limit: int = MEMORY_LIMIT
    ) -> None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)
        self._pool = pebble.ProcessPool(
            max_workers=workers,
            initializer=_init_worker,
            initargs=(memory_limit,),
            context=context,
        )
        self._capacity = workers + queue
        self._timeout = timeout
        self._memory_limit = memory_limit
        self._pending = 0
        self._lock = threading.Lock()  # render() may be awaited from several event loops

    def start(self) -> None:
        """Start the forkserver and every worker now, and wait until one has run a task. A
        start cut short (by a signal's SystemExit, say) stops what it started: the process
        must not wait at exit for workers that nobody will stop."""
        try:
            self._pool.schedule(_ready).result(timeout=START_TIMEOUT)
        except BaseException:
            self.close()
            raise

    def _release(self, *_: object) -> None:
        with self._lock:
            self._pending -= 1

    async def render(self, doc: Document, target: Target, max_chars: int) -> Rendered:
        if renders_inline(doc, target):
            return render(doc, target, max_chars)
        with self._lock:
            if self._pending >= self._capacity:
                raise Busy("render pool full", retry_after=1.0)
            self._pending += 1
        try:
            future = self._pool.schedule(
                render, args=(doc, target, max_chars), timeout=self._timeout
            )
        except BaseException:
            self._release()
            raise
        future.add_done_callback(self._release)
        # Cancelling the awaiting task cancels the pebble future, which kills a running worker.
        try:
            return await asyncio.wrap_future(future)
        except TimeoutError:
            raise self._took_too_long(target) from None
        except MemoryError:
            raise self._out_of_memory(target) from None
        except pebble.ProcessExpired as exc:
            raise self._crashed(target, exc.exitcode) from None

    def _took_too_long(self, target: Target) -> FetchError:
        program = _program(target)
        seconds = f"{self._timeout:g} s"
        if program:
            return BadRequest(f"{program} ran longer than {seconds} and was stopped")
        return Timeout(f"rendering took longer than {seconds}")

    def _out_of_memory(self, target: Target) -> FetchError:
        mib = self._memory_limit >> 20
        program = _program(target)
        if program:
            return BadRequest(f"{program} needed more than {mib} MiB of memory and was stopped")
        return TooLong(f"rendering this document needed more than {mib} MiB of memory")

    def _crashed(self, target: Target, exitcode: int | None) -> FetchError:
        # libjq aborts the process when an allocation fails under the address-space cap.
        if target.jq and exitcode == -signal.SIGABRT:
            return self._out_of_memory(target)
        if target.jq:
            return BadRequest("jq program crashed its worker and was stopped")
        return Unsupported(
            "rendering this document crashed its worker (out of memory or a malformed file)",
            hint="browser",
        )

    def close(self) -> None:
        self._pool.stop()
        self._pool.join(timeout=10)
