"""`sift mcp`: Sift's MCP tools over stdio, for agents that start a local command.

A thin client of a running Sift: every tool call is one request to its `/v1` API with the
caller's token (SIFT_URL, SIFT_TOKEN), so it holds no store and runs no pipeline.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import anyio
from mcp.server.stdio import stdio_server

from sift_cli.client import Client
from sift_cli.exits import CliError
from sift_cli.options import TokenOpt, UrlOpt
from sift_mcp.server import Backend, Refused, build_server


class OverHttp:
    def __init__(self, client: Client) -> None:
        self.client = client

    async def fetch(self, target: dict[str, Any]) -> dict[str, Any]:
        return await self._call("POST", "/v1/fetch", body=target)

    async def batch_submit(self, targets: list[dict[str, Any]]) -> dict[str, Any]:
        return await self._call("POST", "/v1/batch", body={"targets": targets})

    async def batch_status(self, job_id: str, wait: float) -> dict[str, Any]:
        path = _job(job_id)
        return await self._call("GET", path, params={"wait": f"{wait:g}"}, wait=wait)

    async def batch_result(self, job_id: str, idx: int) -> dict[str, Any]:
        return await self._call("GET", f"{_job(job_id)}/{idx}")

    async def batch_cancel(self, job_id: str) -> dict[str, Any]:
        return await self._call("DELETE", _job(job_id))

    async def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        def call() -> dict[str, Any]:
            return self.client.call(method, path, **kwargs)

        try:
            return await anyio.to_thread.run_sync(call)
        except CliError as exc:
            # The server's envelope when it answered; otherwise what went wrong reaching it.
            raise Refused(exc.body or {"error": exc.message, "hint": "retry"}) from None


def _job(job_id: str) -> str:
    # A job id is one path segment, whatever the agent passes.
    return f"/v1/batch/{quote(job_id, safe='')}"


def mcp_cmd(url: UrlOpt = None, token: TokenOpt = None) -> None:
    """Serve Sift's MCP tools on stdin/stdout, as a client of the Sift at SIFT_URL."""
    with Client(url, token) as client:
        backend: Backend = OverHttp(client)
        server = build_server(lambda _server: backend)

        async def main() -> None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        anyio.run(main)
