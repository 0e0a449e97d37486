"""Property tests for the pre-check, where examples cannot cover the space.

1. Whatever precheck accepts is safe: an allowed port, a host that is a public address or an
   ordinary public-looking name, and a canonical URL that httpx reads the same way.
2. Every spelling of a denied IPv4 address, and every IPv6 form carrying one, is refused.

The denied ranges are written out here independently of the implementation's table.
"""

from __future__ import annotations

import ipaddress
import string

import httpx
import idna
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sift_fetch.errors import Blocked
from sift_fetch.guard import Policy, denied_reason, precheck
from sift_fetch.guard.hosts import _to_ascii, name_denied_reason
from sift_fetch.guard.ipv4 import ends_in_number

POLICIES = [Policy(), Policy(allow_ports=(8080,))]

DENIED_V4 = [
    ipaddress.IPv4Network(n)
    for n in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",
        "240.0.0.0/4",
    )
]


@st.composite
def denied_ipv4(draw: st.DrawFn) -> ipaddress.IPv4Address:
    net = draw(st.sampled_from(DENIED_V4))
    return net[draw(st.integers(0, net.num_addresses - 1))]


@st.composite
def number(draw: st.DrawFn, value: int) -> str:
    """One IPv4 part in decimal, octal or hex, with optional extra leading zeros."""
    style = draw(st.sampled_from(["dec", "oct", "hex"]))
    zeros = "0" * draw(st.integers(0, 3))
    if style == "dec":
        return str(value)
    if style == "oct":
        return "0" + zeros + format(value, "o")
    prefix = draw(st.sampled_from(["0x", "0X"]))
    return prefix + zeros + format(value, draw(st.sampled_from(["x", "X"])))


_FULLWIDTH = str.maketrans({c: chr(0xFF10 + i) for i, c in enumerate(string.digits)})
_DOTS = ["\u3002", "\uff0e", "\uff61"]


@st.composite
def ipv4_spelling(draw: st.DrawFn, ip: ipaddress.IPv4Address) -> str:
    """Any way a browser or inet_aton would read as `ip`: 1-4 parts, each in any base, then
    optionally a trailing dot, fullwidth digits, Unicode dots and percent-encoding."""
    n, b = int(ip), ip.packed
    values = {
        1: [n],
        2: [b[0], n & 0xFFFFFF],
        3: [b[0], b[1], n & 0xFFFF],
        4: list(b),
    }[draw(st.integers(1, 4))]
    host = ".".join(draw(number(v)) for v in values)
    if draw(st.booleans()):
        host += "."
    if draw(st.booleans()):
        host = host.translate(_FULLWIDTH)
    if draw(st.booleans()):
        host = host.replace(".", draw(st.sampled_from(_DOTS)))
    if draw(st.booleans()):
        encode = draw(st.sets(st.sampled_from(sorted(set(host)))))
        host = "".join(
            "".join(f"%{x:02X}" for x in ch.encode()) if ch in encode else ch for ch in host
        )
    return host


@st.composite
def ipv6_carrying(draw: st.DrawFn, ip: ipaddress.IPv4Address) -> str:
    """`ip` inside an IPv6 literal: mapped, compatible, NAT64, 6to4 or Teredo, any case."""
    n = int(ip)
    hi, lo = f"{n >> 16:x}", f"{n & 0xFFFF:x}"
    form = draw(
        st.sampled_from(
            [
                f"::ffff:{ip}",
                f"::ffff:{hi}:{lo}",
                f"0:0:0:0:0:ffff:{hi}:{lo}",
                f"0000:0000:0000:0000:0000:ffff:{ip}",
                f"::{ip}",
                f"64:ff9b::{ip}",
                f"64:ff9b::{hi}:{lo}",
                f"2002:{hi}:{lo}::{draw(st.integers(0, 0xFFFF)):x}",
                f"2001:0:4136:e378:8000:63bf:{(~n >> 16) & 0xFFFF:x}:{~n & 0xFFFF:x}",
            ]
        )
    )
    return "[" + (form.upper() if draw(st.booleans()) else form) + "]"


@settings(max_examples=400)
@given(
    ip=denied_ipv4(),
    data=st.data(),
    scheme=st.sampled_from(["http", "https", "HTTP"]),
    port=st.sampled_from(["", ":80", ":443", ":"]),
)
def test_every_spelling_of_a_denied_ipv4_is_refused(
    ip: ipaddress.IPv4Address, data: st.DataObject, scheme: str, port: str
) -> None:
    for host in (data.draw(ipv4_spelling(ip)), data.draw(ipv6_carrying(ip))):
        for policy in POLICIES:
            try:
                precheck(f"{scheme}://{host}{port}/path", policy)
            except Blocked as exc:
                assert "is not public" in exc.detail
            else:
                raise AssertionError(f"{host} was accepted")


_TRICKY = [
    "127", "0x7f", "0", "1", "255", "0177", "localhost", "example", "com", "internal",
    ".", "..", "%2e", "%31", "@", "[", "]", ":", "::", "\\", "/", "#", "?", "%",
    "\u3002", "\uff0e", "\uff11", "ffff", "xn--", "-", "_", " ", "\t", "\u00e9", "ß",
]  # fmt: skip

labels = st.one_of(
    st.from_regex(r"[A-Za-z0-9]([A-Za-z0-9\-]{0,10}[A-Za-z0-9])?", fullmatch=True),
    st.text(st.characters(codec="utf-8", categories=["L", "N", "Pd"]), min_size=1, max_size=8),
    st.sampled_from(_TRICKY),
)
names = st.builds(
    lambda parts, sep, end: sep.join(parts) + end,
    st.lists(labels, min_size=1, max_size=4),
    st.sampled_from([".", ".", ".", "\u3002", "%2E"]),
    st.sampled_from(["", "", ".", ".."]),
)
hosts = st.one_of(
    names,
    names,
    st.ip_addresses(v=4).flatmap(ipv4_spelling),
    st.ip_addresses(v=6).map(lambda ip: f"[{ip}]"),
    st.ip_addresses(v=4).flatmap(ipv6_carrying),
    st.lists(st.sampled_from(_TRICKY), max_size=8).map("".join),
    st.text(max_size=30),
)
urls = st.builds(
    lambda scheme, userinfo, host, port, path: f"{scheme}://{userinfo}{host}{port}{path}",
    st.sampled_from(["http", "https", "HTTPS", "http", "https", "ftp"]),
    st.sampled_from(["", "", "", "", "", "", "", "", "user@", "a:b@"]),
    hosts,
    st.one_of(
        st.just(""),
        st.sampled_from([":80", ":443", ":8080", ":", ":0080", ":22"]),
        st.integers(0, 70000).map(lambda p: f":{p}"),
    ),
    st.one_of(
        st.just(""),
        st.text(st.characters(exclude_categories=["Cc", "Cs"]), max_size=20).map(lambda t: "/" + t),
    ),
)


@settings(max_examples=600)
@given(url=urls, policy=st.sampled_from(POLICIES))
@example(url="http://example.com/", policy=POLICIES[0])
def test_whatever_precheck_accepts_is_safe(url: str, policy: Policy) -> None:
    try:
        checked = precheck(url, policy)
    except Blocked:
        return
    assert checked.port in {80, 443, *policy.allow_ports}
    try:
        ip = ipaddress.ip_address(checked.host)
    except ValueError:
        ip = None
    if ip is not None:
        assert checked.literal_ip == ip
        assert denied_reason(ip, policy) is None
    else:
        assert checked.literal_ip is None
        assert set(checked.host) <= set(string.ascii_lowercase + string.digits + ".-")
        assert not ends_in_number(checked.host)
        assert name_denied_reason(checked.host) is None
    parsed = httpx.URL(checked.url)
    assert parsed.raw_host.decode() == checked.host
    assert (parsed.port or {"http": 80, "https": 443}[parsed.scheme]) == checked.port
    assert parsed.userinfo == b""
    assert precheck(checked.url, policy) == checked


def _idna_reference(host: str) -> str | None:
    try:
        out = idna.encode(host, uts46=True, std3_rules=True).decode("ascii").removesuffix(".")
    except UnicodeError:
        return None
    return out if out and "" not in out.split(".") else None


@settings(max_examples=300)
@given(
    st.lists(
        st.one_of(
            st.from_regex(r"[A-Za-z0-9\-]{1,64}", fullmatch=True),
            st.sampled_from(["xn--bcher-kva", "ab--cd", "a" * 63, "a" * 64, "-a", "a-"]),
        ),
        min_size=1,
        max_size=6,
    ).map(".".join)
)
def test_the_ascii_shortcut_agrees_with_idna(host: str) -> None:
    expected = _idna_reference(host)
    try:
        got: str | None = _to_ascii(host)
    except Blocked:
        got = None
    assert got == expected
