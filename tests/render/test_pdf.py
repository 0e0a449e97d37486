"""PDFs made with fpdf2: page text, `pages` selection, markers, errors, metadata."""

from __future__ import annotations

import pytest
from fpdf import FPDF

from sift_fetch.errors import BadRequest, Unsupported
from sift_fetch.render import Document, render
from sift_fetch.target import Target
from tests.render.conftest import make_pdf

URL = "https://example.com/report.pdf"


def _pdf_doc(body: bytes, content_type: str = "application/pdf") -> Document:
    return Document(url=URL, content_type=content_type, charset=None, body=body)


def test_all_pages_in_order_under_markers(report_pdf) -> None:  # type: ignore[no-untyped-def]
    out = render(report_pdf, Target(URL), 60_000)
    lines = out.content.splitlines()
    markers = [line for line in lines if line.startswith("--- page")]
    assert markers == [f"--- page {n} ---" for n in range(1, 6)]
    assert "Revenue in region 3 grew by 21 percent." in lines
    assert lines[lines.index("--- page 2 ---") + 1] == "Quarterly report, page 2."
    assert out.title == "Quarterly Report"
    assert out.truncated is False


def test_pages_selects(report_pdf) -> None:  # type: ignore[no-untyped-def]
    out = render(report_pdf, Target(URL, pages="4, 1-2"), 60_000)
    markers = [line for line in out.content.splitlines() if line.startswith("--- page")]
    assert markers == ["--- page 1 ---", "--- page 2 ---", "--- page 4 ---"]
    assert "region 3" not in out.content and "region 4" in out.content


def test_pages_beyond_the_document_are_an_error(report_pdf) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadRequest) as caught:
        render(report_pdf, Target(URL, pages="9-12"), 60_000)
    assert "5 pages" in caught.value.message


def test_budget_stops_reading_pages(report_pdf) -> None:  # type: ignore[no-untyped-def]
    out = render(report_pdf, Target(URL), 120)
    assert out.truncated is True
    assert out.content.startswith("--- page 1 ---")
    assert "--- page 5 ---" not in out.content


def test_grep_reports_the_page_as_section(report_pdf) -> None:  # type: ignore[no-untyped-def]
    out = render(report_pdf, Target(URL, grep=r"grew by 21 ", context=True), 60_000)
    assert out.content.endswith("Revenue in region 3 grew by 21 percent.")
    assert out.context is not None
    assert [s["heading"] for s in out.context["sections"]] == ["page 3"]


def test_context_has_pdf_metadata_and_bookmarks(report_pdf) -> None:  # type: ignore[no-untyped-def]
    context = render(report_pdf, Target(URL, context=True), 60_000).context
    assert context is not None
    assert context["title"] == "Quarterly Report"
    assert context["author"] == "Finance Team"
    assert context["pages"] == 5
    assert context["site"] == "example.com"
    assert context["outline"][0] == {"level": 1, "text": "Chapter 1", "page": 1}
    assert len(context["outline"]) == 5


def test_mislabelled_pdf_is_recognised_by_its_magic(report_pdf) -> None:  # type: ignore[no-untyped-def]
    out = render(_pdf_doc(report_pdf.body, "application/octet-stream"), Target(URL), 60_000)
    assert "--- page 1 ---" in out.content


def test_broken_pdf_is_unsupported() -> None:
    with pytest.raises(Unsupported) as caught:
        render(_pdf_doc(b"%PDF-1.7\nthis is not really a pdf"), Target(URL), 1000)
    assert "not a readable PDF" in caught.value.message


def test_encrypted_pdf_says_so() -> None:
    body = make_pdf(["secret"], password="hunter2")
    with pytest.raises(Unsupported) as caught:
        render(_pdf_doc(body), Target(URL), 1000)
    assert "encrypted" in caught.value.message


def test_pdf_without_text_layer_says_so() -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(10, 10, 50, 50, style="F")
    with pytest.raises(Unsupported) as caught:
        render(_pdf_doc(bytes(pdf.output())), Target(URL), 1000)
    assert "no text layer" in caught.value.message
