"""Per-request log line and HTTP metrics, labelled by route template, never the raw path."""

from __future__ import annotations

import time

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sift_fetch import metrics
from sift_fetch.logs import caller_fields, detail_fields

log = structlog.get_logger("sift.api")


def route_template(scope: Scope) -> str:
    """The route's path template (`/v1/batch/{job_id}`), the one route label of logs and
    metrics."""
    return getattr(scope.get("route"), "path", "unmatched")


class Observe:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                # int(): the MCP SDK sends an HTTPStatus, which a console log shows as its repr.
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            elapsed = time.perf_counter() - started
            route = route_template(scope)
            metrics.REQUESTS.labels(route, str(status)).inc()
            metrics.REQUEST_SECONDS.labels(route).observe(elapsed)
            state = scope.get("state", {})
            caller = state.get("caller")
            if route.startswith("/v1/batch"):
                # A batch log line never carries a target's URL or host, for any caller
                # (seed §8), and a refusal's message can name either: keep only its kind.
                host, error = None, (state.get("error") or "").partition(":")[0] or None
            else:
                host, error = state.get("host"), state.get("error")
            log.info(
                "http.request",
                method=scope["method"],
                route=route,
                status=status,
                duration_ms=round(elapsed * 1000, 1),
                outcome=state.get("outcome"),
                **caller_fields(caller),
                **detail_fields(caller, host, error),
            )
