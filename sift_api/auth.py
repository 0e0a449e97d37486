"""Bearer-token authentication against the configured callers."""

from __future__ import annotations

from starlette.requests import Request

from sift_fetch.callers import Caller, CallerTable


class Unauthorized(Exception):
    pass


def authenticate(request: Request, callers: CallerTable) -> Caller:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    caller = callers.authenticate(token.strip()) if scheme.lower() == "bearer" else None
    if caller is None:
        raise Unauthorized
    request.state.caller = caller
    return caller
