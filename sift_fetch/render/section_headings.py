"""Section headings that trafilatura's fallback leaves out, written back.

Where trafilatura finds no container it knows for the article (a post whose paragraphs sit
straight in `<body>` or in a plain `<div>`), it gathers the page's paragraphs one by one, and
headings are not among what it gathers: the post's sections come back run together, their
headings gone (danluu.com's archive of an article, round 39). A heading of the page whose text
the extraction lacks, between two blocks of one parent that the extraction kept one after the
other, is the heading of the section that starts there, and is written back between them.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml.html import HtmlElement

from sift_fetch.render.link_lists import page_site, site_of
from sift_fetch.render.text import split_blocks, words

_SECTION_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
# What may stand between a heading and its section's text, and what that text is made of.
_BETWEEN = frozenset({"br", "hr", "img", "picture", "figure", "a"})
_GATHERED = frozenset({"p", "blockquote", "pre", "table"})
_CLOSING_QUOTES = "\"'\u201d\u2019\u00bb"


def restore_section_headings(tree: HtmlElement, markdown: str, url: str) -> str:
    """MARKDOWN, extracted from TREE (the page at URL), with the section headings it dropped
    between two of its blocks written back."""
    # trafilatura's own path keeps headings: an extraction that holds one did not lose them.
    if markdown.startswith("#") or "\n#" in markdown:
        return markdown
    home = page_site(url)
    candidates = []
    for heading in tree.iter(*_SECTION_HEADINGS):
        text = " ".join(heading.text_content().split())
        if text in markdown or not _section_title(text) or _teaser(heading, home):
            continue
        before, after = (
            _neighbour(heading.itersiblings(preceding=True)),
            _neighbour(heading.itersiblings()),
        )
        if before is not None and after is not None:
            candidates.append((heading, text, before, after))
    if not candidates:
        return markdown
    blocks = split_blocks(markdown)
    index = {tuple(words(block)): i for i, block in enumerate(blocks)}
    restored: dict[int, str] = {}
    for heading, text, before, after in candidates:
        at = index.get(tuple(words(after.text_content())))
        if (
            at is not None
            and at not in restored
            and index.get(tuple(words(before.text_content()))) == at - 1
        ):
            restored[at] = "#" * int(str(heading.tag)[1]) + " " + text
    if not restored:
        return markdown
    return "\n\n".join(
        part for i, block in enumerate(blocks) for part in (restored.get(i), block) if part
    )


def _section_title(text: str) -> bool:
    """Whether TEXT reads as a section's title: not a drop cap's letter, nor a sentence set
    large between paragraphs (a pull quote: "Unlike Hitler and Nixon, Trump didn't write his
    own book.")."""
    return len(text) > 1 and not text.rstrip(_CLOSING_QUOTES).endswith(".")


def _teaser(heading: HtmlElement, home: str) -> bool:
    """Whether HEADING's words are mostly a link to another page of the site HOME: another
    story's headline ("MIRA: Madre se acerca a conocer ..."). A section's heading may link
    elsewhere, to what it is about (a tool's home page, a list of bugs)."""
    linked = sum(
        len(words(link.text_content()))
        for link in heading.iter("a")
        if (href := link.get("href") or "")
        and not href.startswith("#")
        and site_of(href, home) == home
    )
    return 2 * linked > len(words(heading.text_content()))


def _neighbour(siblings: Iterator[HtmlElement]) -> HtmlElement | None:
    """The first of SIBLINGS with words, past breaks, rules and pictures, if it is a block of
    the kind trafilatura's fallback gathers (a paragraph, a quote, code, a table)."""
    for sibling in siblings:
        if not isinstance(sibling.tag, str) or sibling.tag in _BETWEEN:
            continue  # a comment, or what sits between a heading and its text
        if sibling.tag not in _GATHERED:
            return None
        if words(sibling.text_content()):
            return sibling
    return None
