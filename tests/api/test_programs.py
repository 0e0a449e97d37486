"""Runaway agent programs end with a clear error while the server keeps serving others."""

from __future__ import annotations

import concurrent.futures

from starlette.testclient import TestClient

from tests.api.conftest import MakeClient
from tests.support.config import auth
from tests.support.site import LocalSite


def test_runaway_jq_is_400_and_others_are_served(make_client: MakeClient, site: LocalSite) -> None:
    client: TestClient = make_client(fetch={"program_timeout": 2.0, "render_workers": 2})
    runaway = {"url": site.url("/data.json"), "jq": "def f: f; f"}
    normal = {"url": site.url("/article")}
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        slow = ex.submit(client.post, "/v1/fetch", json=runaway, headers=auth())
        served = [client.post("/v1/fetch", json=normal, headers=auth("bob")) for _ in range(3)]
        bad = slow.result(timeout=60)
    assert all(r.status_code == 200 for r in served)
    assert bad.status_code == 400
    assert "jq" in bad.json()["error"] and bad.json()["hint"] == "fix_request"
    # The pool replaced the killed process and still works.
    again = client.post("/v1/fetch", json={**normal, "grep": "keeper"}, headers=auth())
    assert again.status_code == 200


def test_regex_outside_re2_is_400(client: TestClient, site: LocalSite) -> None:
    r = client.post(
        "/v1/fetch", json={"url": site.url("/notes.txt"), "grep": r"(a)\1"}, headers=auth()
    )
    assert r.status_code == 400 and "grep" in r.json()["error"].lower()
    catastrophic = client.post(
        "/v1/fetch", json={"url": site.url("/notes.txt"), "grep": "(a+)+$"}, headers=auth()
    )
    assert catastrophic.status_code == 200  # RE2 runs it in linear time
