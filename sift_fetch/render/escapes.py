"""Backslash escapes that change nothing a Markdown reader sees, taken out of clean text.

trafilatura's serializer escapes every `_` in prose, so `target_host` comes out as
`target\\_host`: an identifier an agent copies wrong, and, to a reader that splits text into
words (a search index, a 4-gram scorer), two words where the page has one. In CommonMark a run of
underscores inside a word, or between spaces, can neither open nor close emphasis (it is not
left- or right-flanking the way `_` needs), so the escape there is noise and goes; every other
escape stays, as does everything inside a code span.
"""

from __future__ import annotations

import re

# A code span, kept as it is (its backslashes are the page's own), or escaped underscores
# between two letters or digits, or alone between spaces or line ends.
_SPAN_OR_NEEDLESS = re.compile(
    r"(`+).+?\1|(?<=[^\W_])(?:\\_)+(?=[^\W_])|(?:(?<=\s)|^)(?:\\_)+(?=\s|$)", re.M | re.S
)


def drop_needless_escapes(markdown: str) -> str:
    """MARKDOWN with the underscores CommonMark reads literally anyway unescaped."""
    if "\\_" not in markdown:
        return markdown
    return _SPAN_OR_NEEDLESS.sub(_unescape, markdown)


def _unescape(match: re.Match[str]) -> str:
    return match.group() if match.group(1) else match.group().replace("\\", "")
