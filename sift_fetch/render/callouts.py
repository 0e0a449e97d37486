"""A post's callouts, kept: a note, a warning or an update the author set apart in the text.

Static-site themes write a Markdown callout or admonition ("> [!NOTE]", "!!! warning") as
`<aside class="callout" role="note">`. trafilatura drops every `<aside>` as a sidebar, and with
it a security post's update notes and one of its sections (round 26's adnanthekhan.com, R 0.90).
An aside that says it is a note, by its role or its class, is the author's text, and is read
as a block of the post.
"""

from __future__ import annotations

import re

from lxml.html import HtmlElement

_CALLOUT_CLASS = re.compile(r"\b(?:callout|admonition)\b", re.I)


def keep_callouts(tree: HtmlElement) -> None:
    """Make every `<aside>` that is a note or a callout a `<div>`."""
    for aside in list(tree.iter("aside")):
        if aside.get("role") == "note" or _CALLOUT_CLASS.search(aside.get("class") or ""):
            aside.tag = "div"
