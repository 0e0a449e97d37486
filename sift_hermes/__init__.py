"""Sift as a Hermes web provider: `web.extract_backend: sift` makes Hermes's `web_extract`
call a running Sift's `POST /v1/fetch` (SIFT_URL, SIFT_TOKEN).

Hermes finds this through the `hermes_agent.plugins` entry point and calls `register(ctx)`
when `plugins.enabled` lists `sift`. It is a client of Sift over HTTP only: nothing here
imports the server, and Hermes's own modules are imported only inside Hermes.
"""

from __future__ import annotations

from typing import Any


def register(ctx: Any) -> None:
    from sift_hermes.provider import SiftWebProvider

    ctx.register_web_search_provider(SiftWebProvider())
