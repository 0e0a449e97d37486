"""One claimed target, from the stored row to the result to store: rebuild the target, fetch it
(retrying a busy gate), and turn whatever happened, an exception included, into a TargetResult.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio
import structlog

from sift_fetch.callers import Caller
from sift_fetch.errors import Unavailable, fold_outcome
from sift_fetch.target import Target
from sift_store.batch import Claim, TargetResult

log = structlog.get_logger("sift.batch")


class Fetched(Protocol):
    """What the worker needs of the pipeline's `Result`."""

    @property
    def envelope(self) -> dict[str, Any]: ...

    @property
    def outcome(self) -> str: ...


FetchFn = Callable[[Caller, Target], Awaitable[Fetched]]


@dataclass
class LeaseWatch:
    """What the heartbeat has learnt about the claim while the target runs."""

    held_until: float  # the row lease holds at least until then (epoch seconds)
    lost: bool = False
    cancelled: anyio.Event = field(default_factory=anyio.Event)


@dataclass(frozen=True)
class AttemptLimits:
    deadline: float  # one fetch, pipeline deadline plus a margin
    busy_for: float  # keep retrying a busy gate this long
    busy_pause_max: float


def _rebuild_target(claim: Claim) -> Target:
    return Target(url=claim.url, **json.loads(claim.options))


def _failure(outcome: str, error: str, hint: str | None, busy_attempts: int) -> TargetResult:
    envelope = {"success": False, "error": error, "hint": hint}
    return TargetResult(
        ok=False,
        outcome=outcome,
        result=json.dumps(envelope),
        error=error,
        hint=hint,
        busy_attempts=busy_attempts,
    )


def _stored(fetched: Fetched, busy_attempts: int) -> TargetResult:
    envelope = fetched.envelope
    ok = fetched.outcome == "ok"
    retry_after = envelope.get("retry_after")
    return TargetResult(
        ok=ok,
        outcome=fold_outcome(fetched.outcome),
        result=json.dumps(envelope, ensure_ascii=False),
        error=None if ok else envelope.get("error"),
        hint=envelope.get("hint"),
        retry_after=float(retry_after) if isinstance(retry_after, int | float) else None,
        busy_attempts=busy_attempts,
    )


def _must_wait(fetched: Fetched) -> bool:
    """A full gate, or a store away for now: the same target can run a moment later."""
    error = fetched.envelope.get("error") or ""
    return fetched.outcome == "busy" or error.startswith(f"{Unavailable.prefix}:")


async def run_attempt(
    fetch: FetchFn, claim: Claim, caller: Caller, watch: LeaseWatch, limits: AttemptLimits
) -> TargetResult:
    """Never raises (but for cancellation): an exception fails the target `other`. A busy gate
    or an unavailable store is waited out (for up to `busy_for`), as nothing was fetched."""
    busy = 0
    give_up_at = time.monotonic() + limits.busy_for
    try:
        target = _rebuild_target(claim)
        while True:
            with anyio.move_on_after(limits.deadline) as deadline:
                fetched = await fetch(caller, target)
            if deadline.cancelled_caught:
                return _failure(
                    "timeout",
                    f"timeout: no result within {limits.deadline:.0f} s",
                    "retry",
                    busy,
                )
            if not _must_wait(fetched):
                return _stored(fetched, busy)
            busy += 1
            retry_after = fetched.envelope.get("retry_after") or 1.0
            pause = min(limits.busy_pause_max, float(retry_after) * 2 ** (busy - 1))
            if time.monotonic() + pause > give_up_at:
                return _stored(fetched, busy)
            with anyio.move_on_after(pause):
                await watch.cancelled.wait()
            if watch.cancelled.is_set():
                # Nothing was fetched yet, so the cancel reaches this target too.
                return _failure(
                    "cancel", "cancelled: the job was cancelled before this target ran", None, busy
                )
    except Exception as exc:
        # The exception's text may name the URL or host; its type is enough to find the bug.
        log.error(
            "batch.target.exception",
            job=claim.job_id,
            idx=claim.idx,
            error_type=type(exc).__name__,
        )
        return _failure("other", "error: internal error while fetching this target", "retry", busy)
