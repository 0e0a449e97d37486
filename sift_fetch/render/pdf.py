"""PDF: the text of each page through PDFium (pypdfium2), `pages` selects which.

Pages are joined under marker lines `--- page N ---`, so an agent (and grep's line numbers) can
tell where each page starts; the markers also serve as the sections grep and question hits
report. Without `pages`, pages are read in order until the character budget is spent.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from sift_fetch.errors import Unsupported
from sift_fetch.pages import parse_pages
from sift_fetch.render.model import Body, Document, Heading

MAX_OUTLINE = 200
# Control characters PDFium passes through (form feeds, STX soft-hyphen marks, etc.).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufffe\uffff]")
_PDF_DATE = re.compile(r"D:(\d{4})(\d{2})?(\d{2})?")


def _open(body: bytes) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(body)
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD:
            raise Unsupported("the PDF is encrypted with a password", hint=None) from None
        raise Unsupported("not a readable PDF", hint="browser") from None


def _page_text(pdf: pdfium.PdfDocument, index: int) -> str:
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            raw = textpage.get_text_range()
        finally:
            textpage.close()
    finally:
        page.close()
    raw = _CONTROL.sub("", raw.replace("\r\n", "\n").replace("\r", "\n"))
    return "\n".join(line.rstrip() for line in raw.split("\n")).strip("\n")


def _iso_date(value: str) -> str | None:
    match = _PDF_DATE.match(value or "")
    if not match:
        return None
    year, month, day = int(match.group(1)), int(match.group(2) or 1), int(match.group(3) or 1)
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def _outline(pdf: pdfium.PdfDocument) -> list[dict[str, Any]]:
    outline: list[dict[str, Any]] = []
    for bookmark in pdf.get_toc(max_depth=6):
        title = " ".join((bookmark.get_title() or "").split())
        if not title:
            continue
        entry: dict[str, Any] = {"level": bookmark.level + 1, "text": title[:300]}
        dest = bookmark.get_dest()
        if dest is not None and dest.get_index() is not None:
            entry["page"] = dest.get_index() + 1
        outline.append(entry)
        if len(outline) >= MAX_OUTLINE:
            break
    return outline


def _meta(pdf: pdfium.PdfDocument, page_count: int) -> dict[str, Any]:
    info = pdf.get_metadata_dict(skip_empty=True)
    return {
        "title": info.get("Title"),
        "author": info.get("Author"),
        "date": _iso_date(info.get("CreationDate", "")),
        "description": info.get("Subject"),
        "outline": _outline(pdf),
        "pages": page_count,
    }


def render_pdf(doc: Document, pages: str | None, budget: int, want_meta: bool) -> Body:
    """Selected pages' text, stopping once `budget` characters are collected."""
    pdf = _open(doc.body)
    try:
        count = len(pdf)
        wanted = parse_pages(pages, count) if pages else range(1, count + 1)
        chunks: list[str] = []
        headings: list[Heading] = []
        size = line = 0
        cut = any_text = False
        for number in wanted:
            if size >= budget:
                cut = True
                break
            text = _page_text(pdf, number - 1)
            any_text = any_text or bool(text.strip())
            marker = f"--- page {number} ---"
            headings.append(Heading(line, 1, f"page {number}"))
            chunk = f"{marker}\n{text}" if text else marker
            chunks.append(chunk)
            size += len(chunk) + 1
            line += chunk.count("\n") + 1
        if chunks and not any_text and not cut:
            raise Unsupported(
                "the selected pages have no text layer (a scanned PDF needs OCR)", hint="browser"
            )
        meta = _meta(pdf, count) if want_meta else {"pages": count}
        title = " ".join((pdf.get_metadata_value("Title") or "").split()) or None
        return Body(text="\n".join(chunks), title=title, headings=headings, cut=cut, meta=meta)
    finally:
        pdf.close()
