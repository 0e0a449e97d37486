"""Word counts, as the render rules read them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sift_fetch.render.text import word_count, words_at_most

# Letters, digits, the underscore and what parts words: spaces, punctuation, dashes, quotes.
_TEXT = st.text(alphabet=st.sampled_from("ab_9é \n.,-\u2014\u201c'!"), max_size=80)


@given(_TEXT, st.integers(min_value=0, max_value=30))
def test_bounded_count_agrees_with_the_full_count(text: str, limit: int) -> None:
    assert words_at_most(text, limit) == (word_count(text) <= limit)


def test_bounded_count_splits_no_word_to_reach_its_bound() -> None:
    assert words_at_most("abcdef", 1)
    assert not words_at_most("abc def", 1)
    assert words_at_most("", 0)
    assert not words_at_most("—x—", 0)
