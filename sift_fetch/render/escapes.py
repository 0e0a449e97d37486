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

# Escaped underscores between two letters or digits, or alone between spaces or line ends.
_NEEDLESS = re.compile(r"(?<=[^\W_])(?:\\_)+(?=[^\W_])|(?:(?<=\s)|^)(?:\\_)+(?=\s|$)", re.M)
# Code spans are verbatim: a backslash there is the page's own.
_CODE_SPAN = re.compile(r"(`+).+?\1", re.S)


def drop_needless_escapes(markdown: str) -> str:
    """MARKDOWN with the underscores CommonMark reads literally anyway unescaped."""
    if "\\_" not in markdown:
        return markdown
    out: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(markdown):
        out.append(_unescape(markdown[last : match.start()]))
        out.append(match.group())
        last = match.end()
    out.append(_unescape(markdown[last:]))
    return "".join(out)


def _unescape(text: str) -> str:
    return _NEEDLESS.sub(lambda match: match.group().replace("\\", ""), text)
