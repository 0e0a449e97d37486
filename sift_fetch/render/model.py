"""The values that cross the render boundary (picklable: they travel to pool workers and back)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Document:
    """What the fetch got: the final URL, the declared type and charset, the raw body."""

    url: str
    content_type: str
    charset: str | None
    body: bytes


@dataclass(frozen=True)
class Rendered:
    title: str | None
    content: str  # exactly what the agent asked for
    truncated: bool
    context: dict[str, Any] | None  # only when target.context
    passages: list[str]  # question mode: the chosen passages, for the LLM digest; else []


@dataclass(frozen=True)
class Heading:
    line: int  # 0-based line index in Body.text
    level: int
    text: str


@dataclass
class Body:
    """One document turned into text, before grep, question and truncation apply."""

    text: str
    title: str | None = None
    headings: list[Heading] = field(default_factory=list)
    cut: bool = False  # the renderer stopped early at its character budget
    meta: dict[str, Any] = field(default_factory=dict)  # context fields the format knows
