"""Raw mode's title: a plain head is read by one expression, and whatever a head holds, the
answer is the one libxml2's parser gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sift_fetch.render import title
from sift_fetch.render.title import head_title, parsed_title

_SPACE = st.sampled_from([" ", "\n", "\t", "\r\n", "\x0c", "  \n  "])
_VALUE = st.sampled_from(
    ['"utf-8"', "'a>b'", '"x<y"', "'say \"hi\"'", "plain", '""', 'a"b', '"open', "a'b", "`x`"]
)
_ATTR = st.builds(
    lambda name, eq, value: f" {name}{eq}{value}" if eq else f" {name}",
    st.sampled_from(["charset", "content", "data-x", "a", "/", "x/y"]),
    st.sampled_from(["", "=", " = "]),
    _VALUE,
)
_ATTRS = st.lists(_ATTR, max_size=3).map("".join)
_TAG = st.builds(
    lambda name, attrs, close: f"<{name}{attrs}{close}>",
    st.sampled_from(["html", "HEAD", "meta", "link", "base", "link-x", "basefont", "metadata"]),
    _ATTRS,
    st.sampled_from(["", " /", "/"]),
)
_COMMENT = st.sampled_from(
    [
        "<!---->",
        "<!-->",
        "<!--->",
        "<!-- a -->",
        "<!-- a --!>",
        "<!-- a -- b --->",
        "<!-- <title>not this</title> -->",
        "<!--[if IE]><script src=x></script><![endif]-->",
        "<!-- never closed",
    ]
)
_SCRIPT = st.sampled_from(
    [
        "<script>var t = '<title>no</title>';</script>",
        "<script><!-- document.write('<script></script>') --></script>",
        "<script><!-- a --></script>",
        "<script>if (a<b) go()</script >",
        "<script type=module>x</scripty></script>",
        "<SCRIPT>x</Script>",
        "<style>a>b{x:1}</style>",
        "<style></style\n>",
        "<style>p{}</style",
    ]
)
_ODD = st.sampled_from(["</head>", "text", "<div>", "<template>", "<!DOCTYPE html>"])
_NOSCRIPT = st.sampled_from(
    [
        "<noscript><link></noscript>",
        '<noscript><img height="1" src="https://x/tr?id=1&ev=PageView"\n/></noscript>',
        "<noscript></noscript >",
        "<NOSCRIPT>text</noscript>",
        "<noscript><div>x</div><p>y</noscript>",
        "<noscript><title>inside</title></noscript>",
        "<noscript><script>document.write('</noscript>')</script></noscript>",
        "<noscript><style></noscript></style></noscript>",
        "<noscript><!-- </noscript> --></noscript>",
        "<noscript><noscript></noscript></noscript>",
        "<noscript><iframe src=x></iframe></noscript>",
        "<noscript><textarea></noscript></textarea></noscript>",
        "<noscript></title></noscript>",
        "<noscript></head><body><p>x</noscript>",
        "<noscript><meta charset=x><link rel=y></noscript>",
        "<noscript>never closed",
        "</noscript>",
    ]
)
_PIECE = st.one_of(_SPACE, _TAG, _COMMENT, _SCRIPT, _ODD, _NOSCRIPT)
_TITLE_TEXT = st.lists(
    st.sampled_from(
        [
            "A",
            "b c",
            "&amp;",
            "&amp",
            "&notit;",
            "&#128;",
            "&#x0;",
            "&#xD800;",
            "&",
            "<",
            "<b>x</b>",
            "</titlex>",
            "\x00",
            "\x01",
            "\r",
            "\u00a0",
            "é",
            "\ufeff",
            "x" * 120,
        ]
    ),
    max_size=6,
).map("".join)
_TITLE = st.builds(
    lambda attrs, text, end: f"<title{attrs}>{text}{end}",
    _ATTRS,
    _TITLE_TEXT,
    st.sampled_from(["</title>", "</TITLE >", "</title\n>", "</title x>", ""]),
)


@settings(max_examples=600, deadline=None)
@given(
    bom=st.sampled_from(["", "\ufeff"]),
    doctype=st.sampled_from(["", "<!DOCTYPE html>", "<!doctype html PUBLIC '-//W3C//DTD'>"]),
    # Whether the page opens its head itself decides where libxml2 puts a <noscript>.
    opening=st.sampled_from(["", "<html><head>", "<head lang=en>", "<html>\n"]),
    pieces=st.lists(_PIECE, max_size=6),
    head_title_tag=_TITLE,
    rest=st.sampled_from(["</head><body><p>x</p></body></html>", "<title>second</title>", ""]),
)
def test_any_head_gets_the_title_libxml2_reads(
    bom: str, doctype: str, opening: str, pieces: list[str], head_title_tag: str, rest: str
) -> None:
    page = bom + doctype + opening + "".join(pieces) + head_title_tag + rest
    assert head_title(page) == parsed_title(page)


@pytest.mark.parametrize(
    "page",
    [
        "<!DOCTYPE html><html lang=en><head><meta charset='utf-8'><title>Hi &amp; bye</title>",
        "<html>\n<head>\n<!-- build 7 -->\n<script>var a = 1 < 2;</script>\n"
        '<style>a > b {}</style>\n<link rel="icon" href="/i.png"/>\n<title>Hi &amp; bye</title>',
        '<html><head><noscript><img height="1" width="1" style="display:none"\n'
        'src="https://www.facebook.com/tr?id=1&ev=PageView&noscript=1"\n/></noscript>\n'
        "<title>Hi &amp; bye</title>",
    ],
)
def test_a_plain_head_is_read_without_the_parser(
    page: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(title, "parsed_title", lambda _text: pytest.fail("parsed"))
    assert head_title(page) == "Hi & bye"
