"""The ASGI app: routes, error envelopes, and the process's Runtime in its lifespan."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sift_api.auth import Unauthorized
from sift_api.batch import ROUTES as BATCH_ROUTES
from sift_api.bodycap import BodyCap
from sift_api.errors import (
    error_response,
    internal_response,
    routing_error_response,
    store_error_response,
)
from sift_api.fetch import v1_fetch
from sift_api.firecrawl import ROUTES as FIRECRAWL_ROUTES
from sift_api.health import healthz
from sift_api.mcp import McpEndpoint, session_manager
from sift_api.observe import Observe
from sift_api.openapi import openapi_json
from sift_api.responses import JSONResponse
from sift_fetch.config import Config
from sift_fetch.errors import FetchError
from sift_fetch.guard import Resolver
from sift_fetch.http import Connector
from sift_fetch.metrics import metrics_registry
from sift_fetch.runtime import Runtime


async def metrics_endpoint(request: Request) -> Response:
    # Every process's counters (the worker's too, through PROMETHEUS_MULTIPROC_DIR) plus the
    # batch gauges read from the store, which is why this runs off the event loop.
    registry = metrics_registry(request.app.state.runtime.store)
    body = await anyio.to_thread.run_sync(generate_latest, registry)
    return Response(body, media_type=CONTENT_TYPE_LATEST)


async def _fetch_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, FetchError)
    return error_response(request, exc)


async def _unauthorized(_request: Request, _exc: Exception) -> JSONResponse:
    body = {
        "success": False,
        "error": "unauthorized: missing or unknown bearer token",
        "hint": None,
    }
    return JSONResponse(body, status_code=401, headers={"WWW-Authenticate": "Bearer"})


def create_app(
    config: Config,
    *,
    resolver: Resolver | None = None,
    connector: Connector | None = None,
) -> Starlette:
    mcp = session_manager(config.mcp)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        runtime = Runtime.open(config, resolver=resolver, connector=connector)
        app.state.runtime = runtime
        try:
            async with mcp.run(), anyio.create_task_group() as background:
                background.start_soon(runtime.gates.keep)
                yield
                background.cancel_scope.cancel()
        finally:
            await runtime.aclose()

    return Starlette(
        routes=[
            Route("/v1/fetch", v1_fetch, methods=["POST"]),
            *BATCH_ROUTES,
            *FIRECRAWL_ROUTES,
            Route("/mcp", McpEndpoint(mcp), methods=["GET", "POST", "DELETE"]),
            Route("/healthz", healthz, methods=["GET"]),
            Route("/metrics", metrics_endpoint, methods=["GET"]),
            Route("/openapi.json", openapi_json, methods=["GET"]),
        ],
        middleware=[Middleware(Observe), Middleware(BodyCap)],
        exception_handlers={
            FetchError: _fetch_error,
            Unauthorized: _unauthorized,
            HTTPException: routing_error_response,
            SQLAlchemyError: store_error_response,
            # Starlette answers with this one, then raises again for the server to log.
            Exception: internal_response,
        },
        lifespan=lifespan,
    )
