"""Hostile bodies get a 400 naming what is wrong (a 404 for a path), never a 500, on SQLite and
PostgreSQL alike: the cases found by hand, then a hypothesis fuzz of /v1/fetch and /v1/batch
bodies (structure, types, sizes, Unicode, control characters) and of the job paths.

Every fetch the fuzz can cause goes through the injected resolver (names that all resolve to
loopback) and the loopback-only connector, with the guard's test allowance of 127.0.0.1 and
the local site's port: a broken guard could at worst reach this machine, and the connector
fails the test before a socket to anything else exists.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from sift_fetch.target import MODES
from tests.api.conftest import NAMES
from tests.support.app import client_factory
from tests.support.config import auth
from tests.support.site import LocalSite, Reply

PAGE = (
    b"<html><head><title>Owls</title></head><body><article><h1>Owls</h1>"
    + (b"<p>Owls hunt at night. Their feathers are soft, so their flight is silent.</p>" * 20)
    + b"</article></body></html>"
)
PATHS = ["/page", "/data.json", "/notes.txt", "/gone", "/to-private", "/nowhere"]


@pytest.fixture
def fuzz_site() -> Iterator[LocalSite]:
    routes = {
        "/page": Reply(body=PAGE),
        "/data.json": Reply(body=b'{"a": [1, 2, {"b": "c"}]}', content_type="application/json"),
        "/notes.txt": Reply(body=b"alpha\nbeta\n\tgamma\n", content_type="text/plain"),
        "/gone": Reply(status=404, body=b"gone", content_type="text/plain"),
    }
    with LocalSite(routes) as site:
        site.routes["/to-private"] = Reply(
            status=302, headers={"Location": f"http://127.0.0.2:{site.port}/page"}
        )
        yield site


@pytest.fixture
def client(tmp_path: Path, fuzz_site: LocalSite, db_url: str) -> Iterator[TestClient]:
    """The app on DB_URL; batch caps out of the way (every valid submit makes a job, and no
    worker drains them) and a short program timeout (a fuzzed jq program may loop)."""
    with client_factory(tmp_path, [fuzz_site.port], NAMES) as make:
        yield make(
            store={"url": db_url},
            batch={"jobs_per_caller": 100_000, "jobs_total": 100_000},
            fetch={"program_timeout": 1.0},
        )


# The 5xx a fetch may end in because of the site, not because of Sift.
SITE_FAILURES = {(502, "upstream"), (502, "too_long"), (504, "timeout")}


def assert_answered(response: httpx.Response) -> dict[str, Any]:
    """A JSON envelope whatever the status, and a 5xx only for what the site did."""
    body = response.json()
    assert isinstance(body, dict) and isinstance(body["success"], bool), response.text
    if not body["success"]:
        kind = body["error"].split(":")[0]
        assert kind.isidentifier(), response.text
        if response.status_code >= 500:
            assert (response.status_code, kind) in SITE_FAILURES, response.text
    return body


def post(client: TestClient, path: str, body: bytes) -> httpx.Response:
    return client.post(path, content=body, headers=auth())


# --- the cases found by hand ------------------------------------------------------------------

DEEP = b"[" * 5000


@pytest.mark.parametrize("path", ["/v1/fetch", "/v1/batch"])
def test_deeply_nested_json_is_400(client: TestClient, path: str) -> None:
    answer = post(client, path, DEEP)
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_request: body is nested too deeply"


@pytest.mark.parametrize(
    ("target", "field"),
    [
        ({"url": "http://docs.sift-test.dev/\ud800"}, "url"),
        ({"url": "http://docs.sift-test.dev/\x00"}, "url"),
        ({"url": "http://docs.sift-test.dev/", "grep": "a\ud800"}, "grep"),
        ({"url": "http://docs.sift-test.dev/", "question": "\udfff why"}, "question"),
        ({"url": "http://docs.sift-test.dev/", "jq": ".a\ud83d"}, "jq"),
    ],
)
def test_lone_surrogates_and_nul_are_400_naming_the_field(
    client: TestClient, target: dict[str, str], field: str
) -> None:
    # ensure_ascii: the surrogate travels as the `\ud800` escape, as a hostile client sends it.
    fetch = post(client, "/v1/fetch", json.dumps(target).encode())
    assert fetch.status_code == 400, fetch.text
    assert fetch.json()["error"].startswith(f"bad_request: field {field} ")
    batch = post(client, "/v1/batch", json.dumps({"targets": [target]}).encode())
    assert batch.status_code == 400, batch.text
    assert batch.json()["error"].startswith(f"bad_request: field targets[0].{field} ")


def test_a_surrogate_in_a_field_name_is_400(client: TestClient) -> None:
    answer = post(client, "/v1/batch", b'{"targets": [], "\\ud800": 1}')
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_request: a field name is not valid Unicode"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/batch/%00"),
        ("GET", "/v1/batch/%00/0"),
        ("DELETE", "/v1/batch/%00"),
        ("GET", "/v1/batch/%ED%A0%80"),
        ("GET", "/v1/batch/" + "a" * 31 + "%00"),
    ],
)
def test_a_job_path_that_names_no_job_is_404(client: TestClient, method: str, path: str) -> None:
    answer = client.request(method, path, headers=auth())
    assert answer.status_code == 404
    assert answer.json()["error"] == "not_found: no such batch job"


# --- the fuzz ---------------------------------------------------------------------------------

# Every code point, surrogates and controls included, and the awkward ones often.
AWKWARD = ["\x00", "\ud800", "\udfff", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\u202e", "\ufeff"]
CHAR = st.one_of(st.characters(codec=None, exclude_categories=()), st.sampled_from(AWKWARD))
TEXT = st.one_of(
    st.text(CHAR, max_size=40),
    st.builds(lambda c, n: c * n, CHAR, st.integers(0, 5000)),  # sizes past every cap
)
# Floats include NaN and the infinities, which json.dumps writes as bare NaN and Infinity.
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), TEXT)
JSON = st.recursive(
    SCALAR,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


def _urls(port: int, *, good_only: bool = False) -> st.SearchStrategy[Any]:
    """URLs of the local site (GOOD_ONLY), or those and any other string or value."""
    good = st.builds(
        lambda host, path, query: f"http://{host}:{port}{path}{query}",
        st.sampled_from(["127.0.0.1", "docs.sift-test.dev", "DOCS.sift-test.dev."]),
        st.sampled_from(PATHS),
        st.one_of(st.just(""), st.text(st.characters(codec="ascii"), max_size=12).map("?".__add__)),
    )
    if good_only:
        return good
    hosts = [
        f"127.0.0.1:{port}",
        f"docs.sift-test.dev:{port}",
        "intranet.sift-test.dev",
        "127.0.0.2",
        "10.0.0.1",
        "[::1]",
        "0x7f.1",
        "例え.テスト",
        "xn--",
        "",
    ]
    chaos = st.builds(
        lambda scheme, host, path, tail: f"{scheme}://{host}{path}{tail}",
        st.sampled_from(["http", "https", "ftp", "HTTP", "javascript", ""]),
        st.sampled_from(hosts),
        st.sampled_from(PATHS),
        st.one_of(st.just(""), TEXT),
    )
    return st.one_of(good, good, chaos, TEXT, JSON)


def _targets(port: int) -> st.SearchStrategy[Any]:
    """Well-formed targets of the local site (so fetches, renders and programs really run) with
    awkward text in their programs, and targets with anything in any field."""
    programs = {
        "question": st.sampled_from(["When do owls hunt?", "owl\tflight?", "??"]),
        "pages": st.sampled_from(["1", "1-3,7", "2-", "0", "1-", "9999999999"]),
        "grep": st.sampled_from(["owl", "^al", "(?i)OWLS", "a{1000}", "(", "\\"]),
        "jq": st.sampled_from([".a", ".a[2].b", "[.[] | .]", "..", "def f: f; f", "."]),
    }
    well_formed = st.fixed_dictionaries(
        {"url": _urls(port, good_only=True)},
        optional={
            "mode": st.sampled_from(MODES),
            **{name: st.one_of(valid, valid, TEXT) for name, valid in programs.items()},
            "context": st.booleans(),
            "recover": st.booleans(),
        },
    )
    anything = st.fixed_dictionaries(
        {"url": _urls(port)},
        optional={name: JSON for name in ("mode", *programs, "context", "recover", "colour")},
    )
    return st.one_of(well_formed, well_formed, well_formed, anything, JSON)


def _raw(bodies: st.SearchStrategy[Any]) -> st.SearchStrategy[bytes]:
    """Bodies as sent: JSON (surrogates as escapes), mangled JSON, bytes, deep nesting."""
    encoded = bodies.map(lambda b: json.dumps(b).encode())
    return st.one_of(
        encoded,
        encoded,
        st.tuples(encoded, st.integers(0, 64)).map(lambda t: t[0][: len(t[0]) - t[1]]),
        st.binary(max_size=64),
        st.integers(1, 20_000).map(lambda n: b"[" * n + b"]" * (n % 3)),
        st.integers(1, 5_000).map(lambda n: b'{"url":' * n),
    )


def _fuzz(client: TestClient, path: str, bodies: st.SearchStrategy[bytes], examples: int) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(bodies)
    def run(body: bytes) -> None:
        assert_answered(post(client, path, body))

    run()


EXAMPLES = [pytest.param(150, id="quick"), pytest.param(2000, id="long", marks=pytest.mark.slow)]


@pytest.mark.parametrize("examples", EXAMPLES)
def test_fuzzed_fetch_bodies_never_5xx(
    client: TestClient, fuzz_site: LocalSite, examples: int
) -> None:
    _fuzz(client, "/v1/fetch", _raw(_targets(fuzz_site.port)), examples)


@pytest.mark.parametrize("examples", EXAMPLES)
def test_fuzzed_batch_bodies_never_5xx(
    client: TestClient, fuzz_site: LocalSite, examples: int
) -> None:
    targets = _targets(fuzz_site.port)
    bodies = st.one_of(
        st.fixed_dictionaries(
            {"targets": st.lists(targets, max_size=5)}, optional={"priority": JSON}
        ),
        st.fixed_dictionaries({"targets": JSON}),
        JSON,
    )
    _fuzz(client, "/v1/batch", _raw(bodies), examples)


@pytest.mark.parametrize("examples", EXAMPLES)
def test_fuzzed_job_paths_never_5xx(client: TestClient, examples: int) -> None:
    # Short enough to stay under httpx's own cap on a URL's length once percent-encoded.
    part = st.one_of(st.text(CHAR, max_size=40), st.integers(0, 2000).map(lambda n: "7" * n))

    @settings(max_examples=examples, deadline=None)
    @given(part, st.one_of(st.none(), part), st.sampled_from(["GET", "DELETE"]))
    def run(job_id: str, idx: str | None, method: str) -> None:
        path = "/v1/batch/" + quote(job_id.encode("utf-8", "surrogatepass"), safe="")
        if idx is not None:
            method, path = "GET", path + "/" + quote(idx.encode("utf-8", "surrogatepass"), safe="")
        answer = client.request(method, path, headers=auth(), follow_redirects=False)
        # A path with a trailing slash is redirected without it (Starlette's routing).
        assert answer.status_code in (307, 404, 405), answer.text
        if answer.status_code == 404:
            assert_answered(answer)

    run()
