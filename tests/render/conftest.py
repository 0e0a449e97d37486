"""Helpers for the render tests: real HTML fixtures, PDFs made with fpdf2, documents."""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from sift_fetch.render import Document, render
from sift_fetch.target import Target

FIXTURES = Path(__file__).parent / "fixtures"
ARTICLE_URL = "https://garden.example.com/guides/tomatoes"


def make_doc(body: bytes | str, content_type: str, url: str = ARTICLE_URL) -> Document:
    data = body.encode("utf-8") if isinstance(body, str) else body
    charset = "utf-8" if isinstance(body, str) else None
    return Document(url=url, content_type=content_type, charset=charset, body=data)


def clean(html: str, max_chars: int = 60_000) -> str:
    """HTML's clean-mode content, as an agent asking for the page would get it."""
    return render(make_doc(html, "text/html"), Target(ARTICLE_URL), max_chars).content


def make_pdf(pages: list[str], *, title: str = "", author: str = "", password: str = "") -> bytes:
    """A real PDF, one page per string, each page a bookmarked section."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    if title:
        pdf.set_title(title)
    if author:
        pdf.set_author(author)
    for number, text in enumerate(pages, start=1):
        pdf.add_page()
        pdf.start_section(f"Chapter {number}")
        pdf.multi_cell(0, 8, text)
    if password:
        pdf.set_encryption(owner_password="owner", user_password=password)
    return bytes(pdf.output())


@pytest.fixture(scope="session")
def article() -> Document:
    return make_doc((FIXTURES / "article.html").read_bytes(), "text/html; charset=utf-8")


@pytest.fixture(scope="session")
def report_pdf() -> Document:
    pages = [
        f"Quarterly report, page {n}.\nRevenue in region {n} grew by {n * 7} percent."
        for n in range(1, 6)
    ]
    body = make_pdf(pages, title="Quarterly Report", author="Finance Team")
    return Document(
        url="https://example.com/report.pdf",
        content_type="application/pdf",
        charset=None,
        body=body,
    )
