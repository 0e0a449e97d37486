"""README's tables for the Firecrawl endpoint and the MCP tools name what the code does."""

from __future__ import annotations

from sift_api.firecrawl import BROWSER_FORMATS, CONTENT_FORMATS, IGNORED, LLM_FORMATS, SUMMARY
from sift_mcp.server import TOOLS
from tests.batch_api.stack import REPO

README = (REPO / "README.md").read_text()


def section(title: str) -> str:
    start = README.index(title)
    return README[start : README.index("\n### ", start + 1)]


def test_every_firecrawl_field_and_format_is_documented() -> None:
    text = section("### Firecrawl-compatible scrape")
    names = IGNORED | BROWSER_FORMATS | LLM_FORMATS | set(CONTENT_FORMATS) | {"headers", SUMMARY}
    missing = sorted(name for name in names if f"`{name}`" not in text)
    assert missing == []


def test_every_mcp_tool_is_documented() -> None:
    rows = {line.split("`")[1] for line in section("### MCP").splitlines() if line[:3] == "| `"}
    assert rows == set(TOOLS)
