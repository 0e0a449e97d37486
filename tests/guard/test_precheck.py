"""The pre-check, bypass family by bypass family. No network: precheck never touches it."""

from __future__ import annotations

import ipaddress

import httpx
import pytest

from sift_fetch.errors import Blocked
from sift_fetch.guard import CheckedURL, Policy, precheck

NO_ALLOWANCE = Policy()


def refused(url: str, policy: Policy = NO_ALLOWANCE) -> str:
    with pytest.raises(Blocked) as info:
        precheck(url, policy)
    return info.value.detail


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://2130706433/",  # decimal
        "http://017700000001/",  # octal
        "http://0177.0.0.1/",
        "http://0x7f000001/",  # hex
        "http://0x7f.1/",
        "http://127.1/",  # short
        "http://127.0.1/",
        "http://0x7f.0.0.01/",  # mixed
        "http://0177.0x0.1/",
        "http://127.0.0.1./",  # trailing dot
        "http://%31%32%37.0.0.1/",  # percent-encoded
        "http://\uff11\uff12\uff17.0.0.1/",  # fullwidth digits (UTS #46 maps them)
        "http://127\u30020\u30020\u30021/",  # ideographic full stops
        "http://127\uff0e0\uff0e0\uff0e1/",  # fullwidth full stops
        "http://127\uff610\uff610\uff611/",  # halfwidth ideographic full stops
        "http://10.0.0.1/",
        "http://012.1/",
        "http://192.168.0.1/",
        "http://0xc0a80001/",
        "http://172.16.0.1/",
        "http://100.64.0.1/",
        "http://198.18.0.1/",
        "http://192.0.0.170/",
        "http://224.0.0.1/",
        "http://255.255.255.255/",
        "http://0.0.0.0/",
        "http://0/",
        "http://0x0/",
        "http://169.254.169.254/latest/meta-data/",  # cloud metadata
        "http://0xa9fea9fe/",
        "http://169.254.43518/",
        "https://[::1]/",
        "https://[0:0:0:0:0:0:0:1]/",  # expanded
        "https://[0000:0000:0000:0000:0000:0000:0000:0001]/",
        "https://[::]/",
        "https://[::ffff:127.0.0.1]/",  # IPv4-mapped
        "https://[::ffff:7f00:1]/",
        "https://[::ffff:169.254.169.254]/",
        "https://[::127.0.0.1]/",  # IPv4-compatible
        "https://[64:ff9b::127.0.0.1]/",  # NAT64
        "https://[64:ff9b::a9fe:a9fe]/",
        "https://[2002:a9fe:a9fe::]/",  # 6to4
        "https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/",  # Teredo, client 10.0.0.1
        "https://[fd00:ec2::254]/",  # AWS metadata over IPv6
        "https://[fc00::1]/",
        "https://[fe80::1]/",
        "https://[FE80::A9FE:A9FE]/",
        "https://[ff02::1]/",
        "https://[2001:db8::1]/",
    ],
)
def test_non_public_literal_addresses_are_refused(url: str) -> None:
    assert "is not public" in refused(url)


@pytest.mark.parametrize(
    "url",
    ["http://[fe80::1%25eth0]/", "http://[fe80::1%eth0]/", "http://[2606:4700::1%251]/"],
)
def test_zone_ids_are_refused(url: str) -> None:
    assert "zone id" in refused(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://good.com@127.0.0.1/",
        "http://user:pass@example.com/",
        "http://@example.com/",
        "http://example.com:80@10.0.0.1/",
        "http://example.com%40@10.0.0.1/",
    ],
)
def test_userinfo_is_refused(url: str) -> None:
    assert "userinfo" in refused(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost/",
        "http://LOCALHOST/",
        "http://localhost./",
        "http://api.localhost/",
        "http://localhost.localdomain/",
        "http://printer.local/",
        "http://db.internal/",
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://metadata/",
        "http://ip6-localhost/",
        "http://ip6-loopback/",
        "http://router.home.arpa/",
        "http://l\u3002o\u3002c\u3002a\u3002l\u3002h\u3002o\u3002s\u3002t.localhost/",
        "http://intranet/",  # a bare name goes through the resolver's search domains
        "http://xn--lcalhost-d6a.localhost/",
    ],
)
def test_internal_names_are_refused(url: str) -> None:
    detail = refused(url)
    assert "internal name" in detail or "single-label" in detail


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp://example.com/", "scheme"),
        ("file:///etc/passwd", "scheme"),
        ("gopher://example.com/", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("//example.com/", "absolute"),
        ("example.com", "absolute"),
        ("http:example.com", "'//'"),
        ("http:\\\\example.com\\", "'//'"),
        ("http:///example.com/", "empty host"),
        ("http://example.com:8080/", "port 8080"),
        ("http://example.com:22/", "port 22"),
        ("http://example.com:0/", "invalid port"),
        ("http://example.com:65536/", "invalid port"),
        ("http://example.com:8o/", "invalid port"),
        ("http://example.com:80:80/", "invalid port"),
        ("http://exa mple.com/", "whitespace"),
        ("http://exa%20mple.com/", "whitespace"),
        ("http://exa%00mple.com/", "control"),
        ("http://example.com\t/", "control"),
        ("http://example.com/\r\nX-Injected: 1", "control"),
        ("http://example.com\\@127.0.0.1/", "userinfo"),
        ("http://example.com\\.127.0.0.1/", "backslash"),
        ("http://exa_mple.com/", "invalid host"),
        ("http://-example.com/", "invalid host"),
        ("http://xn--a.com/", "invalid host"),
        ("http://a..b.com/", "empty label"),
        ("http://example.com../", "empty label"),
        ("http://%ff.com/", "percent-encoded"),
        ("http://1.2.3.256/", "invalid IPv4"),
        ("http://example.123/", "invalid IPv4"),
        ("http://[::1/", "unclosed"),
        ("http://[::1]x/", "after the IPv6"),
        ("http://[example.com]/", "invalid IPv6"),
        ("http://[::ffff:0x7f.1]/", "invalid IPv6"),
        ("http://ex]ample.com/", "invalid host"),
        ("http://" + "a" * 64 + ".com/", "invalid host"),
        ("http://example.com/" + "a" * 5000, "longer than"),
    ],
)
def test_malformed_or_disallowed_urls_are_refused(url: str, why: str) -> None:
    assert why in refused(url)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://example.com", "http://example.com/"),
        ("HTTP://Example.COM./", "http://example.com/"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("http://example.com:0080/", "http://example.com/"),
        ("http://example.com:/", "http://example.com/"),
        ("http://example.com:443/", "http://example.com:443/"),
        ("https://example.com?q=1", "https://example.com/?q=1"),
        ("https://example.com/a b?q=ü#frag", "https://example.com/a%20b?q=%C3%BC"),
        ("  https://example.com/  ", "https://example.com/"),
        ("https://b\u00fccher.de/", "https://xn--bcher-kva.de/"),
        ("https://B\u00dcCHER.de/", "https://xn--bcher-kva.de/"),
        ("https://\u4f8b\u3048\u3002\u30c6\u30b9\u30c8/", "https://xn--r8jz45g.xn--zckzah/"),
        ("https://www\uff0eexample\uff0ecom/", "https://www.example.com/"),
        ("https://%65xample.com/", "https://example.com/"),
        ("http://8.8.8.8/", "http://8.8.8.8/"),
        ("http://0x08080808/", "http://8.8.8.8/"),
        ("http://134744072/", "http://8.8.8.8/"),
        ("http://[2606:4700:4700:0:0:0:0:1111]/", "http://[2606:4700:4700::1111]/"),
        ("http://[::ffff:8.8.8.8]/", "http://[::ffff:808:808]/"),
    ],
)
def test_accepted_urls_come_back_in_one_canonical_spelling(url: str, expected: str) -> None:
    checked = precheck(url, NO_ALLOWANCE)
    assert checked.url == expected
    assert precheck(checked.url, NO_ALLOWANCE) == checked


def test_checked_url_fields() -> None:
    assert precheck("HTTPS://Example.com:443/p?q#f", NO_ALLOWANCE) == CheckedURL(
        url="https://example.com/p?q",
        scheme="https",
        host="example.com",
        port=443,
        literal_ip=None,
        parsed=httpx.URL("https://example.com/p?q"),
    )
    v6 = precheck("http://[2606:4700::1111]/", NO_ALLOWANCE)
    assert (v6.host, v6.port) == ("2606:4700::1111", 80)
    assert v6.literal_ip == ipaddress.IPv6Address("2606:4700::1111")


def test_the_allowance_opens_one_address_and_the_listed_ports_only() -> None:
    policy = Policy(allow_networks=(ipaddress.ip_network("127.0.0.1/32"),), allow_ports=(8081,))
    assert precheck("http://127.0.0.1:8081/x", policy).url == "http://127.0.0.1:8081/x"
    assert precheck("http://0x7f.1:8081/", policy).host == "127.0.0.1"
    assert "is not public" in refused("http://127.0.0.2:8081/", policy)
    assert "port 8082" in refused("http://127.0.0.1:8082/", policy)
    assert "port 8081" in refused("http://127.0.0.1:8081/", NO_ALLOWANCE)
    # Names stay refused by name: the allowance is about addresses.
    assert "internal name" in refused("http://localhost:8081/", policy)
