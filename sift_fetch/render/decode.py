"""Content-type classification and bytes-to-text decoding."""

from __future__ import annotations

import codecs
import re
from typing import Literal

import charset_normalizer

from sift_fetch.errors import Unsupported
from sift_fetch.render.model import Document

Kind = Literal["html", "pdf", "json", "text"]

_HTML = {"text/html", "application/xhtml+xml"}
_PDF = {"application/pdf", "application/x-pdf"}
_JSON = {"application/json", "text/json", "application/x-ndjson", "application/jsonl"}
_TEXT = {
    "application/xml",
    "application/javascript",
    "application/x-javascript",
    "application/ecmascript",
    "application/yaml",
    "application/x-yaml",
    "application/toml",
    "application/sql",
    "application/x-sh",
    "application/csv",
}
_UNLABELLED = {"", "application/octet-stream", "binary/octet-stream"}
_HTML_START = re.compile(
    rb"\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b", re.I | re.S
)

# WHATWG: a page labelled latin-1 or ASCII is decoded as windows-1252 by every browser.
_LABEL_ALIASES = {
    "iso-8859-1": "cp1252",
    "latin-1": "cp1252",
    "latin1": "cp1252",
    "ascii": "cp1252",
    "us-ascii": "cp1252",
    "iso8859-1": "cp1252",
}
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]{1,40})""", re.I)
# Chunks charset-normalizer samples from an undeclared body: bounds detection on a large page.
_DETECT_STEPS = 8
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def mime_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def classify(doc: Document) -> Kind:
    """What renderer a document needs; `Unsupported` (hint browser) for anything else."""
    mime = mime_type(doc.content_type)
    # Servers mislabel PDFs (octet-stream, text/plain) often enough that the magic bytes win.
    if doc.body.startswith(b"%PDF-") or mime in _PDF:
        return "pdf"
    if mime in _HTML:
        return "html"
    if mime in _JSON or mime.endswith("+json"):
        return "json"
    if mime.startswith("text/") or mime in _TEXT or mime.endswith("+xml"):
        return "text"
    if mime in _UNLABELLED and _HTML_START.match(doc.body[:1024]):
        return "html"
    shown = mime or "(none)"
    raise Unsupported(f"content type {shown} is not supported", hint="browser")


def _codec(label: str | None) -> str | None:
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    label = _LABEL_ALIASES.get(label, label)
    try:
        info = codecs.lookup(label)
    except LookupError:
        return None
    # rot13, base64 and friends are codecs but not text encodings.
    return info.name if getattr(info, "_is_text_encoding", True) else None


def _detected(body: bytes) -> str:
    """The codec of an undeclared body, as a browser would guess it.

    Valid UTF-8 is taken as UTF-8 (a multibyte character cut by the size cap at the very end
    still counts); anything else goes to charset-normalizer, which reads a bounded sample.
    """
    try:
        body.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as exc:
        if exc.start >= len(body) - 3 and exc.reason == "unexpected end of data":
            return "utf-8"
    best = charset_normalizer.from_bytes(body, steps=_DETECT_STEPS).best()
    return _codec(best.encoding if best else None) or "utf-8"


def decode(doc: Document, *, sniff_html: bool = False) -> str:
    """The body as text: BOM, then the header charset, then <meta charset>, then detection.

    Undecodable bytes become U+FFFD rather than failing the request.
    """
    body = doc.body
    for bom, name in _BOMS:
        if body.startswith(bom):
            return body.decode(name, errors="replace")
    codec = _codec(doc.charset)
    if codec is None and sniff_html:
        match = _META_CHARSET.search(body[:4096])
        codec = _codec(match.group(1).decode("ascii")) if match else None
    return body.decode(codec or _detected(body), errors="replace")
