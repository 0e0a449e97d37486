"""Turning a fetched document into what the agent asked for (the pipeline's render and context
steps): `render()` is the pure function, `RenderPool` runs it in bounded worker processes."""

from sift_fetch.render.core import render
from sift_fetch.render.model import Document, Rendered
from sift_fetch.render.pool import RenderPool

__all__ = ["Document", "RenderPool", "Rendered", "render"]
