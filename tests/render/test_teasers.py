"""Clean mode takes out lists of other pages' teasers, and keeps a listicle's items."""

from __future__ import annotations

from sift_fetch.render import render
from sift_fetch.render.html import parse
from sift_fetch.render.teasers import drop_teasers
from sift_fetch.target import Target
from tests.render.conftest import ARTICLE_URL, clean, make_doc

POST = """
<p>Cartoonist Riley Moss drew a scathing strip about the way newspapers write about young
people, and it has gone well beyond grumbling into open prejudice. Click through for the
whole strip, which ran in the weekend edition and drew hundreds of letters.</p>
<p>Moss says the strip took three weeks and started as a joke between friends at a cafe.</p>
"""


def _teaser(n: int, ending: str) -> str:
    return f"""
<div class="nextstory">
  <h2><a href="https://example.com/2024/05/story-{n}.html">Another story number {n}</a></h2>
  <a href="https://example.com/2024/05/story-{n}.html"><img src="/t{n}.jpg" alt=""></a>
  <p>Teaser{n} the folks at the choir are still doing their thing, and now they have
  asked two famous drummers to play along at the spring festival {ending}</p>
</div>"""


def _page(main: str, after: str = "") -> str:
    """A blog's page: the post, then thumbnails of the next posts in the same container."""
    return f"""<!doctype html><html><head><title>A strip about young people</title></head>
<body><div id="page"><div class="post"><h1>A strip about young people</h1>{main}</div>
<div id="next-posts">{after}</div></div></body></html>"""


def test_a_list_of_teasers_cut_short_goes() -> None:
    for ending in ("[&hellip;]", "...", '<a href="/s">Read more</a>'):
        teasers = "".join(_teaser(n, ending) for n in range(1, 5))
        content = clean(_page(POST, teasers))
        assert "Cartoonist Riley Moss" in content
        assert "three weeks" in content
        assert "Teaser" not in content, ending


def test_context_still_lists_the_teasers_links() -> None:
    html = _page(POST, "".join(_teaser(n, "[&hellip;]") for n in range(1, 4)))
    out = render(make_doc(html, "text/html"), Target(ARTICLE_URL, context=True), 60_000)
    assert out.context is not None
    urls = {link["url"] for link in out.context["links"]}
    assert "https://example.com/2024/05/story-2.html" in urls


def test_a_listicle_whose_items_are_whole_stays() -> None:
    looks = ["a red jumper", "grey trainers", "a green dress", "a yellow raincoat", "a black cape"]
    items = "".join(
        f"""<div class="item"><h2><a href="https://shop.example.com/costume-{n}">{n}. Costume
        {n}</a></h2><p>Costume{n} starts with {look} from the back of the wardrobe, then
        {n + 1} safety pins and an afternoon of patient work at the kitchen table.</p></div>"""
        for n, look in enumerate(looks, start=1)
    )
    intro = "<p>Five costumes you can make from what is in your wardrobe this weekend.</p>"
    tree = parse(_page(intro + items))
    drop_teasers(tree)
    for n, look in enumerate(looks, start=1):
        assert f"Costume{n} starts with {look}" in tree.text_content()


def test_one_card_alone_and_cards_of_other_kinds_stay() -> None:
    tree = parse(_page(POST, _teaser(1, "[&hellip;]")))
    drop_teasers(tree)
    assert "Teaser1" in tree.text_content()  # a single card is not a list
    mixed = _teaser(1, "[&hellip;]") + _teaser(2, "[&hellip;]").replace("nextstory", "ad")
    tree = parse(_page(POST, mixed))
    drop_teasers(tree)
    assert "Teaser1" in tree.text_content() and "Teaser2" in tree.text_content()


def test_cards_with_long_text_are_not_teasers() -> None:
    long_text = " ".join(["word"] * 130)
    cards = "".join(_teaser(n, long_text + " ...") for n in range(1, 4))
    tree = parse(_page(POST, cards))
    drop_teasers(tree)
    assert "Teaser3" in tree.text_content()
