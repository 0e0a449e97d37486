"""Clean mode reads divs that a page names as paragraphs as paragraphs, subheadings and all."""

from __future__ import annotations

from sift_fetch.render.html import parse
from sift_fetch.render.paragraph_divs import read_paragraph_divs
from tests.render.conftest import clean

SENTENCES = [
    "The duchess said that life within the institution had left her feeling trapped and alone.",
    "She told the interviewer that she had asked for help and had been told it was not possible.",
    "Palace officials declined to comment on the claims when asked about them on Monday night.",
    "The couple now live in California with their son, and expect a daughter in the summer.",
    "Their foundation plans to open a series of community kitchens across three continents.",
    "Friends of the family said the interview had been planned for several months in private.",
]
HEADINGS = ["The details behind their split", "Their lives today"]
# The story's few real <p>s (a note on where to find help): with this much <p> text in the body,
# trafilatura's precision mode reads no div as text.
HELP = "".join(
    f"<p>{line}</p>"
    for line in [
        "How to get help: in the US, call the National Suicide Prevention Lifeline any day.",
        "The International Association for Suicide Prevention lists crisis centers worldwide.",
        "Befrienders Worldwide keeps a list of helplines in many countries and languages.",
    ]
)


def _div(text: str) -> str:
    return f'<div class="zn-body__paragraph">{text}</div>'


def _story() -> str:
    """A CNN story: paragraphs as divs, the first a <p> in one, subheadings as <h3> in one."""
    first = (
        '<div class="el__leafmedia el__leafmedia--sourced-paragraph"><p class="zn-body__paragraph">'
        "London (CNN) It was the interview that some within the palace must have feared.</p></div>"
    )
    head = "".join(_div(s) for s in SENTENCES[:2]) + _div(f"<h3>{HEADINGS[0]}</h3>")
    rest = "".join(_div(s) for s in SENTENCES[2:4]) + HELP + _div(f"<h3>{HEADINGS[1]}</h3>")
    rest += "".join(_div(s) for s in SENTENCES[4:])
    return f"""<!doctype html><html><head><title>The royal interview</title></head><body>
    <article class="pg-rail-tall"><div class="pg-rail-tall__body" itemprop="articleBody">
    <section class="zn zn-body-text zn-body" id="body-text">
    <div class="l-container">{first}{head}</div>
    <div class="zn-body__read-all">{rest}</div>
    </section></div></article></body></html>"""


def test_paragraph_divs_become_paragraphs_and_subheadings_stand_alone() -> None:
    html = _story()
    tree = parse(html)
    read_paragraph_divs(tree, html)
    paragraphs = [p.text_content() for p in tree.iter("p")]
    assert all(sentence in paragraphs for sentence in SENTENCES)
    for heading in tree.iter("h3"):
        assert "paragraph" not in (heading.getparent().get("class") or "")
    assert [h.text for h in tree.iter("h3")] == HEADINGS
    # the first paragraph, a <p> already, keeps its wrapper
    assert tree.xpath("//div[contains(@class, 'sourced-paragraph')]/p[starts-with(., 'London')]")


def test_a_story_in_paragraph_divs_renders_whole_and_in_order() -> None:
    content = clean(_story())
    positions = [content.find(text) for text in [*SENTENCES[:2], HEADINGS[0], *SENTENCES[2:]]]
    assert -1 not in positions, content
    assert positions == sorted(positions)


def test_one_paragraph_div_holding_other_blocks_leaves_the_page_as_it_is() -> None:
    """A tutorial's paragraph with a <pre> in it: made <p>s around it, it would be dropped."""
    html = _story().replace(
        _div(SENTENCES[3]), _div(f"{SENTENCES[3]} Run <pre><code>make</code></pre> first.")
    )
    tree = parse(html)
    read_paragraph_divs(tree, html)
    assert len(tree.xpath("//div[@class='zn-body__paragraph']")) == len(SENTENCES) + 2
