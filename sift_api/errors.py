"""FetchError → its JSON envelope, the one way every route answers a failure."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse

from sift_fetch.errors import FetchError


def error_response(request: Request, exc: FetchError, *, status: int | None = None) -> JSONResponse:
    """`status` replaces the error's own where a protocol maps kinds to other statuses."""
    request.state.outcome = exc.outcome
    request.state.error = exc.message
    headers = {}
    if exc.retry_after is not None:
        headers["Retry-After"] = str(max(1, round(exc.retry_after)))
    return JSONResponse(exc.envelope(), status_code=status or exc.http_status, headers=headers)
