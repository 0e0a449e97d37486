"""Every way one target can fail, each with its metric outcome, HTTP status and hint.

The pipeline raises these; `/v1/fetch` and the batch worker turn them into the failure
envelope `{"success": false, "error", "hint"}` through `FetchError.envelope()`.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, get_args

Outcome = Literal[
    "ok",
    "blocked",
    "timeout",
    "busy",
    "upstream_4xx",
    "upstream_5xx",
    "unsupported",
    "too_long",
    "cancel",
    "other",
]
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)

# The documented hint vocabulary (README "Hints"): what the agent could try instead.
Hint = Literal["browser", "recover", "retry", "pages", "grep", "question", "fix_request"]


def fold_outcome(value: str) -> Outcome:
    """A raw string never becomes a label: anything unknown is `other`."""
    return value if value in OUTCOMES else "other"


class FetchError(Exception):
    outcome: ClassVar[Outcome] = "other"
    http_status: ClassVar[int] = 502
    prefix: ClassVar[str] = "error"
    default_hint: ClassVar[Hint | None] = None
    default_retry_after: ClassVar[float | None] = None

    def __init__(
        self,
        detail: str,
        *,
        hint: Hint | None = None,
        retry_after: float | None = None,
        upstream_status: int | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.hint = hint if hint is not None else self.default_hint
        self.retry_after = retry_after if retry_after is not None else self.default_retry_after
        self.upstream_status = upstream_status

    @property
    def message(self) -> str:
        return f"{self.prefix}: {self.detail}"

    def envelope(self) -> dict[str, Any]:
        body: dict[str, Any] = {"success": False, "error": self.message, "hint": self.hint}
        if self.retry_after is not None:
            body["retry_after"] = self.retry_after
        if self.upstream_status is not None:
            body["status"] = self.upstream_status
        return body


class BadRequest(FetchError):
    """The request itself is wrong (a field, a regex, a jq program): the agent must fix it."""

    outcome = "other"
    http_status = 400
    prefix = "bad_request"
    default_hint = "fix_request"


class Blocked(FetchError):
    """The guard refused the target: a private address, a port, a scheme, userinfo."""

    outcome = "blocked"
    http_status = 422
    prefix = "blocked"
    default_hint = "browser"


class Busy(FetchError):
    """A gate or the render pool is full; the same request can work a moment later."""

    outcome = "busy"
    http_status = 429
    prefix = "busy"
    default_hint = "retry"


class Timeout(FetchError):
    outcome = "timeout"
    http_status = 504
    prefix = "timeout"
    default_hint = "retry"


class Upstream4xx(FetchError):
    outcome = "upstream_4xx"
    http_status = 502
    prefix = "upstream"
    default_hint = "recover"


class Upstream5xx(FetchError):
    outcome = "upstream_5xx"
    http_status = 502
    prefix = "upstream"
    default_hint = "retry"


class UpstreamFailed(FetchError):
    """The connection itself failed (refused, reset, TLS): no HTTP status to speak of."""

    outcome = "other"
    http_status = 502
    prefix = "upstream"
    default_hint = "recover"


class Unsupported(FetchError):
    outcome = "unsupported"
    http_status = 422
    prefix = "unsupported"
    default_hint = "browser"


class TooLong(FetchError):
    outcome = "too_long"
    http_status = 502
    prefix = "too_long"
    default_hint = "pages"


class Unavailable(FetchError):
    """The store is away for now (restarting, unreachable, disk full): nothing about the
    request is wrong, and the same request can work once it is back."""

    outcome = "other"
    http_status = 503
    prefix = "unavailable"
    default_hint = "retry"
    # A database restart or failover takes seconds.
    default_retry_after = 5.0


class Cancelled(FetchError):
    outcome = "cancel"
    http_status = 499
    prefix = "cancelled"
    default_hint = None
