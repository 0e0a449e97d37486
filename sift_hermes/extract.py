"""Hermes `web_extract` results from Sift's `POST /v1/fetch`, one request per URL.

Each result is the shape Hermes's extract providers return: `url` (the final URL, after
redirects), `title`, `content` (Sift's content as is) and `metadata`; or, for a failure,
`error` with Sift's `error` and `hint`, so the model reads what could work instead.
"""

from __future__ import annotations

from typing import Any

import httpx

# Sift's own deadline for one fetch is 45 s by default; this only stops a dead connection.
TIMEOUT = httpx.Timeout(120.0, connect=10.0)


async def extract(
    base: str, token: str, urls: list[str], *, format: str | None = None
) -> list[dict[str, Any]]:
    mode = "raw" if format == "html" else "clean"
    headers = {"Authorization": f"Bearer {token}", "User-Agent": "sift-hermes"}
    # trust_env=False: a proxy from the environment must not see the bearer token.
    async with httpx.AsyncClient(
        base_url=base.rstrip("/"), headers=headers, timeout=TIMEOUT, trust_env=False
    ) as http:
        return [await _one(http, url, mode) for url in urls]


async def _one(http: httpx.AsyncClient, url: str, mode: str) -> dict[str, Any]:
    try:
        response = await http.post("/v1/fetch", json={"url": url, "mode": mode})
        body = response.json()
    except (httpx.HTTPError, ValueError) as exc:
        return failed(url, {"error": f"unreachable: Sift at {http.base_url}: {exc}"})
    if not isinstance(body, dict) or not body.get("success"):
        return failed(url, body if isinstance(body, dict) else {})
    return {
        "url": body["final_url"],
        "title": body.get("title") or "",
        "content": body["content"],
        "raw_content": body["content"],
        "metadata": {
            "sourceURL": url,
            "url": body["final_url"],
            "statusCode": body["status"],
            "contentType": body["content_type"],
            "truncated": body["truncated"],
        },
    }


def failed(url: str, body: dict[str, Any]) -> dict[str, Any]:
    error = str(body.get("error") or "error: Sift answered without a result")
    if body.get("hint"):
        error += f" (hint: {body['hint']})"
    return {"url": url, "title": "", "content": "", "error": error}
