"""`/v1/batch`: submit a list of targets, read the summary / one result / all results (with an
optional long-poll), cancel.

The API never fetches a batch target: it validates every target (the same `parse_target` and
guard pre-check as `/v1/fetch`) before anything is stored, writes the job, and reads what the
worker stored. Every owner read bumps the job's lease (`touch`); store reads never write.
Another caller's job and an unknown id give the same 404 body, so ids cannot be probed.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

import anyio
import structlog
from starlette.requests import Request
from starlette.routing import Route

from sift_api.auth import authenticate
from sift_api.body import read_json
from sift_api.errors import NotFound
from sift_api.responses import JSONResponse
from sift_fetch import metrics
from sift_fetch.callers import Caller
from sift_fetch.errors import BadRequest, Blocked, FetchError
from sift_fetch.guard import precheck
from sift_fetch.runtime import Runtime
from sift_fetch.target import parse_target
from sift_store.batch import (
    FINISHED,
    RESTART,
    BatchCapError,
    JobLimits,
    JobView,
    NewTarget,
    TargetView,
    TooManyTargets,
)
from sift_store.batch_jobs import cancel, create_job, get_job, get_target, is_job_id, touch
from sift_store.outage import is_outage, outage_reason

log = structlog.get_logger("sift.batch")

MAX_WAIT_SECONDS = 60.0
# How often a long-poll re-reads its job (one job row and at most 32 target rows, no results):
# cheap, and soon enough that an agent hears of a finished job well within a second.
WAIT_POLL_SECONDS = 0.2
# What a busy submit suggests: a batch target takes seconds, a whole job longer.
BUSY_RETRY_AFTER = 10.0
# Failures that the same target may well get past later (hint `retry` covers the rest).
RETRYABLE_OUTCOMES = frozenset({"timeout", "busy", "upstream_5xx", RESTART, "cancel"})


class Conflict(FetchError):
    outcome = "other"
    http_status = 409
    prefix = "conflict"
    default_hint = None

    def __init__(self, detail: str, *, status: str) -> None:
        super().__init__(detail)
        self.status = status

    def envelope(self) -> dict[str, Any]:
        return {**super().envelope(), "status": self.status}


class _AtIndex(FetchError):
    """Names the refused target by index (`index`) as well as by field (in `error`)."""

    def __init__(self, index: int, cause: FetchError) -> None:
        super().__init__(cause.detail, hint=cause.hint)
        self.index = index

    def envelope(self) -> dict[str, Any]:
        return {**super().envelope(), "index": self.index}


class BadTarget(_AtIndex, BadRequest):
    """A target's fields are wrong: 400, the whole submit refused, nothing stored."""


class BlockedTarget(_AtIndex, Blocked):
    """A target fails the guard's pre-check: 422, the whole submit refused, nothing stored."""


class TooManyTargetsError(FetchError):
    outcome = "other"
    http_status = 422
    prefix = "too_many_targets"
    default_hint = "fix_request"


class BatchBusy(FetchError):
    """The caller already has a live job, or the service has `jobs_total` of them."""

    outcome = "busy"
    http_status = 429
    prefix = "busy"
    default_hint = "retry"


def _runtime(request: Request) -> tuple[Runtime, Caller]:
    rt: Runtime = request.app.state.runtime
    return rt, authenticate(request, rt.callers)


# --- submit -----------------------------------------------------------------------------------


def validate_targets(body: Any, rt: Runtime) -> list[NewTarget]:
    """The whole submit is checked before anything is stored; the first bad target refuses it."""
    if not isinstance(body, dict):
        raise BadRequest('body must be a JSON object: {"targets": [...]}')
    unknown = sorted(set(body) - {"targets"})
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]}")
    items = body.get("targets")
    if not isinstance(items, list):
        raise BadRequest("field targets must be a list of targets")
    if not items:
        raise BadRequest("field targets must hold at least one target")
    targets: list[NewTarget] = []
    for i, item in enumerate(items):
        try:
            if not isinstance(item, dict):
                raise BadRequest(f"targets[{i}] must be a JSON object")
            target = parse_target(item, where=f"targets[{i}].")
        except BadRequest as exc:
            raise BadTarget(i, exc) from None
        try:
            precheck(target.url, rt.policy)
        except Blocked as exc:
            raise BlockedTarget(
                i, Blocked(f"targets[{i}].url: {exc.detail}", hint=exc.hint)
            ) from None
        targets.append(NewTarget(url=target.url, options=target.options_json()))
    return targets


async def submit_job(rt: Runtime, caller: Caller, body: Any) -> dict[str, Any]:
    """Validate and store a job; the answer body. Shared by `POST /v1/batch` and MCP."""
    targets = validate_targets(body, rt)
    batch = rt.config.batch
    limits = JobLimits(batch.targets_per_job, batch.jobs_per_caller, batch.jobs_total)
    try:
        job = await rt.store.run(
            create_job,
            caller=caller.name,
            caller_class=caller.cls,
            targets=targets,
            limits=limits,
            ttl=batch.ttl,
            now=time.time(),
        )
    except TooManyTargets as exc:
        raise TooManyTargetsError(str(exc)) from None
    except BatchCapError as exc:
        raise BatchBusy(str(exc), retry_after=BUSY_RETRY_AFTER) from None
    metrics.count_batch_job("reused" if job.reused else "created")
    return {
        "success": True,
        "job_id": job.job_id,
        "status": job.status,
        "targets": job.targets_total,
        "reused": job.reused,
    }


async def submit(request: Request) -> JSONResponse:
    rt, caller = _runtime(request)
    body = await submit_job(rt, caller, await read_json(request))
    request.state.outcome = "reused" if body["reused"] else "created"
    return JSONResponse(body, status_code=202, headers={"Location": f"/v1/batch/{body['job_id']}"})


# --- reads ------------------------------------------------------------------------------------


def _iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def retryable(view: TargetView) -> bool:
    return view.outcome in RETRYABLE_OUTCOMES or view.hint == "retry"


def target_row(view: TargetView, *, with_result: bool) -> dict[str, Any]:
    row: dict[str, Any] = {
        "idx": view.idx,
        "url": view.url,
        "options": json.loads(view.options),
        "status": view.status,
    }
    if view.status == "failed":
        row["error"] = view.error
        row["hint"] = view.hint
        row["retryable"] = retryable(view)
        if view.retry_after is not None:
            row["retry_after"] = view.retry_after
    if with_result and view.result is not None:
        row["result"] = json.loads(view.result)
    return row


def job_body(job: JobView, ttl: float, *, with_results: bool) -> dict[str, Any]:
    failed = sum(1 for t in job.targets if t.status == "failed")
    body: dict[str, Any] = {
        "success": True,
        "job_id": job.job_id,
        "status": job.status,
        "targets_total": job.targets_total,
        "targets_done": job.targets_done,
        "targets_failed": failed,
        "created_at": _iso(job.created_at),
        "started_at": _iso(job.started_at),
        "finished_at": _iso(job.finished_at),
        "expires_at": _iso(job.lease + ttl),
        "targets": [target_row(t, with_result=with_results) for t in job.targets],
    }
    if job.error:
        body["error"] = job.error
    return body


def _job_id(request: Request) -> str:
    return str(request.path_params["job_id"])


def _check_job_id(job_id: str) -> None:
    """An id that names no job (a NUL, a surrogate, any junk) is 404 before any query."""
    if not is_job_id(job_id):
        raise _not_found()


def _flag(request: Request, name: str) -> bool:
    value = request.query_params.get(name, "0").lower()
    if value in ("1", "true", "yes"):
        return True
    if value in ("0", "false", "no", ""):
        return False
    raise BadRequest(f"query parameter {name} must be 0 or 1")


def _wait_seconds(request: Request) -> float:
    raw = request.query_params.get("wait")
    if raw is None:
        return 0.0
    try:
        return check_wait(float(raw), "query parameter wait")
    except ValueError:
        raise BadRequest("query parameter wait must be a number of seconds (0-60)") from None


def check_wait(wait: float, name: str) -> float:
    if not 0 <= wait <= MAX_WAIT_SECONDS:  # also refuses nan and inf
        raise BadRequest(f"{name} must be a number of seconds (0-60)")
    return wait


def _not_found() -> NotFound:
    return NotFound("no such batch job")


async def _owned_touch(rt: Runtime, job_id: str, caller: Caller) -> str | None:
    """Bump the job's lease (an owner read); 404 when the job is not the caller's.

    A touch lost to a store outage (a lock, a full disk, a read-only database) costs only lease
    time, so the read goes on and finds out by itself whether the job is the caller's. The
    outage's reason comes back, to be logged once the read has answered: a read that fails too
    is logged as `store.unavailable`, and one line per failed request is enough."""
    _check_job_id(job_id)
    try:
        owned = await rt.store.run(touch, job_id, caller=caller.name, now=time.time())
    except Exception as exc:
        if not is_outage(exc):
            raise
        return outage_reason(exc)
    if not owned:
        raise _not_found()
    return None


def _log_lost_touch(reason: str | None) -> None:
    if reason is not None:
        log.warning("batch.touch.unavailable", reason=reason)


async def _wait_until_finished(rt: Runtime, job_id: str, caller: Caller, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        job = await rt.store.run(get_job, job_id, caller=caller.name)
        if job is None:
            raise _not_found()
        remaining = deadline - time.monotonic()
        if job.status in FINISHED or remaining <= 0:
            return
        await anyio.sleep(min(WAIT_POLL_SECONDS, remaining))


async def job_summary(
    rt: Runtime, caller: Caller, job_id: str, *, wait: float = 0.0, with_results: bool = False
) -> dict[str, Any]:
    """The owner's view of a job, after waiting up to WAIT seconds for it to finish."""
    lost = await _owned_touch(rt, job_id, caller)
    if wait:
        await _wait_until_finished(rt, job_id, caller, wait)
        # A long wait is a read too: the lease counts from its answer.
        lost = await _owned_touch(rt, job_id, caller)
    job = await rt.store.run(get_job, job_id, caller=caller.name, results=with_results)
    if job is None:  # swept or evicted since the touch
        raise _not_found()
    _log_lost_touch(lost)
    return job_body(job, rt.config.batch.ttl, with_results=with_results)


async def read_job(request: Request) -> JSONResponse:
    rt, caller = _runtime(request)
    with_results = _flag(request, "results")
    wait = _wait_seconds(request)
    body = await job_summary(rt, caller, _job_id(request), wait=wait, with_results=with_results)
    return JSONResponse(body)


async def target_result(rt: Runtime, caller: Caller, job_id: str, raw: str) -> dict[str, Any]:
    """One target's row and, once finished, its result; RAW is the index as the caller wrote it."""
    lost = await _owned_touch(rt, job_id, caller)
    # Parsed here, not by a route convertor: a bad index gets this JSON 404, not a bare one.
    idx = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None
    view = None if idx is None else await rt.store.run(get_target, job_id, idx, caller=caller.name)
    if view is None:
        raise NotFound(f"the batch job has no target {raw!r}")
    _log_lost_touch(lost)
    return {"success": True, "job_id": job_id, **target_row(view, with_result=True)}


async def read_target(request: Request) -> JSONResponse:
    rt, caller = _runtime(request)
    raw = str(request.path_params["idx"])
    return JSONResponse(await target_result(rt, caller, _job_id(request), raw))


# --- cancel -----------------------------------------------------------------------------------


async def cancel_owned(rt: Runtime, caller: Caller, job_id: str) -> dict[str, Any]:
    _check_job_id(job_id)
    now = time.time()
    done = await rt.store.run(cancel, job_id, caller=caller.name, now=now)
    if done is None:
        raise _not_found()
    if not done.changed:
        raise Conflict(f"the job has already finished ({done.status})", status=done.status)
    metrics.observe_batch_job("cancelled", now - done.created_at)
    return {"success": True, "status": "cancelled"}


async def cancel_job(request: Request) -> JSONResponse:
    rt, caller = _runtime(request)
    body = await cancel_owned(rt, caller, _job_id(request))
    request.state.outcome = "cancelled"
    return JSONResponse(body)


ROUTES = [
    Route("/v1/batch", submit, methods=["POST"]),
    Route("/v1/batch/{job_id}", read_job, methods=["GET"]),
    Route("/v1/batch/{job_id}", cancel_job, methods=["DELETE"]),
    Route("/v1/batch/{job_id}/{idx}", read_target, methods=["GET"]),
]
