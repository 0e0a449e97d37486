"""`pages` specs: examples for every rule, and properties over the whole input space."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sift_fetch.errors import BadRequest
from sift_fetch.pages import MAX_PAGE, MAX_SELECTED, parse_pages, validate_pages


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("1-3,7", [1, 2, 3, 7]),
        ("7, 2 - 3 ,1", [1, 2, 3, 7]),
        ("5,5,4-6", [4, 5, 6]),
        ("10", [10]),
    ],
)
def test_specs_parse_to_sorted_unique_pages(spec: str, expected: list[int]) -> None:
    assert parse_pages(spec) == expected


def test_open_range_runs_to_the_last_page() -> None:
    assert parse_pages("4-", max_page=6) == [4, 5, 6]


def test_pages_past_the_end_are_dropped() -> None:
    assert parse_pages("1-10,40", max_page=8) == list(range(1, 9))


@pytest.mark.parametrize(
    ("spec", "max_page", "words"),
    [
        ("", None, "empty"),
        ("1,,2", None, "empty item"),
        ("0", None, "start at 1"),
        ("3-1", None, "backwards"),
        ("a-b", None, "not a page"),
        ("1-2-3", None, "not a page"),
        ("1-2000", None, "at most 1000"),
        ("999999", None, "largest supported"),
        ("12345678901", None, "not a page"),
        ("5-", None, "page count"),
        ("9,12-", 8, "8 pages"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, max_page: int | None, words: str) -> None:
    with pytest.raises(BadRequest) as caught:
        parse_pages(spec, max_page)
    assert words in caught.value.message
    assert caught.value.message.startswith("bad_request: pages:")


def test_validate_accepts_open_ranges_and_rejects_garbage() -> None:
    validate_pages("1-3,10-")
    with pytest.raises(BadRequest):
        validate_pages("1-3;7")


def _spec(pages: set[int], draw_ranges: list[bool]) -> str:
    """Render a page set as a spec, merging runs into ranges where the draw says so."""
    ordered = sorted(pages)
    items: list[str] = []
    start = prev = ordered[0]
    for page, merge in zip([*ordered[1:], None], draw_ranges, strict=False):
        if page is not None and page == prev + 1 and merge:
            prev = page
            continue
        items.append(str(start) if start == prev else f"{start}-{prev}")
        if page is not None:
            start = prev = page
    return ",".join(items)


@given(
    st.sets(st.integers(1, MAX_PAGE), min_size=1, max_size=60),
    st.lists(st.booleans(), min_size=60, max_size=60),
    st.randoms(use_true_random=False),
)
def test_any_page_set_round_trips(pages: set[int], merges: list[bool], rnd) -> None:  # type: ignore[no-untyped-def]
    spec = _spec(pages, merges)
    items = spec.split(",")
    rnd.shuffle(items)  # order does not matter
    assert parse_pages(",".join(items)) == sorted(pages)
    validate_pages(spec)


@given(st.integers(1, MAX_PAGE), st.integers(0, 3 * MAX_SELECTED))
def test_range_sizes_are_capped(first: int, length: int) -> None:
    last = first + length - 1
    spec = f"{first}-{last}"
    if last > MAX_PAGE or length > MAX_SELECTED or length == 0:  # 0: a backwards range
        with pytest.raises(BadRequest):
            parse_pages(spec)
    else:
        assert parse_pages(spec) == list(range(first, last + 1))


@given(st.text(max_size=60), st.one_of(st.none(), st.integers(1, 5000)))
def test_garbage_only_ever_raises_bad_request(spec: str, max_page: int | None) -> None:
    try:
        pages = parse_pages(spec, max_page)
    except BadRequest:
        return
    assert pages == sorted(set(pages))
    assert 1 <= len(pages) <= MAX_SELECTED
    assert all(1 <= p <= (max_page or MAX_PAGE) for p in pages)


@given(st.text(alphabet="0123456789-, ", max_size=30))
def test_validate_and_parse_agree_on_syntax(spec: str) -> None:
    try:
        validate_pages(spec)
        valid = True
    except BadRequest:
        valid = False
    if not valid:
        with pytest.raises(BadRequest):
            parse_pages(spec, max_page=MAX_PAGE)
