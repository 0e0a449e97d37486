"""Every failure → its JSON envelope, the one way every route answers one.

A FetchError is its own envelope, and so is a path no route takes (404) or a method it does not
(405). A store outage (the database restarting or out of reach, a full disk, a lock held too
long) is `503 unavailable`, logged once with its reason and no traceback. Anything else is a
bug: `500 internal`, and the server logs its traceback.
"""

from __future__ import annotations

import structlog
from starlette.exceptions import HTTPException
from starlette.requests import Request

from sift_api.observe import route_template
from sift_api.responses import JSONResponse
from sift_fetch.errors import FetchError, Unavailable
from sift_store.outage import is_outage, outage_reason

log = structlog.get_logger("sift.api")

INTERNAL = {
    "success": False,
    "error": "internal: an unexpected error; the server's log has the details",
    "hint": None,
}


def error_response(request: Request, exc: FetchError, *, status: int | None = None) -> JSONResponse:
    """`status` replaces the error's own where a protocol maps kinds to other statuses."""
    request.state.outcome = exc.outcome
    request.state.error = exc.message
    headers = {}
    if exc.retry_after is not None:
        headers["Retry-After"] = str(max(1, round(exc.retry_after)))
    return JSONResponse(exc.envelope(), status_code=status or exc.http_status, headers=headers)


class NotFound(FetchError):
    outcome = "other"
    http_status = 404
    prefix = "not_found"
    default_hint = None


class MethodNotAllowed(FetchError):
    outcome = "other"
    http_status = 405
    prefix = "bad_request"
    default_hint = "fix_request"


async def routing_error_response(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own refusals (a path no route takes, a method the route does not take) as
    envelopes; the only HTTPExceptions this app raises."""
    assert isinstance(exc, HTTPException) and exc.status_code in (404, 405)
    if exc.status_code == 404:
        response = error_response(request, NotFound("no such endpoint"))
    else:
        response = error_response(
            request, MethodNotAllowed(f"{request.method} is not allowed here")
        )
    response.headers.update(exc.headers or {})  # Allow, on a 405
    return response


async def store_error_response(request: Request, exc: Exception) -> JSONResponse:
    """A store outage as `unavailable`; any other store error is a bug, raised again."""
    if not is_outage(exc):
        raise exc
    reason = outage_reason(exc)
    log.warning("store.unavailable", route=route_template(request.scope), reason=reason)
    return error_response(request, Unavailable(reason))


async def internal_response(_request: Request, _exc: Exception) -> JSONResponse:
    return JSONResponse(INTERNAL, status_code=500)
