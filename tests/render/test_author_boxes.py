"""Clean mode takes out an author's box that microdata marks, and keeps what only looks like one."""

from __future__ import annotations

from sift_fetch.render.author_boxes import MAX_MARKED, drop_author_boxes
from sift_fetch.render.html import parse
from tests.render.conftest import clean

POST = """
<p>On the steep slopes above the old town grow wines that win over with finesse and freshness,
and the growers there have spent two decades bringing their vineyards back from neglect.</p>
<p>Seven of this year's bottles stood out in a tasting of forty, from light and fruity to
dense and spicy, and all of them cost less than a dinner for two in the valley below.</p>
<p>The co-operative cellar still presses most of the grapes, but small estates have started
to bottle their own, and a few now sell more abroad than they do at home.</p>
"""
BIO = (
    "Jo Lindner (born 1962) has written about wine and food for more than 25 years. As a "
    "freelance author the Munich native works for magazines and guides."
)


def _page(after_post: str, byline: str = "") -> str:
    return f"""<!doctype html><html><head><title>Red wines with elegance</title></head><body>
    <main><article class="post-1 hentry"><h1>Red wines with elegance</h1>{byline}
    <div class="entry-content">{POST}</div>{after_post}</article></main>
    <footer><p>About us. Contact. Privacy policy.</p></footer></body></html>"""


def _box(text: str) -> str:
    return f"""<div class="saboxplugin-wrap" itemprop="author" itemscope
    itemtype="http://schema.org/Person"><div class="saboxplugin-authorname">
    <span itemprop="name">Jo Lindner</span></div>
    <div class="saboxplugin-desc"><div itemprop="description"><p>{text}</p></div></div></div>"""


def test_an_author_box_with_a_biography_is_taken_out() -> None:
    content = clean(_page(_box(BIO)))
    assert "co-operative cellar" in content
    assert "freelance author" not in content


def test_a_short_byline_marked_as_the_author_is_left_where_it_is() -> None:
    byline = '<p class="meta">By <span itemprop="author">Jo Lindner</span></p>'
    html = _page("", byline=byline)
    tree = parse(html)
    drop_author_boxes(tree, html)
    assert tree.xpath("//*[@itemprop='author']")


def test_a_story_marked_whole_as_the_author_s_stays() -> None:
    """Some pages put the author's microdata on an element around the whole post."""
    html = (
        _page("")
        .replace(
            '<div class="entry-content">', '<div itemprop="author"><div itemprop="articleBody">', 1
        )
        .replace("</div></article>", "</div></div></article>", 1)
    )
    content = clean(html)
    assert "Seven of this year's bottles" in content
    assert "co-operative cellar" in content


def test_a_marked_element_longer_than_a_biography_stays() -> None:
    html = _page(_box(" ".join([BIO] * 10)))
    tree = parse(html)
    drop_author_boxes(tree, html)
    assert tree.xpath("//*[@itemprop='author']")


def test_a_page_marking_more_authors_than_any_article_is_left_alone() -> None:
    """A listing's bylines, or a hostile nest of marks: the rule does not walk them."""
    boxes = "".join(_box(BIO) for _ in range(MAX_MARKED + 1))
    html = _page(boxes)
    tree = parse(html)
    drop_author_boxes(tree, html)
    assert len(tree.xpath("//*[@itemprop='author']")) == MAX_MARKED + 1
