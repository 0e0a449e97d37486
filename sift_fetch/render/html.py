"""HTML: `clean` (main content as Markdown), `full` (all visible text) and `raw` (the body).

`clean` is trafilatura's extraction. Its settings were measured with bench/render_bench.py on
the saved real pages in bench/pages/ (6 news/blog pages, 253 KiB; median CPU ms per page over 15
interleaved runs on a shared 2-core machine; "kept" = article phrases found, "clean" = boilerplate
phrases absent, per bench/pages/expected.json):

    settings                   ms/page  pages/s   kept   clean   chars
    default (fallbacks on)        17.1     53.2  20/21   25/25   60214
    favor_precision               20.9     45.2  19/21   25/25   59751
    fast (no fallback)            14.3     61.4  20/21   25/25   60214
    favor_precision + fast        15.2     60.8  19/21   25/25   59751

Without the fallback extractors (`fast`, formerly `no_fallback`) the output was identical on every
page and extraction ~1.2x faster (per page 0.93x-1.6x: the fallbacks only run where trafilatura's
own result looks thin; repeated runs on the loaded machine ranged 1.0x-1.3x overall).
favor_precision removed nothing the checks count as boilerplate, dropped one article phrase and
cost time. Hence fast=True, favor_precision=False.
"""

from __future__ import annotations

import re
from typing import Any

import trafilatura
from lxml import etree
from lxml.html import HtmlElement, HTMLParser, document_fromstring
from trafilatura.metadata import extract_title

from sift_fetch.errors import Unsupported
from sift_fetch.render.model import Body, Document, Heading
from sift_fetch.render.text import markdown_headings

EXTRACT_OPTIONS: dict[str, Any] = {
    "output_format": "markdown",
    "include_links": False,  # link targets cost the agent tokens; context lists them instead
    "include_images": False,
    "include_tables": True,
    "include_comments": False,  # reader comments are noise for an agent reading the article
    "deduplicate": False,
    "favor_precision": False,
    "fast": True,
}

_SKIP = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "svg",
        "math",
        "head",
        "iframe",
        "object",
        "embed",
        "canvas",
        "select",
        "datalist",
        "input",
    }
)
_BLOCK = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "caption",
        "dd",
        "details",
        "dialog",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "header",
        "hgroup",
        "hr",
        "html",
        "legend",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "section",
        "summary",
        "table",
        "tbody",
        "tfoot",
        "thead",
        "tr",
        "ul",
        "br",
        "center",
        "menu",
    }
)
_HEADING_LEVEL = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_CELL = frozenset({"td", "th"})
# trafilatura costs about 60 µs per element (measured on a synthetic 60,000-element page: 3.4 s).
# Past this size `clean` falls back to the visible text, which is linear and ~10x cheaper, so a
# giant page still renders within the pool's time limit; grep and question then see it all.
CLEAN_MAX_ELEMENTS = 30_000
# huge_tree: without it libxml2 drops text nodes over 10 MB and everything nested deeper than 256.
_PARSER = HTMLParser(
    collect_ids=False, default_doctype=False, remove_comments=True, remove_pis=True, huge_tree=True
)
# lxml refuses str input that declares its own encoding; the text is decoded already.
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_BLANK_RUNS = re.compile(r"\n{3,}")


def parse(text: str) -> HtmlElement:
    """Any HTML, fragments included, as a document tree (html/body are added when missing)."""
    try:
        return document_fromstring(_XML_DECLARATION.sub("", text, count=1), parser=_PARSER)
    except (etree.ParserError, ValueError):
        raise Unsupported("not a readable HTML document", hint="browser") from None


def element_count(tree: HtmlElement) -> int:
    return sum(1 for _ in tree.iter())


def page_title(tree: HtmlElement) -> str | None:
    title = " ".join((extract_title(tree) or "").split())
    return title[:300] or None


def _hidden(el: HtmlElement) -> bool:
    return el.get("hidden") is not None or bool(_HIDDEN_STYLE.search(el.get("style") or ""))


def visible_text(tree: HtmlElement) -> tuple[str, list[Heading]]:
    """All visible text of the body, one line per block, whitespace collapsed within a line.

    Iterative (lxml iterwalk) rather than recursive: hostile pages nest thousands deep.
    """
    lines: list[str] = []
    headings: list[Heading] = []
    parts: list[str] = []

    def flush(level: int = 0) -> None:
        line = " ".join("".join(parts).split())
        parts.clear()
        if line:
            if level:
                headings.append(Heading(len(lines), level, line))
            lines.append(line)

    root = tree.find(".//body")
    walker = etree.iterwalk(tree if root is None else root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag if isinstance(el.tag, str) else None  # comments and PIs have no tag name
        skipped = tag is None or tag in _SKIP or _hidden(el)
        if event == "start":
            if skipped:
                walker.skip_subtree()  # its "end" still comes, so the tail is kept
            elif tag == "pre":
                flush()
                lines.extend(
                    line.rstrip() for line in el.text_content().splitlines() if line.strip()
                )
                walker.skip_subtree()
            else:
                if tag in _BLOCK or tag in _HEADING_LEVEL:
                    flush()
                elif tag in _CELL and el.getprevious() is not None:
                    parts.append(" | ")
                if el.text:
                    parts.append(el.text)
            continue
        if not skipped and tag in _HEADING_LEVEL:
            flush(_HEADING_LEVEL[tag])
        elif not skipped and tag in _BLOCK:
            flush()
        if el.tail:
            parts.append(el.tail)
    flush()
    return "\n".join(lines), headings


def dom_outline(tree: HtmlElement) -> list[dict[str, Any]]:
    outline = []
    for el in tree.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        text = " ".join(el.text_content().split())
        if text:
            outline.append({"level": _HEADING_LEVEL[str(el.tag)], "text": text[:300]})
    return outline


def clean_markdown(tree: HtmlElement, url: str) -> str | None:
    markdown = trafilatura.extract(tree, url=url, **EXTRACT_OPTIONS)
    if not markdown:
        return None
    # trafilatura leaves trailing spaces on table rows and occasional blank-line runs.
    markdown = "\n".join(line.rstrip() for line in markdown.splitlines())
    return _BLANK_RUNS.sub("\n\n", markdown).strip()


def render_html(doc: Document, text: str, mode: str) -> tuple[Body, HtmlElement]:
    """The body for `mode`, plus the parsed tree (context reads links and metadata from it)."""
    tree = parse(text)
    title = page_title(tree)
    if mode == "raw":
        return Body(text=text, title=title, meta={"outline": dom_outline(tree)}), tree
    if mode == "clean" and element_count(tree) <= CLEAN_MAX_ELEMENTS:
        markdown = clean_markdown(tree, doc.url)
        if markdown:
            return Body(text=markdown, title=title, headings=markdown_headings(markdown)), tree
        # No main content found (a link hub, a tiny page): all the text beats nothing.
    full, headings = visible_text(tree)
    return Body(text=full, title=title, headings=headings), tree
