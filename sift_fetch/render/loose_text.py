"""Text written straight into an article's container, beside its `<p>`s, made `<p>`s too.

Some CMSs write a story's first paragraph, or a paragraph between two others, as bare text in the
container rather than in a `<p>` (`<div class="articleBody">SAN FRANCISCO—Emirates Team New
Zealand set ... <p>The Kiwis set the mark ...`), or in a `<span>` beside another that wraps the
rest of the story's `<p>`s. In precision mode trafilatura keeps the container's `<p>`s and drops
the bare text, so the story lost its opening. Where a container holds MIN_PARAGRAPHS `<p>`s or
more, each run of bare text and inline elements between its blocks (a `<br>` ends one too) that
reads as a sentence or more becomes a `<p>` of its own.

Others write the whole story as bare text, its paragraphs parted by blank lines (`<br><br>`):
trafilatura kept the runs that follow a `<br>` and dropped the first (phoronix.com's opening
paragraph, after a floated picture's box). A container with MIN_PARAGRAPHS blank lines or more
and more than MIN_PARAGRAPHS such runs has each run made a `<p>`, and the `<div>`s beside it
that read as paragraphs too: precision mode reads `<div>`s only where a page's `<p>` text is
short, and an msnbc.com story that writes its opening paragraph as a `<div>` lost it once the
rest were `<p>`s.
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.text import word_count
from sift_fetch.render.tree import holds_block

MIN_PARAGRAPHS = 2
# A run this long is a paragraph; a shorter one is a label, a separator or a stray word.
LOOSE_MIN_WORDS = 10
# The containers that may hold MIN_PARAGRAPHS `<p>`s or blank lines, found in C: reading the
# children of every `<div>` in Python cost more than the rest of this.
_CANDIDATES = etree.XPath(
    "(//article|//div|//section|//span)"
    f"[count(p) + count(span/p) >= {MIN_PARAGRAPHS} or br[{MIN_PARAGRAPHS}]]"
)
# What a <p> may hold (HTML's phrasing content, less what shows nothing of its own).
_INLINE = frozenset(
    {
        *("a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i"),
        *("kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u"),
        "var",
    }
)


def wrap_loose_text(tree: HtmlElement) -> None:
    """Make each long run of bare text in a container of `<p>`s a `<p>`."""
    for container in _CANDIDATES(tree):
        if _paragraphs(container) >= MIN_PARAGRAPHS:
            for owner, inline in _runs(container):
                _wrap(container, owner, inline)
        elif _blank_lines(container) >= MIN_PARAGRAPHS:
            runs = _runs(container)
            if len(runs) > MIN_PARAGRAPHS:  # a story's text, not a box of a line or two
                for owner, inline in runs:
                    _wrap(container, owner, inline)
                _read_div_paragraphs(container)


def _paragraphs(container: HtmlElement) -> int:
    """The container's `<p>`s, with those of a `<span>` it wraps a run of them in (an ASP.NET
    story's second part, `<span id="Para2">`, after its first, bare in a `<span id="Para1">`)."""
    count = 0
    for child in container:
        if child.tag == "p":
            count += 1
        elif child.tag == "span" and holds_block(child):
            count += sum(grandchild.tag == "p" for grandchild in child)
    return count


def _blank_lines(container: HtmlElement) -> int:
    """The container's blank lines, `<br><br>`: the breaks between paragraphs written as text."""
    count = 0
    for child in container:
        if child.tag == "br" and not (child.tail or "").strip():
            following = child.getnext()
            count += following is not None and following.tag == "br"
    return count


def _runs(container: HtmlElement) -> list[tuple[HtmlElement | None, list[HtmlElement]]]:
    """The container's long runs of bare text: (the block whose tail starts the run, or None
    for the container's own text; the inline elements in the run)."""
    runs = []
    owner: HtmlElement | None = None
    text, inline = container.text or "", []
    for child in container:
        if _inline(child):
            inline.append(child)
            text += " " + child.text_content() + " " + (child.tail or "")
            continue
        if word_count(text) >= LOOSE_MIN_WORDS:
            runs.append((owner, inline))
        owner, text, inline = child, child.tail or "", []
    if word_count(text) >= LOOSE_MIN_WORDS:
        runs.append((owner, inline))
    return runs


def _inline(element: HtmlElement) -> bool:
    """An inline element holding no block (a `<span>` a CMS wraps a table in is a block)."""
    return element.tag in _INLINE and not holds_block(element)


def _read_div_paragraphs(container: HtmlElement) -> None:
    """Make the `<div>`s beside the container that read as paragraphs (a sentence or more of
    inline content) `<p>`s."""
    parent = container.getparent()
    for sibling in parent if parent is not None else ():
        if sibling is container or sibling.tag != "div":
            continue
        if all(map(_inline, sibling)) and word_count(sibling.text_content()) >= LOOSE_MIN_WORDS:
            sibling.tag = "p"


def _wrap(container: HtmlElement, owner: HtmlElement | None, inline: list[HtmlElement]) -> None:
    paragraph = container.makeelement("p", {})
    if owner is None:
        paragraph.text, container.text = container.text, None
        container.insert(0, paragraph)
    else:
        paragraph.text, owner.tail = owner.tail, None
        owner.addnext(paragraph)
    paragraph.extend(inline)  # they follow it, in order: moved in with their tails
