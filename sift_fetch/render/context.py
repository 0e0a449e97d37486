"""`context: true`: what the page is (title, site, author, date, language, description), its
outline of headings, its links, and for grep/question hits the section each one sits under.

Every key is always present (None or [] when unknown), so agents need no key checks.
"""

from __future__ import annotations

import bisect
from copy import deepcopy
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

from lxml.html import HtmlElement, document_fromstring
from trafilatura import extract_metadata

from sift_fetch.render.model import Body, Heading

MAX_LINKS = 100
MAX_OUTLINE = 200
META_MAX_ELEMENTS = 5_000
_PERIPHERY = frozenset({"nav", "header", "footer", "aside"})


def _base_url(tree: HtmlElement, url: str) -> str:
    base = tree.find(".//base[@href]")
    return urljoin(url, (base.get("href") or "").strip()) if base is not None else url


def _in_periphery(el: HtmlElement) -> bool:
    return any(parent.tag in _PERIPHERY for parent in el.iterancestors())


def links(tree: HtmlElement, url: str) -> list[dict[str, str]]:
    """Absolute http(s) links, deduplicated, content before navigation, at most MAX_LINKS.

    Links inside nav/header/footer/aside come after the others, so the cap drops menus first.
    """
    base = _base_url(tree, url)
    page = urldefrag(url).url
    seen: dict[str, tuple[str, bool]] = {}  # url -> (text, in periphery)
    for a in tree.iter("a"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith("#"):
            continue
        try:
            absolute = urljoin(base, href)
            scheme = urlsplit(absolute).scheme
        except ValueError:  # e.g. a malformed IPv6 literal
            continue
        if scheme not in ("http", "https") or urldefrag(absolute).url == page:
            continue
        text = " ".join(a.text_content().split()) or a.get("title") or a.get("aria-label") or ""
        if absolute in seen:
            if not seen[absolute][0] and text:  # an icon link first, its labelled twin later
                seen[absolute] = (text[:200], seen[absolute][1])
            continue
        seen[absolute] = (text[:200], _in_periphery(a))
    ordered = sorted(seen.items(), key=lambda item: item[1][1])  # stable: content links first
    return [{"text": text, "url": link} for link, (text, _) in ordered[:MAX_LINKS]]


def html_language(tree: HtmlElement) -> str | None:
    for value in (
        tree.get("lang"),
        tree.get("{http://www.w3.org/XML/1998/namespace}lang"),
        *tree.xpath(
            "//meta[translate(@http-equiv,'CONTENT-LANGUAGE','content-language')"
            "='content-language']/@content"
        ),
        *tree.xpath("//meta[@property='og:locale']/@content"),
    ):
        if value and value.strip():
            return value.strip().replace("_", "-")[:35]
    return None


def _metadata_tree(tree: HtmlElement) -> HtmlElement:
    """The tree trafilatura's metadata extraction reads: a big page is cut to its head and the
    start of its body, where bylines and dates live (its XPath scans cost ~40 µs per element)."""
    body = tree.find(".//body")
    if body is None or sum(1 for _ in tree.iter()) <= META_MAX_ELEMENTS:
        return tree
    # A fresh document: elements made from `tree` would share its document, and XPath's `//`
    # would still scan the whole page.
    small = document_fromstring("<html><head></head><body></body></html>")
    head = tree.find(".//head")
    if head is not None:
        small.replace(small[0], deepcopy(head))
    kept = small[1]
    budget = META_MAX_ELEMENTS
    for child in body:
        if budget <= 0:
            break
        budget -= sum(1 for _ in child.iter())
        kept.append(deepcopy(child))
    return small


def html_meta(tree: HtmlElement, url: str) -> dict[str, Any]:
    """Site, author, date, description and language of an HTML page."""
    meta = extract_metadata(_metadata_tree(tree), default_url=url)
    return {
        "site": meta.sitename or meta.hostname,
        "author": meta.author,
        "date": meta.date,
        "description": meta.description,
        "language": html_language(tree),
        "links": links(tree, url),
    }


def sections(hit_lines: list[int], headings: list[Heading]) -> list[dict[str, Any]]:
    """For each 1-based hit line, the nearest heading at or above it."""
    starts = [h.line for h in headings]
    found = []
    for line in hit_lines:
        at = bisect.bisect_right(starts, line - 1) - 1
        found.append({"line": line, "heading": headings[at].text if at >= 0 else None})
    return found


def build(url: str, title: str | None, body: Body, hits: list[int] | None) -> dict[str, Any]:
    outline = body.meta.get("outline")
    if outline is None:
        outline = [{"level": h.level, "text": h.text} for h in body.headings]
    context: dict[str, Any] = {
        "title": title,
        "site": urlsplit(url).hostname,
        "author": None,
        "date": None,
        "language": None,
        "description": None,
        **{k: v for k, v in body.meta.items() if k not in ("outline", "title")},
        "outline": outline[:MAX_OUTLINE],
    }
    context.setdefault("links", [])
    if hits is not None:
        context["sections"] = sections(hits, body.headings)
    return context
