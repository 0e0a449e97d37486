"""Clean mode keeps one copy of a passage a page writes twice, and a paragraph said twice."""

from __future__ import annotations

from sift_fetch.render.repeats import drop_repeated_passage

PROSE = "The museum opened in 2016 on the National Mall, after a century of campaigning for it."
BIBLE = "Nat Turner carried this Bible with him when he was captured in 1831, its donor said."
JACKET = "The jacket was worn by Marian Anderson at her concert at the Lincoln Memorial in 1939."


def _blocks(*blocks: str) -> list[str]:
    return drop_repeated_passage("\n\n".join(blocks)).split("\n\n")


def test_a_passage_written_twice_keeps_its_first_copy() -> None:
    # The wide-screen copy, then the phone copy: two paragraphs said again.
    closing = "Additional editing and production by the graphics desk, and sources as noted."
    page = _blocks(PROSE, BIBLE, JACKET, "## Upper Galleries", BIBLE, JACKET, closing)
    assert page == [PROSE, BIBLE, JACKET, "## Upper Galleries", closing]


def test_one_paragraph_said_twice_and_short_lines_stay() -> None:
    page = [PROSE, BIBLE, JACKET, BIBLE, "Read more", "Read more"]
    assert _blocks(*page) == page
    headings = [PROSE, "## History Galleries", BIBLE, "## History Galleries", JACKET]
    assert _blocks(*headings) == headings
