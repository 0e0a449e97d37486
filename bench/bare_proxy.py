"""The comparator for bench/fetch_bench.py: what a fetch costs with nothing of Sift's around it.

A bare Starlette app under uvicorn (the same server settings as `sift serve`) that takes the same
`POST {"url", "mode"}` body as `/v1/fetch`, GETs the URL with one shared `httpx.AsyncClient`
and answers `{"content"}`: the body as text in `raw` mode, or the same extraction Sift does in
`clean` mode, through the same kind of pool (a RenderPool of the same size). No guard, gates,
cache, auth, logs or metrics.

    python bench/bare_proxy.py PORT
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
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

    async def fetch(request: Request) -> JSONResponse:
        body = json.loads(await request.body())
        response = await request.app.state.client.get(body["url"])
        if body.get("mode") == "raw":
            return JSONResponse({"content": response.text})
        doc = Document(str(response.url), "text/html", response.charset_encoding, response.content)
        rendered = await request.app.state.pool.render(
            doc, Target(body["url"]), defaults.max_content_chars
        )
        return JSONResponse({"content": rendered.content})

    return Starlette(routes=[Route("/fetch", fetch, methods=["POST"])], lifespan=lifespan)


if __name__ == "__main__":
    uvicorn.run(
        create_app(), host="127.0.0.1", port=int(sys.argv[1]), access_log=False, log_level="warning"
    )
