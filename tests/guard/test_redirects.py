"""Redirects are followed by us, each hop pre-checked and connect-checked again."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from sift_fetch.errors import Blocked, UpstreamFailed
from tests.guard.conftest import OUTSIDE, MakeClient
from tests.support.net import LOOPBACK, Connector, Resolver
from tests.support.site import LocalSite, Reply

pytestmark = pytest.mark.anyio


# One server for the module (its shutdown is slow); each test routes fresh paths, so
# counts never mix.
@pytest.fixture(scope="module")
def site() -> Iterator[LocalSite]:
    with LocalSite({"/final": Reply(body=b"landed", content_type="text/plain")}) as s:
        yield s


_paths = itertools.count()


def redirect(site: LocalSite, location: str, status: int = 302) -> str:
    path = f"/go/{next(_paths)}"
    site.routes[path] = Reply(status=status, headers={"Location": location})
    return site.url(path)


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_redirects_are_followed(
    site: LocalSite, make_client: MakeClient, connector: Connector, status: int
) -> None:
    url = redirect(site, "/final", status)
    fetched = await make_client(site.port).fetch(url, timeout=5)
    assert (fetched.status, fetched.body) == (200, b"landed")
    assert (fetched.url, fetched.final_url) == (url, site.url("/final"))
    assert {ip for ip, _ in connector.calls} == {LOOPBACK}


async def test_locations_resolve_against_the_current_url(
    site: LocalSite, make_client: MakeClient
) -> None:
    site.routes["/a/b"] = Reply(status=302, headers={"Location": "../final?x=1"})
    fetched = await make_client(site.port).fetch(site.url("/a/b"), timeout=5)
    assert fetched.final_url == site.url("/final?x=1")


async def test_a_redirect_without_location_is_the_answer(
    site: LocalSite, make_client: MakeClient
) -> None:
    site.routes["/odd"] = Reply(status=302, body=b"no location")
    fetched = await make_client(site.port).fetch(site.url("/odd"), timeout=5)
    assert (fetched.status, fetched.body) == (302, b"no location")


@pytest.mark.parametrize(
    "location",
    [
        "http://127.0.0.2:{port}/final",  # loopback outside the allowance
        "http://0x7f000002:{port}/final",
        "http://127.2:{port}/final",
        "http://10.0.0.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]:{port}/",
        "http://[::ffff:10.0.0.1]/",
        "http://[fd00:ec2::254]/",
        "http://metadata.google.internal/",
        "http://localhost:{port}/final",
        "http://good.com@127.0.0.1:{port}/final",
        "http://127.0.0.1:22/",  # a port outside the allowance
        "file:///etc/passwd",
        "gopher://127.0.0.1:{port}/",
    ],
)
async def test_a_redirect_to_a_refused_target_is_refused_at_the_hop(
    site: LocalSite, make_client: MakeClient, connector: Connector, location: str
) -> None:
    url = redirect(site, location.format(port=site.port))
    with pytest.raises(Blocked, match=r"^redirect refused: "):
        await make_client(site.port).fetch(url, timeout=5)
    assert connector.calls == [(LOOPBACK, site.port)]  # the first hop only


async def test_a_redirect_to_a_private_name_is_refused_at_connect(
    site: LocalSite, make_client: MakeClient, connector: Connector
) -> None:
    resolver = Resolver({"intranet.sift-test.dev": [OUTSIDE]})
    url = redirect(site, site.url("/final", host="intranet.sift-test.dev"))
    with pytest.raises(Blocked, match="resolves to a non-public address"):
        await make_client(site.port, resolver=resolver).fetch(url, timeout=5)
    assert resolver.calls == ["intranet.sift-test.dev"]
    assert connector.calls == [(LOOPBACK, site.port)]


async def test_the_redirect_limit(site: LocalSite, make_client: MakeClient) -> None:
    site.routes["/loop"] = Reply(status=302, headers={"Location": "/loop"})
    before = site.count("/loop")
    with pytest.raises(UpstreamFailed, match="more than 3 redirects"):
        await make_client(site.port, max_redirects=3).fetch(site.url("/loop"), timeout=5)
    assert site.count("/loop") - before == 4
    with pytest.raises(UpstreamFailed, match="more than 0 redirects"):
        await make_client(site.port, max_redirects=0).fetch(site.url("/loop"), timeout=5)
