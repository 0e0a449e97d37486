"""Code blocks set in a `<figure>`, or written one `<div>` a line, are read as code blocks.

Jekyll's highlighter writes `<figure class="highlight"><pre><code>`, and Expressive Code (Astro,
Starlight) a `<figure>` with the file's name as its caption and each line of the listing a
`<div class="ec-line">`, its number in an `aria-hidden` gutter. trafilatura drops every
`<figure>`, so the listing went with it; and a `<pre>` whose lines are elements, not text with
line breaks, came out as one run of inline code. Here the listing leaves its figure (the
caption, a file name, stays behind and goes with it) and each line element ends in a line break.
A diagram's source (`<pre class="mermaid">`) is a picture a script draws, and stays in its figure.
"""

from __future__ import annotations

from lxml.html import HtmlElement


def read_code_figures(tree: HtmlElement, html: str) -> None:
    """Move each `<pre>` that is its figure's one listing out in its place, its lines broken."""
    if "<pre" not in html:
        return
    if "<figure" in html:
        for figure in list(tree.iter("figure")):
            listings = list(figure.iter("pre"))
            if len(listings) == 1 and "mermaid" not in (listings[0].get("class") or ""):
                _unwrap(figure, listings[0])
    for listing in tree.iter("pre"):
        _break_lines(listing)


def _unwrap(figure: HtmlElement, listing: HtmlElement) -> None:
    listing.tail = None
    figure.addprevious(listing)
    figure.drop_tree()  # its tail, the text after it, stays


def _break_lines(listing: HtmlElement) -> None:
    code = next(listing.iter("code"), listing)
    lines = [child for child in code if child.tag == "div"]
    if not lines:
        return
    for hidden in [el for el in code.iter() if el.get("aria-hidden") == "true"]:
        hidden.drop_tree()  # a line's number in the gutter
    for line in lines[:-1]:
        line.tail = "\n" + (line.tail or "")
