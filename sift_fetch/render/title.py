"""A page's own <title>, for raw mode, which answers with the body as sent and parses no tree.

Most pages open with a head whose tokens are plain: a doctype, head tags, comments, scripts,
styles, a <noscript> of void tags, then the title. HTML's tokenizer rules (which libxml2 follows
since 2.14) make such a start unambiguous, so `_PLAIN_HEAD` reads it with one regular
expression; anything else (an unusual construct, text, an end tag) goes to libxml2's own
incremental parser, and both give the same title (tests/render/test_title.py generates heads
to hold them to it).
With the parser alone, reading the title took a ninth of the event loop's busy time in raw
fetches (py-spy on bench/fetch_cost.py's loop; 100-370 µs a page, 5-10 µs with the expression).
"""

from __future__ import annotations

import html
import re

from lxml import etree

# A <title> is in the head, near the start; a page with none is not read to its end for one.
TITLE_SCAN_CHARS = 64 * 1024
_STEP = 2 * 1024  # most titles end in the first 2 KiB; a smaller step costs more calls

# A tag's attributes, as the tokenizer splits them; a quote only opens a value after `=`. Only
# a void tag may end in `/`: libxml2 closes other elements there, where HTML ignores it.
_ATTRS = r"""(?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>=`]+))?)*\s*"""


def _until(end: str, stop: str = "") -> str:
    """Text up to the end tag END (not consumed), as script, style and title data run; STOP
    (an alternative to a lookahead) makes the match fail where it occurs instead."""
    return rf"[^<]*(?:<(?!/{end}[\s/>]{stop})[^<]*)*"


_PLAIN_HEAD = re.compile(
    r"\ufeff?(?>"
    r"\s"
    r"|<!doctype\s[^<>]*>"
    rf"|<html{_ATTRS}>"
    rf"|(?P<head><head{_ATTRS}>)"
    rf"|<(?:meta|link|base){_ATTRS}/?>"
    # Not `<!-->` or `<!--->`, which end where they start; a comment ends at `-->` or `--!>`.
    r"|<!--(?!-?>)[^-]*(?:-(?!-!?>)[^-]*)*--!?>"
    # Script data without `<!--`, whose escaped states let a `</script>` inside it through.
    rf"|<script{_ATTRS}>{_until('script', '|!--')}</script\s*>"
    rf"|<style{_ATTRS}>{_until('style')}</style\s*>"
    # A <noscript> of text and void tags only (a tracking pixel's <img>, a <link>: 15 of the 949
    # tuning pages), which libxml2 keeps inside a head the page opened itself; where the head
    # is only implied, a <noscript> starts the body. Anything else in it goes to the parser.
    rf"|(?(head)<noscript{_ATTRS}>[^<]*(?:<(?:img|link|meta){_ATTRS}/?>[^<]*)*"
    r"</noscript\s*>|(?!))"
    rf")*<title{_ATTRS}>(?P<title>{_until('title')})</title\s*>",
    re.IGNORECASE,
)


def head_title(text: str) -> str | None:
    """The <title> in the head of TEXT, if one ends within TITLE_SCAN_CHARS."""
    plain = _PLAIN_HEAD.match(text, 0, TITLE_SCAN_CHARS)
    # A NUL becomes U+FFFD in a title; the parser knows which other replacements go with it.
    if plain is not None and "\x00" not in plain["title"]:
        return title_text(html.unescape(plain["title"]))
    return parsed_title(text)


def parsed_title(text: str) -> str | None:
    """`head_title` by libxml2's parser, read incrementally up to the title."""
    parser = etree.HTMLPullParser(events=("start", "end"), tag=("title", "body"))
    for start in range(0, min(len(text), TITLE_SCAN_CHARS), _STEP):
        parser.feed(text[start : start + _STEP])
        for event, el in parser.read_events():
            if el.tag == "body":
                return None
            if event == "end":
                return title_text("".join(el.itertext()))
    return None


def title_text(title: str) -> str | None:
    """TITLE with its whitespace collapsed, at most 300 characters, or None if empty."""
    return " ".join(title.split())[:300].rstrip() or None
