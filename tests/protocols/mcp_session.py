"""An MCP `ClientSession` on Sift, over either transport: streamable HTTP to `/mcp`, or stdio
to a `sift mcp` child process that talks to the same server over HTTP."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.batch_api.stack import REPO, Stack
from tests.support.config import TOKENS

TRANSPORTS = ["http", "stdio"]


@asynccontextmanager
async def mcp_session(
    stack: Stack, transport: str, who: str = "alice"
) -> AsyncIterator[ClientSession]:
    if transport == "http":
        headers = {"Authorization": f"Bearer {TOKENS[who]}"}
        async with (
            httpx.AsyncClient(headers=headers, timeout=90, trust_env=False) as http,
            streamable_http_client(f"{stack.base}/mcp", http_client=http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session
        return
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "sift_cli", "mcp"],
        env={"PATH": os.environ.get("PATH", ""), **stack.env(who)},
        cwd=REPO,
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session
