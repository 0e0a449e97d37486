"""Clean text held to the article's text as the page declares it (JSON-LD `articleBody`):
what is mostly not in it goes, where the declaration holds the article's long paragraphs."""

from __future__ import annotations

import json

from lxml.html import document_fromstring

from sift_fetch.render.declared_body import declared_body, hold_to_declared
from tests.render.conftest import clean
from tests.render.test_html import NEWS_PARAGRAPHS

DECK = "The market ends a dispute of eleven years over the empty building and its future use."
NOTICE = "Use the little red bell at the bottom right to hear of new stories at once."
LATER = [
    "Work on the roof starts in January. The builders expect to finish the hall by the end of"
    " March, weather allowing, and the stalls will be fitted in April and May.",
    "The council will choose the traders by lot among those who apply before the autumn, with a"
    " share of the stalls kept for young farmers who have never sold at a market.",
]


def _page(ld: object | None) -> str:
    script = f'<script type="application/ld+json">{json.dumps(ld)}</script>' if ld else ""
    paragraphs = "".join(f"<p>{p}</p>" for p in NEWS_PARAGRAPHS)
    later = "".join(f"<p>{p}</p>" for p in LATER)
    return f"""<html><head><title>Depot becomes a market</title>{script}</head><body>
    <article><h1>Depot becomes a market</h1><p>{DECK}</p>{paragraphs}
    <h2>What comes next</h2>{later}<p>{NOTICE}</p></article></body></html>"""


def _story(body: str) -> dict[str, object]:
    return {
        "@context": "https://schema.org",
        "@graph": [{"@type": "NewsArticle", "articleBody": body}],
    }


def test_what_the_declared_article_lacks_goes_but_its_subheadings_stay() -> None:
    declared = " ".join(NEWS_PARAGRAPHS + LATER)
    plain, held = clean(_page(None)), clean(_page(_story(declared)))
    assert DECK in plain and NOTICE in plain  # the rule, not another one, takes them
    assert DECK not in held and NOTICE not in held
    assert "## What comes next" in held.split("\n")
    assert [line for line in held.split("\n") if line and not line.startswith("#")] == (
        NEWS_PARAGRAPHS + LATER
    )


def test_a_declaration_that_lacks_the_article_changes_nothing() -> None:
    # A teaser's first paragraphs, or another story: the page's own long paragraphs are not in it.
    teaser = " ".join(NEWS_PARAGRAPHS[:1] + ["Read the whole story with a subscription."] * 12)
    assert clean(_page(_story(teaser))) == clean(_page(None))


def _declaring(*declarations: object) -> str:
    scripts = "".join(
        f'<script type="application/ld+json">{json.dumps(ld)}</script>' for ld in declarations
    )
    return f"<html><head>{scripts}</head><body></body></html>"


def test_the_declared_body_is_read_as_text_a_paragraph_a_line() -> None:
    words = " ".join(["word"] * 60)
    story = {"@graph": [{"nested": {"articleBody": f"<p>{words} &amp; more</p><p>Last  one.</p>"}}]}
    # The same story declared twice (JSON-LD and a second script) is one declaration.
    tree = document_fromstring(_declaring(story, story, {"headline": "no body here"}))
    assert declared_body(tree) == f"{words} & more\nLast one."


def test_a_page_declaring_several_bodies_declares_none() -> None:
    words = " ".join(["word"] * 60)
    posts = [{"articleBody": f"{words} {i}"} for i in range(3)]  # a live blog's posts
    assert declared_body(document_fromstring(_declaring({"liveBlogUpdate": posts}))) is None


def test_a_story_drawn_by_script_comes_from_its_declaration() -> None:
    story = "".join(f"<p>{p}</p>" for p in NEWS_PARAGRAPHS + LATER)
    page = f"""<html><head><title>Depot becomes a market</title>
    <script type="application/ld+json">{json.dumps(_story(story))}</script></head><body>
    <article><h1>Depot becomes a market</h1><div id="app"></div>
    <figure><img src="/depot.jpg"><figcaption>The old depot on a winter morning, seen from
    the square where the farmers now sell from their vans.</figcaption></figure>
    </article></body></html>"""
    assert clean(page).split("\n\n") == NEWS_PARAGRAPHS + LATER


def test_broken_short_or_hostile_declarations_are_none() -> None:
    deep = "[" * 100_000 + '"articleBody"' + "]" * 100_000
    for script in ("{not json", json.dumps({"articleBody": "Just a summary."}), deep):
        tree = document_fromstring(
            f'<html><head><script type="application/ld+json">{script}</script>'
            '<script type="application/ld+json">"articleBody"</script></head></html>'
        )
        assert declared_body(tree) is None


def test_short_blocks_say_too_little_to_go() -> None:
    markdown = "WASHINGTON —\n\n" + "\n\n".join(NEWS_PARAGRAPHS)
    assert hold_to_declared(markdown, " ".join(NEWS_PARAGRAPHS)) == markdown
