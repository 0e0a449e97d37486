"""Clean mode leaves out readers' comments, however the site names their section."""

from __future__ import annotations

from tests.render.conftest import clean

STORY = [
    "BlackBerry is to launch its keyboard phone in India next week, hoping a market less fond "
    "of touchscreens than most will give the company the sales it has lacked elsewhere.",
    "The phone will cost about the same as a mid-range Android handset, and operators say "
    "business customers have asked for it since the first models were shown in January.",
    "Analysts expect the launch to be watched closely by the government, which has asked "
    "for access to the messaging service for years and threatened to ban the devices.",
]
POSTS = [
    "Not at my company, we all got the new phones and one of the owners went back to the old "
    "model because it fits in the hand better and he did not like the size of the new one.",
    "Windows Phone is annihilating BlackBerry in the market, the latest figures for last month "
    "show it well ahead in sales and still climbing in every country they measured.",
]


def _page(section: str) -> str:
    body = "".join(f"<p>{paragraph}</p>" for paragraph in STORY)
    return f"""<!doctype html><html><head><title>BlackBerry in India</title></head><body>
    <div id="page"><div id="article"><h1>BlackBerry in India</h1><div id="body">{body}</div>
    {section}</div></div></body></html>"""


def test_a_comment_section_named_otherwise_goes_by_its_title() -> None:
    posts = "".join(
        f'<div class="post"><div class="author">Reader {n}</div><div class="body">'
        f"<h3>My view, number {n}</h3><p>{post}</p></div></div>"
        for n, post in enumerate(POSTS)
    )
    section = (
        '<div id="in_article_forums"><div class="heading"><h2>Comments</h2>'
        '<a href="/forum/post">Post your comment</a></div>'
        f'<div id="highly_rated_posts">{posts}</div></div>'
    )
    content = clean(_page(section))
    assert STORY[2] in content, content
    assert "Not at my company" not in content
    assert "annihilating" not in content


def test_a_section_named_for_comments_without_their_title_stays() -> None:
    """A live match's commentary: named for comments, and the page's text."""
    minutes = "".join(f"<p>{n}' {post}</p>" for n, post in zip((12, 48), POSTS, strict=True))
    section = f'<div class="live-match-comments"><h2>Minute by minute</h2>{minutes}</div>'
    content = clean(_page(section))
    assert STORY[0] in content, content
    assert "annihilating" in content
