from __future__ import annotations

from sift_fetch.recent import Recent


def test_an_entry_is_served_until_it_expires() -> None:
    recent = Recent(1000)
    recent.put("k", b'{"a": 1}', expires_at=100.0)
    assert recent.get("k", 99.9) == b'{"a": 1}'
    assert recent.get("k", 100.0) is None
    assert recent.get("k", 50.0) is None  # an expired entry is gone, not only hidden


def test_the_least_recently_used_goes_first_over_the_budget() -> None:
    recent = Recent(30)
    for key in "abc":
        recent.put(key, key.encode() * 10, expires_at=100.0)
    assert recent.get("a", 0.0) == b"a" * 10  # a is now the most recently used
    recent.put("d", b"d" * 10, expires_at=100.0)
    assert [recent.get(key, 0.0) is not None for key in "abcd"] == [True, False, True, True]


def test_a_replaced_entry_counts_once() -> None:
    recent = Recent(25)
    recent.put("k", b"x" * 10, expires_at=100.0)
    recent.put("k", b"y" * 10, expires_at=200.0)
    recent.put("other", b"z" * 10, expires_at=100.0)
    assert recent.get("k", 150.0) == b"y" * 10
    assert recent.get("other", 0.0) == b"z" * 10


def test_an_entry_bigger_than_the_budget_is_not_kept() -> None:
    recent = Recent(10)
    recent.put("small", b"s", expires_at=100.0)
    recent.put("huge", b"h" * 11, expires_at=100.0)
    assert recent.get("huge", 0.0) is None
    assert recent.get("small", 0.0) == b"s"
