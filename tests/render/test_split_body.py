"""Clean mode reads an article body cut into sibling containers (an ad between each two) whole."""

from __future__ import annotations

from tests.render.conftest import clean

PARTS = [
    """<p>Researchers revealed an algorithm that learns, by trial and error, how to turn the
    faces of a cube with a robot hand, and the feat drew attention across the field.</p>
    <p>The effort may have consumed a great deal of electricity, one estimate says, about
    what three nuclear plants produce in an hour of their running.</p>""",
    """<p>The energy agency estimates that data centers account for about two percent of
    total electricity usage, and that share keeps rising with every passing year.</p>
    <p>Cloud providers have sought to offset their emissions with purchases of renewable
    energy and with more efficient cooling in their largest buildings.</p>""",
    """<p>Some researchers are not waiting for the industry to wake up, and have organized a
    workshop on climate change at one of the field's biggest conferences.</p>""",
]


def _page(parts: list[str], body_class: str = "body body__container article__body") -> str:
    sections = """
      <div class="row full-bleed-ad"><div class="ad"><span class="ad-label">Advertisement</span>
      </div></div>""".join(
        f'<div class="grid"><div class="{body_class}">{part}</div>'
        '<div class="rail"><div class="ad">Shop now</div></div></div>'
        for part in parts
    )
    return f"""<!doctype html><html><head><title>AI and the planet</title></head><body>
    <header><nav><a href="/">Home</a> <a href="/science">Science</a></nav></header>
    <main><h1>AI and the planet</h1>{sections}</main>
    <footer><p>About us. Contact. Privacy policy.</p></footer></body></html>"""


def test_every_part_of_a_split_body_is_kept_in_order() -> None:
    content = clean(_page(PARTS))
    firsts = ["Researchers revealed", "The energy agency", "Cloud providers", "Some researchers"]
    positions = [content.find(first) for first in firsts]
    assert -1 not in positions, content
    assert positions == sorted(positions)
    assert "Advertisement" not in content
    assert "Shop now" not in content


def test_parts_that_microdata_marks_as_the_body_are_kept() -> None:
    """A CNBC story: each part a `<div class="group" itemprop="articleBody">`, a class no body
    pattern names."""
    html = _page(PARTS, body_class="group").replace(
        'class="group"', 'class="group" itemprop="articleBody"'
    )
    content = clean(html)
    assert "Cloud providers" in content
    assert "Some researchers" in content


def test_a_parts_subheading_set_before_it_comes_with_it() -> None:
    html = _page(PARTS).replace(
        '<div class="grid"><div class="body body__container article__body"><p>The energy',
        '<div class="grid"><h4 class="subtitle">What the data centers use</h4>'
        '<div class="body body__container article__body"><p>The energy',
    )
    content = clean(html)
    assert "#### What the data centers use\n\nThe energy agency" in content, content


def test_containers_of_another_class_are_not_joined() -> None:
    html = _page(PARTS[:2]).replace(
        "</main>",
        '<div class="recirc article__body-promo"><p>Another story entirely, about the best '
        "fitness trackers and running shoes of the year, picked by our gear team.</p></div></main>",
    )
    content = clean(html)
    assert "Cloud providers" in content
    assert "fitness trackers" not in content


def test_related_posts_in_cards_of_their_own_are_not_joined() -> None:
    """A blog's related posts are `<article>` cards whose excerpts share the body's class."""
    cards = "".join(
        f'<article class="card"><p class="title"><a href="/{slug}">{title}</a></p>'
        f'<div class="content entry-content"><p>{excerpt}</p></div></article>'
        for slug, title, excerpt in [
            (
                "halloween",
                "Halloween scams",
                "Beware of spooky giveaways this Halloween, "
                "since ransomware hides behind prize draws and fake vouchers of every kind.",
            ),
            (
                "free-vpn",
                "Free VPNs leak",
                "Another data leak at a free VPN shows that many "
                "free services have massive security problems with their users' data.",
            ),
        ]
    )
    html = f"""<!doctype html><html><head><title>AI and the planet</title></head><body>
    <main><article class="post-1 hentry"><h1>AI and the planet</h1>
    <div class="content entry-content">{PARTS[0]}{PARTS[1]}</div></article>
    <section class="related-underpost">{cards}</section></main></body></html>"""
    content = clean(html)
    assert "Cloud providers" in content
    assert "spooky giveaways" not in content
    assert "free services" not in content


def test_parts_side_by_side_in_one_wrapper_are_kept() -> None:
    """A Washington Post story of 2013: two `<div class="article_body entry-content">` in one
    wrapper, a rail of other stories between them; the expression finds only the first."""
    rail = """<div class="article-side-rail"><p class="heading">More business news</p>
      <h2><a href="/detroit">Detroit's problems unlikely to spread, experts say</a></h2></div>"""
    first, second = (f'<div class="article_body entry-content">{part}</div>' for part in PARTS[:2])
    html = _page([]).replace(
        "<main><h1>AI and the planet</h1>",
        f'<main><h1>AI and the planet</h1><div id="article_body">{first}{rail}{second}</div>',
    )
    content = clean(html)
    positions = [content.find(opening) for opening in ("Researchers revealed", "Cloud providers")]
    assert -1 not in positions, content
    assert positions == sorted(positions)


def test_a_blogs_stream_of_other_entries_is_not_joined() -> None:
    """A Blogger page in Dynamic Views: the post in view, then the blog's stream of posts, each
    a `<div class="article hentry">` whose body has the post's own class."""

    def entry(title: str, body: str) -> str:
        return (
            f'<div class="article hentry"><div class="article-header"><h3>{title}</h3></div>'
            f'<div class="article-content entry-content">{body}</div>'
            '<div class="article-footer">Posted by Unknown</div></div>'
        )

    others = [
        "<p>I was originally going to write about one of the endless discussions on how to get "
        "things done, and found that the advice mostly does not matter at all.</p>",
        "<p>When uncertainty strikes it comes in several flavors, from not knowing the goal to "
        "not knowing the next small step of the plan you already have.</p>",
    ]
    stream = "".join(f'<li class="item">{entry("Another post", other)}</li>' for other in others)
    html = f"""<!doctype html><html><head><title>Productivity</title></head><body>
    <div class="viewitem-panel">{entry("Productivity", PARTS[0] + PARTS[1])}</div>
    <div class="hfeed"><ol class="items">{stream}</ol></div></body></html>"""
    content = clean(html)
    assert "Researchers revealed" in content
    assert "Cloud providers" in content
    assert "endless discussions" not in content
    assert "uncertainty strikes" not in content
