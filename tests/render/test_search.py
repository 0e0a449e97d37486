"""grep and question over rendered text, and the context that locates their hits."""

from __future__ import annotations

import pytest

from sift_fetch.errors import BadRequest
from sift_fetch.render import render
from sift_fetch.target import Target
from tests.render.conftest import ARTICLE_URL, make_doc


def test_grep_keeps_matching_lines_with_their_numbers(article) -> None:  # type: ignore[no-untyped-def]
    whole = render(article, Target(ARTICLE_URL), 60_000).content.split("\n")
    out = render(article, Target(ARTICLE_URL, grep="calcium"), 60_000)
    hits = out.content.split("\n")
    assert len(hits) == 3
    for hit in hits:
        number, _, text = hit.partition(": ")
        assert whole[int(number) - 1] == text
        assert "calcium" in text


def test_grep_is_case_sensitive_unless_asked(article) -> None:  # type: ignore[no-untyped-def]
    assert render(article, Target(ARTICLE_URL, grep="WATER"), 60_000).content == ""
    out = render(article, Target(ARTICLE_URL, grep="(?i)WATER"), 60_000)
    assert "## Watering" in out.content


def test_no_match_is_empty_content_not_an_error(article) -> None:  # type: ignore[no-untyped-def]
    out = render(article, Target(ARTICLE_URL, grep="zucchini"), 60_000)
    assert out.content == ""
    assert out.truncated is False


@pytest.mark.parametrize("pattern", [r"(a)\1", r"(?=water)", r"(?<!x)y", "["])
def test_non_re2_patterns_are_bad_requests(article, pattern: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadRequest) as caught:
        render(article, Target(ARTICLE_URL, grep=pattern), 1000)
    assert "RE2 syntax is required" in caught.value.message


def test_catastrophic_pattern_runs_in_linear_time() -> None:
    doc = make_doc("a" * 50_000 + "!", "text/plain; charset=utf-8")
    out = render(doc, Target(doc.url, grep=r"^(a+)+$"), 1000)
    assert out.content == ""


def test_grep_shows_a_window_of_an_overlong_line() -> None:
    doc = make_doc("x" * 100_000 + "NEEDLE" + "y" * 100_000, "text/plain; charset=utf-8")
    out = render(doc, Target(doc.url, grep="NEEDLE"), 60_000)
    assert out.content.startswith("1: …x") and out.content.endswith("y…")
    assert "NEEDLE" in out.content and len(out.content) < 600


def test_grep_output_is_cut_at_the_budget() -> None:
    doc = make_doc("\n".join(f"row {n} match" for n in range(10_000)), "text/plain")
    out = render(doc, Target(doc.url, grep="match"), 2_000)
    assert out.truncated is True and len(out.content) <= 2_000
    assert out.content.split("\n")[0] == "1: row 0 match"


def test_grep_hits_know_their_section(article) -> None:  # type: ignore[no-untyped-def]
    out = render(article, Target(ARTICLE_URL, grep="calcium", context=True), 60_000)
    assert out.context is not None
    assert [s["heading"] for s in out.context["sections"]] == [
        "Soil and containers",
        "Watering",
        "Blossom end rot",
    ]
    lines = [int(hit.split(":")[0]) for hit in out.content.split("\n")]
    assert [s["line"] for s in out.context["sections"]] == lines


def test_question_returns_the_best_passages_in_page_order(article) -> None:  # type: ignore[no-untyped-def]
    out = render(
        article,
        Target(ARTICLE_URL, question="How often should I water the plants?", context=True),
        60_000,
    )
    assert 1 <= len(out.passages) <= 5
    assert out.content == "\n\n".join(out.passages)
    assert any("Water deeply every morning" in p for p in out.passages)
    positions = [out.content.index(p) for p in out.passages]
    assert positions == sorted(positions)
    assert out.context is not None
    assert "Watering" in [s["heading"] for s in out.context["sections"]]


def test_question_matches_word_forms(article) -> None:  # type: ignore[no-untyped-def]
    out = render(
        article, Target(ARTICLE_URL, question="which pot sizes suit each varieties?"), 60_000
    )
    assert any("twenty litres" in p or "| Roma | 25 l |" in p for p in out.passages)


def test_question_with_nothing_in_common_is_empty(article) -> None:  # type: ignore[no-untyped-def]
    out = render(article, Target(ARTICLE_URL, question="quantum chromodynamics"), 60_000)
    assert out.content == "" and out.passages == []


def test_question_on_a_long_document_is_bounded() -> None:
    paragraphs = [f"Paragraph {n} is about topic{n % 40} and nothing else." for n in range(3000)]
    paragraphs[2222] = "The launch code for the rocket is hidden in paragraph 2222."
    doc = make_doc("\n\n".join(paragraphs), "text/plain; charset=utf-8")
    out = render(doc, Target(doc.url, question="where is the rocket launch code?"), 60_000)
    assert len(out.passages) == 1  # only one passage shares a term with the question
    assert "The launch code for the rocket" in out.passages[0]
    assert len(out.passages[0]) < 600


def test_grep_and_question_together_are_refused(article) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadRequest):
        render(article, Target(ARTICLE_URL, grep="a", question="b"), 100)


def test_context_describes_the_page(article) -> None:  # type: ignore[no-untyped-def]
    context = render(article, Target(ARTICLE_URL, context=True), 60_000).context
    assert context is not None
    assert context["title"] == "Growing Tomatoes on a Balcony"
    assert context["site"] == "The Urban Gardener"
    assert context["author"] == "Jane Rivera"
    assert context["date"] == "2024-05-14"
    assert context["language"] == "en-GB"
    assert context["description"] == "A practical guide to growing tomatoes in containers."
    # The content's headings: the headline is the title, not a heading of the content.
    assert context["outline"] == [
        {"level": 2, "text": "Choosing a variety"},
        {"level": 2, "text": "Soil and containers"},
        {"level": 2, "text": "Watering"},
        {"level": 3, "text": "Blossom end rot"},
    ]
    assert "sections" not in context


def test_context_links_are_absolute_unique_and_content_first(article) -> None:  # type: ignore[no-untyped-def]
    links = render(article, Target(ARTICLE_URL, context=True), 60_000).context["links"]  # type: ignore[index]
    urls = [link["url"] for link in links]
    assert len(urls) == len(set(urls))
    assert all(url.startswith(("https://", "http://")) for url in urls)
    assert {"text": "choosing a variety", "url": "https://example.org/varieties"} in links
    assert {
        "text": "our compost guide",
        "url": "https://garden.example.com/guides/compost#peat-free",
    } in links
    assert urls.count("https://garden.example.com/") == 1  # header and footer "Home" once
    content = urls.index("https://example.org/varieties")
    assert content < urls.index("https://garden.example.com/shop")  # nav after the article


def test_context_links_are_capped_and_skip_non_web_schemes() -> None:
    anchors = "".join(f'<a href="/p/{n}">page {n}</a>' for n in range(300))
    extra = '<a href="mailto:x@example.com">mail</a><a href="javascript:void(0)">js</a>'
    doc = make_doc(f"<html><body><p>{anchors}{extra}</p></body></html>", "text/html")
    links = render(doc, Target(doc.url, context=True), 1000).context["links"]  # type: ignore[index]
    assert len(links) == 100
    assert links[0] == {"text": "page 0", "url": "https://garden.example.com/p/0"}
    assert not any(link["url"].startswith(("mailto", "javascript")) for link in links)


def test_base_href_resolves_links() -> None:
    doc = make_doc(
        '<html><head><base href="https://cdn.example.net/docs/"></head>'
        '<body><a href="intro.html">Intro</a></body></html>',
        "text/html",
    )
    links = render(doc, Target(doc.url, context=True), 1000).context["links"]  # type: ignore[index]
    assert links == [{"text": "Intro", "url": "https://cdn.example.net/docs/intro.html"}]


def test_markdown_text_has_an_outline() -> None:
    md = "# Guide\n\nIntro.\n\n```\n# not a heading\n```\n\n## Install\n\nRun it.\n"
    context = render(
        make_doc(md, "text/markdown; charset=utf-8"), Target(ARTICLE_URL, context=True), 1000
    ).context
    assert context is not None
    assert context["outline"] == [{"level": 1, "text": "Guide"}, {"level": 2, "text": "Install"}]
    assert context["site"] == "garden.example.com"
    assert context["links"] == []


SHORT_PAGE = """<html><head><title>Visiting the museum</title></head><body><article>
<h1>Visiting the museum</h1>
<p>The museum sits on the north bank of the river, a short walk from the old town square.</p>
<p>Its collection covers four centuries of regional painting, sculpture and furniture.</p>
<h2>Tickets</h2>
<p>Adult tickets cost twelve euros; children under fourteen enter free of charge.</p>
<p>Guided tours in English leave from the main hall every day at eleven o'clock.</p>
<p>The café on the top floor serves lunch with a view over the river.</p>
</article></body></html>"""


def test_question_on_a_short_page_returns_only_the_answering_paragraph() -> None:
    doc = make_doc(SHORT_PAGE, "text/html")
    out = render(
        doc, Target(doc.url, question="How much do adult tickets cost?", context=True), 10_000
    )
    assert out.passages == [
        "Adult tickets cost twelve euros; children under fourteen enter free of charge."
    ]
    assert out.context is not None
    [section] = out.context["sections"]
    assert section["heading"] == "Tickets"
    clean = render(doc, Target(doc.url), 10_000).content.split("\n")
    assert clean[section["line"] - 1] == out.passages[0]


def test_question_returns_sentences_not_whole_long_paragraphs() -> None:
    filler = [
        f"Sentence {n} of the chronicle records the harvest of year {1800 + n}." for n in range(40)
    ]
    filler[25] = "The great flood of 1825 destroyed the mill on the eastern bank."
    page = "# Chronicle\n\n" + " ".join(filler[:20]) + "\n\n" + " ".join(filler[20:])
    doc = make_doc(page, "text/markdown; charset=utf-8")
    out = render(
        doc, Target(doc.url, question="What did the great flood destroy?", context=True), 10_000
    )
    assert len(out.passages) == 1
    assert "The great flood of 1825 destroyed the mill" in out.passages[0]
    assert len(out.passages[0]) < 250  # the window around the hit, not its 20-sentence paragraph
    assert out.context is not None
    assert out.context["sections"] == [{"line": 5, "heading": "Chronicle"}]


def test_question_passages_touching_each_other_merge_in_page_order() -> None:
    text = "\n\n".join(
        [
            "Falcons nest on cliffs. Falcons hunt pigeons at dawn.",
            "Owls hunt mice at night.",
            "Falcons dive faster than any other bird. A diving falcon hunts by surprise.",
        ]
    )
    doc = make_doc(text, "text/plain; charset=utf-8")
    out = render(doc, Target(doc.url, question="how do falcons hunt"), 10_000)
    assert out.passages == [
        "Falcons nest on cliffs. Falcons hunt pigeons at dawn.",
        "Falcons dive faster than any other bird. A diving falcon hunts by surprise.",
    ]
