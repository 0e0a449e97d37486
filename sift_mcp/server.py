"""Sift's MCP tools: their names, descriptions and typed parameters, and the text they answer.

The tools do no work of their own. Each one calls a `Backend`: in the API process
(`sift_api.mcp`) that is the code behind the matching `/v1` route, under the request's caller;
in `sift mcp` (stdio) it is the `/v1` API of a running Sift over HTTP. A failure is a tool
error whose text is the envelope's `error` and `hint`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, Protocol

from mcp import types
from mcp.server.lowlevel import Server
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sift_mcp import text

NAME = "sift"
INSTRUCTIONS = (
    "Sift fetches web pages, PDFs and JSON documents safely and returns only what you ask for. "
    "For one URL use `fetch`. For two or more, submit them together with `batch_submit`, then "
    "`batch_status` (with `wait`) and `batch_result`: a batch holds no request open."
)


class Refused(Exception):
    """The backend's failure envelope (`error`, `hint`, …)."""

    def __init__(self, body: dict[str, Any]) -> None:
        super().__init__(text.failure(body))
        self.body = body


class Backend(Protocol):
    """One caller's view of Sift; every method answers the `/v1` body or raises Refused."""

    async def fetch(self, target: dict[str, Any]) -> dict[str, Any]: ...
    async def batch_submit(self, targets: list[dict[str, Any]]) -> dict[str, Any]: ...
    async def batch_status(self, job_id: str, wait: float) -> dict[str, Any]: ...
    async def batch_result(self, job_id: str, idx: int) -> dict[str, Any]: ...
    async def batch_cancel(self, job_id: str) -> dict[str, Any]: ...


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Target(_Args):
    url: Annotated[str, Field(description="http(s) URL of a page, PDF or JSON document.")]
    mode: Annotated[
        Literal["clean", "full", "raw"],
        Field(description="HTML: main content as Markdown (clean), all text (full), the body."),
    ] = "clean"
    question: Annotated[
        str | None, Field(description="Keep only the passages that answer this question.")
    ] = None
    pages: Annotated[str | None, Field(description='PDF pages to keep, like "1-3,7".')] = None
    grep: Annotated[str | None, Field(description="Keep the lines matching this regex.")] = None
    jq: Annotated[str | None, Field(description="A jq program to run on a JSON document.")] = None
    context: Annotated[
        bool, Field(description="Add title, author, date, language, outline and links.")
    ] = False
    recover: Annotated[
        bool, Field(description="If the page is gone or fails, fetch the web archive's copy.")
    ] = False


class BatchSubmit(_Args):
    targets: Annotated[
        list[Target], Field(description="The URLs (up to 32), each with what to keep of it.")
    ]


class BatchStatus(_Args):
    job_id: str
    wait: Annotated[
        float, Field(description="Seconds (0-60) to wait for the job to finish first.")
    ] = 0.0


class BatchResult(_Args):
    job_id: str
    idx: Annotated[int, Field(description="The target's index in the submitted list.")]


class BatchCancel(_Args):
    job_id: str


class Tool:
    def __init__(
        self,
        name: str,
        description: str,
        args: type[_Args],
        run: Callable[[Backend, Any], Awaitable[str]],
    ) -> None:
        self.name, self.args, self.run = name, args, run
        self.definition = types.Tool(
            name=name, description=description, inputSchema=args.model_json_schema()
        )


async def _fetch(backend: Backend, args: Target) -> str:
    body = _body(args)
    return text.content(await backend.fetch(body), body)


async def _submit(backend: Backend, args: BatchSubmit) -> str:
    body = await backend.batch_submit([_body(t) for t in args.targets])
    return (
        f"job_id: {body['job_id']}\nstatus: {body['status']}\ntargets: {body['targets']}\n"
        f"reused: {str(body['reused']).lower()}"
    )


async def _status(backend: Backend, args: BatchStatus) -> str:
    return "\n".join(text.outcome_lines(await backend.batch_status(args.job_id, args.wait)))


async def _result(backend: Backend, args: BatchResult) -> str:
    row = await backend.batch_result(args.job_id, args.idx)
    if row["status"] == "failed":
        raise Refused(row.get("result") or row)
    if row.get("result") is None:
        return f"target {args.idx} is {row['status']}: ask batch_status with wait first"
    return text.content(row["result"], row.get("options") or {})


async def _cancel(backend: Backend, args: BatchCancel) -> str:
    return str((await backend.batch_cancel(args.job_id))["status"])


def _body(target: Target) -> dict[str, Any]:
    return target.model_dump(exclude_none=True)


TOOLS = {
    t.name: t
    for t in (
        Tool(
            "fetch",
            "Fetch one URL now and return what you asked for: the main content as Markdown, "
            "the passages answering `question`, PDF `pages`, `grep` lines or a `jq` slice. "
            "Private and internal addresses are refused. For several URLs use batch_submit.",
            Target,
            _fetch,
        ),
        Tool(
            "batch_submit",
            "Submit up to 32 URLs as one background job and get its job_id at once. The same "
            "list submitted again returns the same job. Then call batch_status.",
            BatchSubmit,
            _submit,
        ),
        Tool(
            "batch_status",
            "A batch job's status, one line per target (done, failed with error and hint, "
            "pending). `wait` seconds (up to 60) waits for the job to finish first.",
            BatchStatus,
            _status,
        ),
        Tool(
            "batch_result",
            "The content of one finished target of a batch job, by its index.",
            BatchResult,
            _result,
        ),
        Tool(
            "batch_cancel",
            "Cancel a batch job: finished targets stay readable, the rest are not fetched.",
            BatchCancel,
            _cancel,
        ),
    )
}


def build_server(backend_for: Callable[[Server[Any, Any]], Backend]) -> Server[Any, Any]:
    """The MCP server; BACKEND_FOR gives the backend for the request being handled."""
    server: Server[Any, Any] = Server(NAME, instructions=INSTRUCTIONS)

    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [t.definition for t in TOOLS.values()]

    @server.call_tool(validate_input=False)
    async def call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        tool = TOOLS.get(name)
        try:
            if tool is None:
                raise Refused({"error": f"bad_request: no tool {name!r}", "hint": "fix_request"})
            answer = await tool.run(backend_for(server), _parse(tool, arguments))
        except Refused as exc:
            return _answer(str(exc), error=True)
        return _answer(answer)

    return server


def _parse(tool: Tool, arguments: dict[str, Any]) -> Any:
    try:
        return tool.args.model_validate(arguments)
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(p) for p in problem["loc"]) or "arguments"
        raise Refused(
            {"error": f"bad_request: {where}: {problem['msg']}", "hint": "fix_request"}
        ) from None


def _answer(message: str, *, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=message)], isError=error
    )
