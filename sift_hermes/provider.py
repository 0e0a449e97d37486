"""The Hermes side: a `WebSearchProvider` named `sift` that extracts through Sift.

Imported by `register()` only, inside Hermes, where `agent` and `tools` are Hermes's packages.
"""

from __future__ import annotations

from typing import Any

from agent.web_search_provider import WebSearchProvider, get_provider_env
from tools.website_policy import check_website_access

from sift_hermes.extract import extract, failed


class SiftWebProvider(WebSearchProvider):
    @property
    def name(self) -> str:
        return "sift"

    @property
    def display_name(self) -> str:
        return "Sift"

    def is_available(self) -> bool:
        return bool(get_provider_env("SIFT_URL") and get_provider_env("SIFT_TOKEN"))

    def supports_search(self) -> bool:
        return False

    def supports_extract(self) -> bool:
        return True

    async def extract(self, urls: list[str], **kwargs: Any) -> list[dict[str, Any]]:
        # Sift's guard decides what is reachable; the user's own site policy still applies.
        verdicts = [check_website_access(url) for url in urls]
        allowed = [url for url, verdict in zip(urls, verdicts, strict=True) if not verdict]
        base, token = get_provider_env("SIFT_URL"), get_provider_env("SIFT_TOKEN")
        fetched = iter(await extract(base, token, allowed, format=kwargs.get("format")))
        return [
            failed(url, {"error": verdict["message"]}) if verdict else next(fetched)
            for url, verdict in zip(urls, verdicts, strict=True)
        ]

    def get_setup_schema(self) -> dict[str, Any]:
        return {
            "name": "Sift",
            "badge": "self-hosted",
            "tag": "Clean Markdown, PDF pages and JSON from your own Sift server.",
            "env_vars": [
                {"key": "SIFT_URL", "prompt": "Sift server URL (e.g. http://127.0.0.1:8080)"},
                {"key": "SIFT_TOKEN", "prompt": "Sift bearer token (sift token new NAME)"},
            ],
        }
