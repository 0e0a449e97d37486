"""Text types (plain, Markdown, CSV, XML, …) as they are; Markdown headings form the outline."""

from __future__ import annotations

import re

from sift_fetch.render.decode import mime_type
from sift_fetch.render.model import Body, Document, Heading

_ATX = re.compile(r"(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"(`{3,}|~{3,})")
_WORD = re.compile(r"\w+")


def word_count(text: str) -> int:
    return len(_WORD.findall(text))


def markdown_headings(text: str) -> list[Heading]:
    """ATX headings (`## Title`) outside fenced code blocks."""
    headings: list[Heading] = []
    fence: str | None = None
    for index, line in enumerate(text.split("\n")):
        stripped = line.lstrip()
        opener = _FENCE.match(stripped)
        if opener:
            if fence is None:
                fence = opener.group(1)[0] * 3
            elif stripped.startswith(fence):
                fence = None
            continue
        if fence is None:
            match = _ATX.match(line)
            if match:
                headings.append(Heading(index, len(match.group(1)), match.group(2)))
    return headings


def render_text(doc: Document, text: str) -> Body:
    is_markdown = mime_type(doc.content_type) in {"text/markdown", "text/x-markdown"}
    return Body(text=text, headings=markdown_headings(text) if is_markdown else [])
