"""Escapes that CommonMark does not need come out of clean text; the others stay."""

from __future__ import annotations

import pytest

from sift_fetch.render.escapes import drop_needless_escapes


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("target\\_host", "target_host"),
        ("find\\_element\\_by\\_name(x)", "find_element_by_name(x)"),
        ("Été\\_2024", "Été_2024"),
        ("a \\_\\_\\_ blank", "a ___ blank"),
        ("\\_\\_\\_\\_", "____"),
        # Flanking a word on one side only: could open or close emphasis, so kept.
        ("\\_\\_init\\_\\_", "\\_\\_init\\_\\_"),
        ("\\_lead and trail\\_", "\\_lead and trail\\_"),
        ("snake\\_ case", "snake\\_ case"),
        # Only underscores: a star inside a word can still open emphasis.
        ("a\\*b\\*c", "a\\*b\\*c"),
        # A code span is verbatim: its backslash is the page's own.
        ("use `a\\_b` or a\\_b", "use `a\\_b` or a_b"),
        ("``x\\_y ` z`` then p\\_q", "``x\\_y ` z`` then p_q"),
        ("no escapes here", "no escapes here"),
    ],
)
def test_needless_underscore_escapes_go(markdown: str, expected: str) -> None:
    assert drop_needless_escapes(markdown) == expected
