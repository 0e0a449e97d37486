"""What `sift batch submit` accepts as its targets file."""

from __future__ import annotations

import pytest

from sift_cli.exits import USAGE, CliError
from sift_cli.targets_file import parse_targets


def test_one_url_per_line_skips_blanks_and_comments() -> None:
    text = "# reading list\nhttps://a.example/one\n\n  https://b.example/two  \n"
    assert parse_targets(text) == [
        {"url": "https://a.example/one"},
        {"url": "https://b.example/two"},
    ]


def test_json_list_and_object_forms() -> None:
    listed = '[{"url": "https://a.example/", "grep": "x"}, "https://b.example/"]'
    assert parse_targets(listed) == [
        {"url": "https://a.example/", "grep": "x"},
        {"url": "https://b.example/"},
    ]
    wrapped = '{"targets": [{"url": "https://a.example/", "pages": "1-2"}]}'
    assert parse_targets(wrapped) == [{"url": "https://a.example/", "pages": "1-2"}]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "no targets"),
        ("  \n# only a comment\n", "no targets"),
        ("[]", "no targets"),
        ("[{]", "not valid JSON"),
        ('{"urls": []}', '{"targets": [...]}'),
        ('{"targets": {"url": "x"}}', "JSON list"),
    ],
)
def test_bad_files_are_usage_errors(text: str, needle: str) -> None:
    with pytest.raises(CliError) as caught:
        parse_targets(text, "t.json")
    assert caught.value.code == USAGE and needle in caught.value.message
