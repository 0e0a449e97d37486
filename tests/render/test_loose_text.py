"""Clean mode keeps a paragraph written as bare text beside the story's `<p>`s."""

from __future__ import annotations

from sift_fetch.render.html import parse
from sift_fetch.render.loose_text import wrap_loose_text
from tests.render.conftest import clean

FIRST = (
    "SAN FRANCISCO - The New Zealand team set another top speed for the race's catamarans on "
    "Thursday, hitting 44 knots on the bay as it sailed alone around the course."
)
REST = [
    "The team set the mark on the first reaching leg as it sailed alone to collect another "
    "point, its scheduled opponent still working to launch its second boat after a capsize.",
    "The top speed translates to 81.7 kilometers per hour, and the wind on that leg peaked "
    "at 21 knots, according to the race's official figures released in the evening.",
    "The previous best mark was 43.26 knots, set a week earlier on the same stretch of the "
    "bay, and the crew said it expects to go faster once the wind picks up again.",
]


def _page(body: str) -> str:
    return f"""<!doctype html><html><head><title>A record on the bay</title></head><body>
    <div id="page"><h1>A record on the bay</h1><div id="articleBody" class="articleBody">{body}
    </div></div></body></html>"""


def test_a_first_paragraph_written_as_bare_text_is_kept() -> None:
    paragraphs = "".join(f"<p>{paragraph}</p>" for paragraph in REST)
    body = f'<script>var width = 0;</script><span class="marker"></span>{FIRST} {paragraphs}'
    content = clean(_page(body))
    assert content.startswith(FIRST), content
    assert all(paragraph in content for paragraph in REST)


def test_a_table_a_site_wraps_in_a_span_is_no_run_of_text() -> None:
    table = (
        '<span class="html-element"><table><tr><td>Price without extras</td><td>68,490</td></tr>'
        "<tr><td>Price with extras</td><td>69,290</td></tr>"
        "<tr><td>Power in kW, engine and motor together</td><td>195</td></tr></table></span>"
    )
    paragraphs = "".join(f"<p>{paragraph}</p>" for paragraph in REST)
    tree = parse(_page(paragraphs + table))
    wrap_loose_text(tree)
    assert tree.xpath("//table[not(ancestor::p)]"), "the table went into a paragraph"


def test_a_story_split_into_spans_around_an_ad_becomes_paragraphs() -> None:
    """An ASP.NET story: its first paragraph bare in one `<span>`, cut mid-sentence by an ad,
    and the rest in another `<span>` that opens with the sentence's end before its `<p>`s."""
    head, tail = FIRST[:59], FIRST[59:]
    paragraphs = "".join(f"<p>{paragraph}</p>" for paragraph in REST)
    tree = parse(
        _page(
            f'<span id="Para1">{head}</span><div class="ad"><script>fill();</script></div>'
            f'<span id="Para2">{tail} {paragraphs}</span>'
        )
    )
    wrap_loose_text(tree)
    texts = [" ".join(p.text_content().split()) for p in tree.iter("p")]
    assert texts == [head.strip(), tail.strip(), *REST], texts


def test_a_story_written_as_text_between_blank_lines_keeps_its_first_paragraph() -> None:
    picture = '<div style="float: left"><img src="boat.jpg" alt="The boat"></div>'
    body = picture + FIRST + "".join(f"<br><br>{paragraph}" for paragraph in REST)
    page = f"""<!doctype html><html><head><title>A record on the bay</title></head><body>
    <article><div class="content">{body}</div></article></body></html>"""
    content = clean(page)
    assert content.startswith(FIRST), content
    assert all(f"\n{paragraph}" in content for paragraph in REST)


def test_a_paragraph_set_in_a_div_beside_such_a_story_is_kept() -> None:
    opening = f'<div>{FIRST} It <a href="https://example.com/race">raced alone</a> again.</div>'
    rest = "<br><br>".join(REST)
    content = clean(_page(f'{opening}<blockquote>"We were flying."</blockquote><div>{rest}</div>'))
    assert content.startswith(FIRST), content
    assert all(paragraph in content for paragraph in REST)


def test_a_box_of_two_lines_between_blank_lines_is_left_as_it_is() -> None:
    tree = parse(_page(f"<div id='box'>{REST[0]}<br><br>{REST[1]}<br><br></div>"))
    wrap_loose_text(tree)
    assert tree.xpath("//div[@id='box']/p") == []
