"""An ASGI middleware that caps request bodies while reading the stream.

Content-Length alone is not trusted (chunked bodies have none, and it can lie): the body is
read up to the cap, refused with 413 the moment it passes it, and replayed to the app.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sift_api.responses import JSONResponse

DEFAULT_CAP = 64 * 1024
BATCH_CAP = 256 * 1024  # seed §10: a constant, not config


def cap_for(path: str) -> int:
    # `/mcp` carries batch submits too (the `batch_submit` tool).
    return BATCH_CAP if path in ("/v1/batch", "/mcp") else DEFAULT_CAP


class BodyCap:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        cap = cap_for(scope["path"])
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > cap:
            await _too_large(cap)(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > cap:
                await _too_large(cap)(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _too_large(cap: int) -> JSONResponse:
    return JSONResponse(
        {
            "success": False,
            "error": f"bad_request: body is larger than {cap // 1024} KiB",
            "hint": "fix_request",
        },
        status_code=413,
    )
