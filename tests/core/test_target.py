import pytest

from sift_fetch.errors import BadRequest
from sift_fetch.target import Target, parse_target


def test_defaults_and_all_fields() -> None:
    assert parse_target({"url": " https://example.com/ "}) == Target("https://example.com/")
    full = parse_target(
        {
            "url": "https://example.com/a.pdf",
            "mode": "full",
            "question": "what?",
            "pages": "1-3,7",
            "grep": "foo",
            "jq": ".a",
            "context": True,
            "recover": True,
        }
    )
    assert full.mode == "full" and full.pages == "1-3,7" and full.context and full.recover
    # Every field but the URL, so a new field can never be left out of cache keys.
    assert full.options() == {
        name: getattr(full, name) for name in Target.__dataclass_fields__ if name != "url"
    }
    assert Target(**{"url": full.url, **full.options()}) == full


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ([], "body must be a JSON object"),
        ({}, "field url must be a non-empty string"),
        ({"url": 5}, "field url must be a non-empty string"),
        ({"url": "http://a", "bogus": 1}, "unknown field bogus"),
        ({"url": "http://a", "mode": "pretty"}, "field mode must be one of clean, full, raw"),
        ({"url": "http://a", "grep": ""}, "field grep must be a non-empty string"),
        ({"url": "http://a", "jq": 3}, "field jq must be a non-empty string"),
        ({"url": "http://a", "context": "yes"}, "field context must be true or false"),
        ({"url": "http://a", "question": "x" * 5000}, "field question is longer than"),
        ({"url": "http://a/" + "x" * 5000}, "field url is longer than"),
        ({"url": "http://a/\ud800"}, "field url is not valid Unicode"),
        ({"url": "http://a/\x00"}, "field url must not contain control characters"),
        ({"url": "http://a/b\nc"}, "field url must not contain control characters"),
        ({"url": "http://a/\x7f"}, "field url must not contain control characters"),
        ({"url": "http://a", "grep": "a\udfffb"}, "field grep is not valid Unicode"),
        ({"url": "http://a", "question": "\ud800?"}, "field question is not valid Unicode"),
        ({"url": "http://a", "jq": ".a\ud83d"}, "field jq is not valid Unicode"),
        ({"url": "http://a", "pages": "\ud800"}, "field pages is not valid Unicode"),
        ({"url": "http://a", "grep": "a\x00"}, "field grep must not contain control characters"),
        ({"url": "http://a", "\ud800": 1}, "unknown field (a name that is not Unicode)"),
    ],
)
def test_bad_fields_are_named(body: object, message: str) -> None:
    with pytest.raises(BadRequest) as err:
        parse_target(body)
    assert message in err.value.message
    assert err.value.http_status == 400


def test_where_prefixes_batch_fields() -> None:
    with pytest.raises(BadRequest, match=r"targets\[3\]\.mode"):
        parse_target({"url": "http://a", "mode": 1}, where="targets[3].")


def test_programs_keep_tabs_and_newlines_and_any_real_unicode() -> None:
    target = parse_target(
        {"url": "https://例え.jp/ä?q=☃", "jq": ".a |\n\t.b", "question": "why 🦉?\r\n"}
    )
    assert target.jq == ".a |\n\t.b" and target.question == "why 🦉?\r\n"
