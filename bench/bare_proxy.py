"""The comparator for bench/fetch_bench.py: what a fetch costs with nothing of Sift's around it.

A bare Starlette app under uvicorn (the same server settings as `sift serve`): `GET
/fetch?url=U&mode=M` GETs U with one shared `httpx.AsyncClient` and answers with the body as it
came (`raw`), or with the text of the same extraction Sift does (`clean`), through the same kind
of pool (a RenderPool of the same size). No JSON, guard, gates, cache, auth, logs or metrics.

    python bench/bare_proxy.py PORT
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from sift_fetch.config import FetchConfig
from sift_fetch.render import Document, RenderPool
from sift_fetch.target import Target


def create_app() -> Starlette:
    defaults = FetchConfig()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool = RenderPool(defaults.render_workers, defaults.render_queue, defaults.program_timeout)
        pool.start()
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        async with httpx.AsyncClient(trust_env=False, limits=limits, timeout=30) as client:
            app.state.client, app.state.pool = client, pool
            try:
                yield
            finally:
                pool.close()

    async def fetch(request: Request) -> Response:
        url = request.query_params["url"]
        response = await request.app.state.client.get(url)
        if request.query_params.get("mode") == "raw":
            kind = response.headers.get("content-type")
            return Response(response.content, media_type=kind)
        doc = Document(str(response.url), "text/html", response.charset_encoding, response.content)
        rendered = await request.app.state.pool.render(doc, Target(url), defaults.max_content_chars)
        return PlainTextResponse(rendered.content)

    return Starlette(routes=[Route("/fetch", fetch)], lifespan=lifespan)


if __name__ == "__main__":
    uvicorn.run(
        create_app(), host="127.0.0.1", port=int(sys.argv[1]), access_log=False, log_level="warning"
    )
