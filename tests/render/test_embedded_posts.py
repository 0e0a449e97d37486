"""Clean mode keeps the posts an article quotes: Twitter's, Instagram's and Substack's."""

from __future__ import annotations

from tests.render.conftest import clean

STORY = [
    "A military cargo plane circled low over Manhattan for more than an hour on Tuesday, and "
    "people across the city took to social media to ask what it was doing there.",
    "The police department said it did not know why the plane was circling, and the air "
    "national guard later said the flight was part of a routine training mission.",
    "Officials said that such flights are planned weeks ahead and that the public is not "
    "always told about them, which left many residents worried for the afternoon.",
]


def _tweet(text: str, author: str, handle: str) -> str:
    """A post as Twitter's embed code writes it, in a site's wrapper: the author's line a
    paragraph of its own, the date a link to the post."""
    return (
        '<div class="twitter-wrapper"><div><blockquote class="twitter-tweet">'
        f'<p lang="en" dir="ltr">{text}</p><p>&mdash; {author} (@{handle}) '
        f'<a href="https://twitter.com/{handle}/status/1">December 13, 2016</a></p>'
        "</blockquote></div></div>"
    )


def _page(body: str) -> str:
    return f"""<!doctype html><html><head><title>A plane over Manhattan</title></head><body>
    <nav><a href="/">Home</a> <a href="/news">News</a></nav>
    <article><h1>A plane over Manhattan</h1><div class="story">{body}</div></article>
    <footer><p>About us. Contact.</p></footer></body></html>"""


def test_an_embedded_post_is_kept_with_its_author_line() -> None:
    tweets = [
        _tweet("Anybody know about the plane circling Manhattan right now?", "Ann Lee", "annlee"),
        _tweet("Military plane over Manhattan, circling for an hour now", "Bo Chan", "bochan"),
    ]
    body = f"<p>{STORY[0]}</p>{tweets[0]}<p>{STORY[1]}</p>{tweets[1]}<p>{STORY[2]}</p>"
    content = clean(_page(body))
    assert "Anybody know about the plane circling Manhattan right now?" in content, content
    assert "Military plane over Manhattan" in content
    assert "Bo Chan (@bochan) December 13, 2016" in content
    assert content.index("Anybody know") < content.index(STORY[1][:30])


def test_a_post_in_an_embed_or_widget_wrapper_is_kept_and_an_empty_one_adds_nothing() -> None:
    tweet = _tweet("Still working on the investigation into the launch", "Ann Lee", "annlee")
    wrapped = tweet.replace('<div class="twitter-wrapper">', '<div class="widget widget_tweet">')
    placeholder = (
        '<div class="social-post"><blockquote class="twitter-tweet">'
        '<a href="https://twitter.com/annlee/status/2">&nbsp;</a></blockquote></div>'
    )
    # A post left as its own address, for the widget's script to fill, is a placeholder too.
    address = "https://twitter.com/annlee/status/3"
    bare = f'<blockquote class="twitter-tweet"><a href="{address}">{address}</a></blockquote>'
    body = f"<p>{STORY[0]}</p>{bare}<p>{STORY[1]}</p>{wrapped}<p>{STORY[2]}</p>{placeholder}"
    content = clean(_page(body))
    assert "> Still working on the investigation into the launch" in content, content
    assert content.rstrip().endswith(STORY[2]), content
    assert "status/3" not in content, content


def test_an_instagram_post_keeps_its_caption_and_author_line_without_its_labels() -> None:
    post = (
        '<div class="embed-instagram"><blockquote class="instagram-media">'
        '<div><a href="https://www.instagram.com/p/abc/">View this post on Instagram</a></div>'
        '<p><a href="https://www.instagram.com/p/abc/">Letters to strangers, read on the plaza'
        " this morning #kindness</a></p><p>A post shared by Ann Lee (@annlee) on "
        '<time datetime="2016-12-05">Dec 5, 2016 at 9:10am PST</time></p></blockquote></div>'
    )
    body = f"<p>{STORY[0]}</p><p>{STORY[1]}</p>{post}<p>{STORY[2]}</p>"
    content = clean(_page(body))
    assert "Letters to strangers, read on the plaza" in content, content
    assert "A post shared by Ann Lee (@annlee)" in content
    assert "View this post on Instagram" not in content


def _substack_tweet(text: str, author: str, handle: str) -> str:
    """A post as Substack draws it: the author's line, the text and a linked page's card in one
    link, the date and the counts in another."""
    status = f"https://twitter.com/{handle}/status/1"
    return (
        f'<div class="tweet"><a class="tweet-link-top" href="{status}">'
        f'<div class="tweet-header"><img class="tweet-header-avatar" src="a.jpg">'
        f'<div class="tweet-header-text"><span class="tweet-author-name">{author}</span> '
        f'<span class="tweet-author-handle">@{handle}</span></div></div>'
        f'<div class="tweet-text">{text}</div></a>'
        '<a class="expanded-link" href="https://news.example/plane"><div>news.example'
        "<span>Why the plane circled Manhattan</span></div></a>"
        f'<a class="tweet-link-bottom" href="{status}"><div class="tweet-footer">'
        '<span class="tweet-date">1:25 PM ∙ May 25, 2021</span><div class="tweet-ufi">'
        '<span class="likes"><span class="like-count">2,014</span><span>Likes</span></span>'
        "</div></div></a></div>"
    )


def test_a_tweet_substack_draws_is_kept_as_a_quote_without_its_counts() -> None:
    tweet = _substack_tweet("Military plane over Manhattan, an hour now", "Bo Chan", "bochan")
    text = clean(_page(f"<p>{STORY[0]}</p>{tweet}<p>{STORY[1]}</p><p>{STORY[2]}</p>"))
    assert "> Bo Chan @bochan\n>\n> Military plane over Manhattan, an hour now" in text, text
    assert "> 1:25 PM ∙ May 25, 2021" in text, text
    assert "Likes" not in text and "Why the plane circled" not in text, text


def test_a_tweet_substacks_older_pages_draw_keeps_its_text_after_the_authors_line() -> None:
    tweet = (
        '<div class="tweet"><a href="https://twitter.com/bochan/status/1">'
        '<div class="tweet-header"><img class="tweet-user-avatar" src="a.jpg">'
        '<span class="tweet-author-name">Bo Chan</span> <span class="tweet-author">@bochan</span>'
        "</div>Military plane over Manhattan, an hour now"
        '<div class="tweet-footer"><p class="tweet-date">September 19th 2020</p>'
        '<span class="likes"><span class="like-count">4</span> Likes</span></div></a></div>'
    )
    text = clean(_page(f"<p>{STORY[0]}</p>{tweet}<p>{STORY[1]}</p><p>{STORY[2]}</p>"))
    assert "> Bo Chan @bochan\n>\n> Military plane over Manhattan, an hour now" in text, text
    assert "> September 19th 2020" in text and "Likes" not in text, text
