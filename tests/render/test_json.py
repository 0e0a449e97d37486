"""JSON through real jq: outputs, errors, exploding output, and what a program must not reach."""

from __future__ import annotations

import json

import pytest

from sift_fetch.errors import BadRequest, Unsupported
from sift_fetch.render import render
from sift_fetch.target import Target
from tests.render.conftest import make_doc

URL = "https://api.example.com/v1/releases"
RELEASES = {
    "project": "sift",
    "releases": [
        {"version": "1.0.0", "date": "2024-01-10", "notes": "first release", "downloads": 120},
        {"version": "1.1.0", "date": "2024-03-02", "notes": "grep and jq", "downloads": 340},
        {"version": "2.0.0", "date": "2024-06-21", "notes": "batch mode", "downloads": 910},
    ],
}


def _json(value: object = RELEASES, content_type: str = "application/json") -> object:
    return make_doc(json.dumps(value), content_type, URL)


def test_without_jq_the_document_is_pretty_printed() -> None:
    out = render(_json(), Target(URL), 60_000)
    assert json.loads(out.content) == RELEASES
    assert '\n  "project": "sift",' in out.content


def test_a_single_result_is_pretty_printed() -> None:
    out = render(_json(), Target(URL, jq=".releases[-1]"), 60_000)
    assert json.loads(out.content) == RELEASES["releases"][-1]
    assert out.content.startswith('{\n  "version": "2.0.0"')


def test_several_results_are_one_compact_value_per_line() -> None:
    out = render(_json(), Target(URL, jq=".releases[] | {version, downloads}"), 60_000)
    assert out.content.splitlines() == [
        '{"version":"1.0.0","downloads":120}',
        '{"version":"1.1.0","downloads":340}',
        '{"version":"2.0.0","downloads":910}',
    ]


def test_jq_then_grep() -> None:
    out = render(_json(), Target(URL, jq=".releases[].notes", grep="jq"), 60_000)
    assert out.content == '2: "grep and jq"'


def test_structured_suffix_types_are_json() -> None:
    out = render(_json(content_type="application/vnd.api+json"), Target(URL, jq=".project"), 1000)
    assert out.content == '"sift"'


def test_compile_error_is_a_bad_request_naming_it() -> None:
    with pytest.raises(BadRequest) as caught:
        render(_json(), Target(URL, jq=".releases[ | bad"), 1000)
    assert "jq program does not compile" in caught.value.message
    assert "syntax error" in caught.value.message
    assert "def env" not in caught.value.message  # the wrapper stays out of sight


def test_runtime_error_is_a_bad_request() -> None:
    with pytest.raises(BadRequest) as caught:
        render(_json(), Target(URL, jq=".project.name"), 1000)
    assert caught.value.message.startswith("bad_request: jq error: Cannot index string")


def test_body_that_is_not_json_cannot_be_queried() -> None:
    with pytest.raises(Unsupported) as caught:
        render(make_doc("{not json", "application/json", URL), Target(URL, jq="."), 1000)
    assert "not valid JSON" in caught.value.message


def test_body_that_is_not_json_is_still_shown_without_jq() -> None:
    out = render(make_doc('{"a": 1}\n{"a": 2}\n', "application/x-ndjson", URL), Target(URL), 100)
    assert out.content == '{"a": 1}\n{"a": 2}\n'


def test_ndjson_feeds_every_value_to_jq() -> None:
    out = render(
        make_doc('{"a": 1}\n{"a": 2}\n', "application/x-ndjson", URL), Target(URL, jq=".a"), 100
    )
    assert out.content == "1\n2"


@pytest.mark.parametrize("program", ["repeat(1)", "range(1e12)", 'repeat("spam" * 1000)'])
def test_exploding_output_is_cut_at_the_budget(program: str) -> None:
    out = render(_json(), Target(URL, jq=program), 5_000)
    assert out.truncated is True
    assert 0 < len(out.content) <= 5_000


@pytest.mark.parametrize("program", ["$ENV", "env", "$ENV.PATH", "env | keys"])
def test_programs_cannot_read_the_environment(program: str) -> None:
    out = render(_json(), Target(URL, jq=program), 1000)
    assert out.content in ("{}", "null", "[]")


def test_module_directives_are_refused() -> None:
    with pytest.raises(BadRequest) as caught:
        render(_json(), Target(URL, jq='import "/etc/passwd" as $p; .'), 1000)
    assert "import/include" in caught.value.message


def test_debug_output_stays_out_of_the_worker_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    out = render(_json(), Target(URL, jq=".project | debug | stderr"), 1000)
    assert out.content == '"sift"'
    assert capfd.readouterr().err == ""


def test_deeply_nested_json_is_refused_cleanly() -> None:
    doc = make_doc("[" * 20_000 + "]" * 20_000, "application/json", URL)
    with pytest.raises(Unsupported):
        render(doc, Target(URL, jq="."), 1000)
    assert render(doc, Target(URL), 50).content.startswith("[[[")  # shown as text instead


def test_raw_mode_returns_the_body_as_sent() -> None:
    body = '{"b":1,  "a":[2]}'
    assert (
        render(make_doc(body, "application/json", URL), Target(URL, mode="raw"), 100).content
        == body
    )
