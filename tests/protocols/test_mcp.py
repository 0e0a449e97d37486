"""The official MCP SDK's `ClientSession` on Sift's tools, over streamable HTTP (`/mcp`) and
over stdio (`sift mcp`): the same scenarios, the same answers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import httpx
import pytest
from mcp import ClientSession
from mcp.types import CallToolResult, TextContent

from tests.batch_api.stack import Stack
from tests.protocols.mcp_session import TRANSPORTS, mcp_session
from tests.support.config import auth
from tests.support.site import LocalSite

TOOLS = {"fetch", "batch_submit", "batch_status", "batch_result", "batch_cancel"}


def run(
    stack: Stack, transport: str, who: str, scenario: Callable[[ClientSession], Awaitable[Any]]
) -> Any:
    async def main() -> Any:
        async with mcp_session(stack, transport, who) as session:
            return await scenario(session)

    return anyio.run(main)


def text(result: CallToolResult) -> str:
    # The answer is the text alone: no structured copy of it beside.
    assert result.structuredContent is None
    (item,) = result.content
    assert isinstance(item, TextContent)
    return item.text


@pytest.fixture(params=TRANSPORTS)
def transport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_tools_are_listed_with_typed_parameters(stack: Stack, transport: str) -> None:
    listed = run(stack, transport, "alice", lambda s: s.list_tools())
    tools = {t.name: t for t in listed.tools}
    assert set(tools) == TOOLS
    fetch = tools["fetch"]
    assert fetch.description and "URL" in fetch.description
    props = fetch.inputSchema["properties"]
    assert set(props) == {"url", "mode", "question", "pages", "grep", "jq", "context", "recover"}
    assert props["mode"]["enum"] == ["clean", "full", "raw"]
    assert fetch.inputSchema["required"] == ["url"]
    assert tools["batch_status"].inputSchema["properties"]["wait"]["type"] == "number"
    assert all(t.outputSchema is None for t in listed.tools)


def test_fetch_answers_the_content(stack: Stack, site: LocalSite, transport: str) -> None:
    url = site.url("/article")
    result = run(stack, transport, "alice", lambda s: s.call_tool("fetch", {"url": url}))
    assert not result.isError
    with stack.http() as http:
        native = http.post("/v1/fetch", json={"url": url}).json()
    # The page's clean text under its headline, which the envelope carries as `title`.
    assert native["title"] and not native["content"].startswith("#")
    assert text(result) == f"# {native['title']}\n\n{native['content']}"
    assert "lit in 1821" in text(result)


def test_fetch_options_reach_the_pipeline(stack: Stack, site: LocalSite, transport: str) -> None:
    args = {"url": site.url("/notes.txt"), "grep": "^(alpha|gamma)$"}
    result = run(stack, transport, "alice", lambda s: s.call_tool("fetch", args))
    assert text(result) == "1: alpha\n3: gamma"


def test_blocked_target_is_a_tool_error_with_the_hint(
    stack: Stack, site: LocalSite, transport: str
) -> None:
    url = f"http://127.0.0.2:{site.port}/article"
    result = run(stack, transport, "alice", lambda s: s.call_tool("fetch", {"url": url}))
    assert result.isError
    message = text(result)
    assert message.startswith("blocked: ") and message.endswith("(hint: browser)")


def test_bad_arguments_are_a_tool_error(stack: Stack, transport: str) -> None:
    result = run(stack, transport, "alice", lambda s: s.call_tool("fetch", {"url": 3}))
    assert result.isError and text(result).startswith("bad_request: url: ")
    result = run(
        stack,
        transport,
        "alice",
        lambda s: s.call_tool("batch_status", {"job_id": "x", "wait": 99}),
    )
    assert result.isError and "wait must be a number of seconds (0-60)" in text(result)


def test_a_batch_submitted_waited_on_and_collected(
    stack: Stack, site: LocalSite, transport: str
) -> None:
    who = "bob" if transport == "http" else "spook"  # one live job per caller
    targets = [{"url": site.url("/data.json"), "jq": ".n | length"}, {"url": site.url("/gone")}]

    async def scenario(s: ClientSession) -> dict[str, str | bool]:
        submitted = text(await s.call_tool("batch_submit", {"targets": targets}))
        job_id = submitted.splitlines()[0].removeprefix("job_id: ")
        status = text(await s.call_tool("batch_status", {"job_id": job_id, "wait": 30}))
        first = await s.call_tool("batch_result", {"job_id": job_id, "idx": 0})
        second = await s.call_tool("batch_result", {"job_id": job_id, "idx": 1})
        cancel = await s.call_tool("batch_cancel", {"job_id": job_id})
        missing = await s.call_tool("batch_result", {"job_id": job_id, "idx": 7})
        return {
            "submitted": submitted,
            "status": status,
            "first": text(first),
            "second": text(second),
            "second_error": second.isError,
            "cancel": text(cancel),
            "cancel_error": cancel.isError,
            "missing": text(missing),
        }

    got = run(stack, transport, who, scenario)
    assert got["submitted"].endswith("targets: 2\nreused: false")  # type: ignore[union-attr]
    lines = str(got["status"]).splitlines()
    assert lines[0].endswith(": partial (2/2 finished, 1 failed)")
    assert lines[1] == f"  [0] done    {targets[0]['url']}"
    assert lines[2] == f"  [1] failed  {targets[1]['url']}"
    assert lines[3].strip() == "upstream: the site answered 404 (hint: recover)"
    assert got["first"] == "3"
    assert (
        got["second_error"] and got["second"] == "upstream: the site answered 404 (hint: recover)"
    )
    assert (
        got["cancel_error"] and got["cancel"] == "conflict: the job has already finished (partial)"
    )
    assert got["missing"] == "not_found: the batch job has no target '7'"


def test_no_token_is_refused_before_mcp(stack: Stack) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Accept": "application/json, text/event-stream"}
    r = httpx.post(f"{stack.base}/mcp", json=body, headers=headers, trust_env=False)
    assert r.status_code == 401
    assert r.json()["error"] == "unauthorized: missing or unknown bearer token"
    r = httpx.post(
        f"{stack.base}/mcp", json=body, headers={**headers, "Authorization": "Bearer nope"}
    )
    assert r.status_code == 401


def test_host_names_come_from_config(stack: Stack) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"Accept": "application/json, text/event-stream", **auth()}
    r = httpx.post(f"{stack.base}/mcp", json=body, headers={**headers, "Host": "rebound.example"})
    assert r.status_code == 421  # not a configured name: the SDK's DNS-rebinding check
    r = httpx.post(f"{stack.base}/mcp", json=body, headers={**headers, "Host": "localhost:9"})
    assert r.status_code == 200
