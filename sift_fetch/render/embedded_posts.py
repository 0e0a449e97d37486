"""Embedded tweets and Instagram posts kept: their links unwrapped, text kept, before extraction.

Twitter's embed code quotes a post in the article as `<blockquote class="twitter-tweet">`: its text,
then "— Name (@handle) date". Mentions, hashtags, its t.co and pic.twitter.com links and the date
are each a link, and a post of a few words with a link or several, in the `<div>` a site wraps it
in, is what trafilatura's precision mode drops as a block of links (round 23's mashable.com story
lost the twelve posts it quotes, a third of its text). Those links lead to the post and the people
it names, not to reading elsewhere (context lists the page's links, read before this), so they are
unwrapped: the words stay, and the post is kept as the quote it is. A wrapper around the post
alone goes too, since trafilatura drops one whose class says "embed" or "widget", post and all
(round 21's nbcnews.com and uproxx.com lost the tweet each story quotes). Instagram's embed code
(`<blockquote class="instagram-media">`) is read the same way, without the labels it shows ("View
this post on Instagram", "Loading"): its caption and "A post shared by ..." line stay. A post
that holds nothing but its own address (WIRED's React pages leave the embed code so, for a
script to fill) is a placeholder, and goes: it came out as a bare link in the text.

Substack draws a tweet itself, as `<div class="tweet">`: the author's name and handle, the text
and any tweet it quotes, all inside one link to the tweet, then its date and its like and
retweet counts inside another. trafilatura dropped it as a block of links (round 40's Slow
Boring post lost the five it quotes). It is read as Twitter's embed is: the links unwrapped,
the counts and a linked page's card dropped, each line a paragraph of a quote, out of the boxes
around it.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.furniture import WIDGET_LABEL

# The embed codes' classes: a tweet, a tweet with a video, an Instagram post.
_MARKS = ("twitter-tweet", "twitter-video", "instagram-media")
_POSTS = etree.XPath(
    "//blockquote[contains(concat(' ', normalize-space(@class), ' '), ' twitter-tweet ')"
    " or contains(concat(' ', normalize-space(@class), ' '), ' twitter-video ')"
    " or contains(concat(' ', normalize-space(@class), ' '), ' instagram-media ')]"
)

_BARE_ADDRESS = re.compile(r"https?://\S+")

_SUBSTACK_MARK = 'class="tweet"'
_SUBSTACK_TWEETS = etree.XPath("//div[@class='tweet'][.//a[contains(@href, 'twitter.com/')]]")
# Its like and retweet counts, and the card of a page it links to.
_SUBSTACK_EXTRAS = etree.XPath(
    ".//*[@class='tweet-ufi' or @class='likes' or @class='expanded-link']"
)
# The author's line, the text, a quoted tweet's author and text, the date: Substack has drawn
# the author's line as the header itself, and the text as the words after it.
_SUBSTACK_LINES = etree.XPath(
    ".//div[@class='tweet-header'][not(div[@class='tweet-header-text'])]"
    " | .//div[@class='tweet-header-text' or @class='tweet-text'"
    " or @class='quote-tweet-header-text'] | .//div[@class='quote-tweet']/span"
    " | .//*[@class='tweet-date']"
)


def keep_embedded_posts(tree: HtmlElement, html: str) -> None:
    """Unwrap the links of every embedded post and drop its labels, and lift it out of wrappers
    that hold only it, on a page whose source (HTML) embeds one."""
    if _SUBSTACK_MARK in html:
        for tweet in _SUBSTACK_TWEETS(tree):
            _read_substack_tweet(tweet)
    if not any(mark in html for mark in _MARKS):
        return  # the XPath visits every element; few pages embed a post
    for post in _POSTS(tree):
        if _BARE_ADDRESS.fullmatch(post.text_content().strip()):
            post.drop_tree()  # the post's address alone: a placeholder the widget's script fills
            continue
        for link in list(post.iter("a")):
            link.drop_tag()
        for el in list(post.iter()):
            if el is not post and WIDGET_LABEL.match(el.text_content()):
                el.drop_tree()
        _lift(post)


def _read_substack_tweet(tweet: HtmlElement) -> None:
    """Substack's drawing of a tweet as a quote: its lines, without its links, its counts and
    the card of a page it links to."""
    for extra in _SUBSTACK_EXTRAS(tweet):
        extra.drop_tree()
    lines = _SUBSTACK_LINES(tweet)
    for line in lines:
        line.tag = "p"
        if line.tail and line.tail.strip():
            text = tweet.makeelement("p", {})
            text.text, line.tail = line.tail, None
            line.addnext(text)
    # The links, and the boxes around the lines, go; the classes inside, which trafilatura reads
    # as the page's own ("tweet-header", "tweet-footer", "tweet-author-name": a header, a
    # footer, a byline), are taken off.
    for el in list(tweet.iter()):
        if el is tweet:
            continue
        el.attrib.pop("class", None)
        if el.tag in ("a", "div") and el not in lines:
            el.drop_tag()
    tweet.tag = "blockquote"


def _lift(post: HtmlElement) -> None:
    """Put POST in the place of the `<div>`s around it that hold nothing else."""
    words = post.text_content().split()
    if not words:
        return  # a placeholder the widget's script fills: nothing to keep
    parent = post.getparent()
    while parent is not None and parent.tag == "div" and parent.text_content().split() == words:
        grand = parent.getparent()
        if grand is None:
            return
        post.tail = parent.tail
        grand.replace(parent, post)
        parent = grand
