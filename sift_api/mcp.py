"""`/mcp`: Sift's MCP tools over streamable HTTP, in the API process.

The bearer token is checked before the MCP SDK sees the request (no or bad token: the same
401 as `/v1`), and each tool call runs the code behind the matching `/v1` route as that
request's caller. The session manager is stateless with JSON answers: no session lives in one
API process, so any number of them can serve `/mcp` behind a load balancer.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import State
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from sift_api import batch
from sift_api.auth import authenticate
from sift_fetch.callers import Caller
from sift_fetch.config import McpConfig
from sift_fetch.errors import FetchError, Unavailable
from sift_fetch.pipeline import fetch_target
from sift_fetch.runtime import Runtime
from sift_fetch.target import parse_target
from sift_mcp.server import Backend, Refused, build_server
from sift_store.outage import is_outage, outage_reason


class InProcess:
    """The `/v1` handlers' own code, called for one caller."""

    def __init__(self, rt: Runtime, caller: Caller, state: State) -> None:
        self.rt, self.caller, self.state = rt, caller, state

    async def fetch(self, target: dict[str, Any]) -> dict[str, Any]:
        with _refused():
            result = await fetch_target(self.rt, self.caller, parse_target(target))
        # The request's log line, as `/v1/fetch` writes it. Batch tools leave theirs bare: a
        # batch log line never names a target.
        self.state.host, self.state.outcome = result.host, result.outcome
        if result.error is not None:
            self.state.error = result.error.message
            raise Refused(result.envelope)
        return result.envelope

    async def batch_submit(self, targets: list[dict[str, Any]]) -> dict[str, Any]:
        with _refused():
            return await batch.submit_job(self.rt, self.caller, {"targets": targets})

    async def batch_status(self, job_id: str, wait: float) -> dict[str, Any]:
        with _refused():
            wait = batch.check_wait(wait, "wait")
            return await batch.job_summary(self.rt, self.caller, job_id, wait=wait)

    async def batch_result(self, job_id: str, idx: int) -> dict[str, Any]:
        with _refused():
            return await batch.target_result(self.rt, self.caller, job_id, str(idx))

    async def batch_cancel(self, job_id: str) -> dict[str, Any]:
        with _refused():
            return await batch.cancel_owned(self.rt, self.caller, job_id)


@contextmanager
def _refused() -> Iterator[None]:
    """A failure as its envelope; a store outage too, which the SDK would otherwise answer
    with the exception's own text."""
    try:
        yield
    except FetchError as exc:
        raise Refused(exc.envelope()) from None
    except Exception as exc:
        if not is_outage(exc):
            raise
        raise Refused(Unavailable(outage_reason(exc)).envelope()) from None


def _backend(server: Server[Any, Any]) -> Backend:
    request = server.request_context.request
    assert isinstance(request, Request)
    return InProcess(request.app.state.runtime, request.state.caller, request.state)


def allowed_hosts(config: McpConfig) -> list[str]:
    """Each configured name, bare (ports 80/443) and with any port, as the SDK matches them."""
    names = [f"[{h}]" if ":" in h else h for h in config.allowed_hosts]
    return [pattern for name in names for pattern in (name, f"{name}:*")]


def session_manager(config: McpConfig) -> StreamableHTTPSessionManager:
    security = TransportSecuritySettings(allowed_hosts=allowed_hosts(config))
    return StreamableHTTPSessionManager(
        app=build_server(_backend), json_response=True, stateless=True, security_settings=security
    )


class McpEndpoint:
    """The ASGI endpoint at `/mcp`: bearer auth, then the SDK's transport."""

    def __init__(self, manager: StreamableHTTPSessionManager) -> None:
        self.manager = manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        rt: Runtime = request.app.state.runtime
        # Raises Unauthorized, which the app answers with the same 401 as `/v1`.
        authenticate(request, rt.callers)
        await self.manager.handle_request(scope, receive, send)
