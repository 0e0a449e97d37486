"""`POST /v1/fetch`: validate, run the pipeline once, answer with its envelope."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from sift_api.auth import authenticate
from sift_api.body import read_json
from sift_api.errors import error_response
from sift_fetch.pipeline import fetch_target
from sift_fetch.runtime import Runtime
from sift_fetch.target import parse_target


async def v1_fetch(request: Request) -> Response:
    rt: Runtime = request.app.state.runtime
    caller = authenticate(request, rt.callers)
    target = parse_target(await read_json(request))
    result = await fetch_target(rt, caller, target)
    request.state.host = result.host
    if result.error is not None:
        return error_response(request, result.error)
    request.state.outcome = result.outcome
    return Response(result.body, media_type="application/json")
