"""Cache keys: equal inputs share a key, and any difference (caller class, URL, any option)
gives another, so one caller class can never be served another's cached answer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sift_fetch.callers import Caller
from sift_fetch.pipeline import cache_key
from sift_fetch.target import MODES, Target

text = st.none() | st.text(min_size=1, max_size=20)
targets = st.builds(
    Target,
    url=st.just("https://example.com/"),
    mode=st.sampled_from(MODES),
    question=text,
    pages=text,
    grep=text,
    jq=text,
    context=st.booleans(),
    recover=st.booleans(),
)
callers = st.builds(
    Caller, name=st.text(max_size=5), cls=st.sampled_from(["standard", "restricted"])
)
urls = st.sampled_from(["https://example.com/", "https://example.com/a", "http://example.com/"])


@given(callers, urls, targets, callers, urls, targets)
def test_keys_differ_exactly_when_inputs_differ(c1, u1, t1, c2, u2, t2) -> None:  # type: ignore[no-untyped-def]
    same = (c1.cls, u1, t1.options()) == (c2.cls, u2, t2.options())
    assert (cache_key(c1, u1, t1) == cache_key(c2, u2, t2)) == same


@given(callers, urls, targets)
def test_key_is_stable_and_ignores_the_callers_name(caller, url, target) -> None:  # type: ignore[no-untyped-def]
    twin = Caller(name=caller.name + "x", cls=caller.cls)
    assert cache_key(caller, url, target) == cache_key(twin, url, target)
    assert len(cache_key(caller, url, target)) == 64


def test_separator_cannot_be_forged() -> None:
    # A question containing the separator must not collide with another field split.
    a = Target("https://example.com/", question="x\0y")
    b = Target("https://example.com/", question="x", grep="y")
    caller = Caller("a", "standard")
    assert cache_key(caller, a.url, a) != cache_key(caller, b.url, b)
