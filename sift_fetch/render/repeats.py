"""A passage a page writes twice, kept once.

Some pages write their text twice, once for wide screens and once for phones, and let a
stylesheet show one (NYT's interactive features: each portrait in a `g-desktop-only` and a
`g-mobile-only` block); trafilatura reads both, and the article came back with every portrait
twice (round 38, P 0.634). When REPEATS_MIN paragraphs or more are said again, the second copies
go. A single paragraph said twice stays: on the article pages the gold text had it twice more
often than once (a site's slip, an event's details given again; once, a pull quote).
"""

from __future__ import annotations

from sift_fetch.render.text import split_blocks

# Paragraphs this long, this many of them, said again are a copy of the text; shorter lines
# ("Read more", a label) recur on their own.
REPEAT_MIN_WORDS = 8
REPEATS_MIN = 2


def drop_repeated_passage(markdown: str) -> str:
    """MARKDOWN without the second copy of each paragraph, where two or more are said again."""
    blocks = split_blocks(markdown)
    seen: set[str] = set()
    repeats: set[int] = set()
    for i, block in enumerate(blocks):
        # The copies are written alike, so the block's text is the key: splitting at spaces,
        # not reading words, keeps this a small part of the trimming.
        key = block.strip()
        if (
            key.startswith(("#", "```"))
            or len(key.split(None, REPEAT_MIN_WORDS)) < REPEAT_MIN_WORDS
        ):
            continue
        if key in seen:
            repeats.add(i)
        seen.add(key)
    if len(repeats) < REPEATS_MIN:
        return markdown
    return "\n\n".join(block for i, block in enumerate(blocks) if i not in repeats)
