"""The host part of a URL, normalised the way a browser would read it, then judged by name.

Order matters and follows the WHATWG URL standard: percent-decode, map to ASCII (UTS #46 /
IDNA), and only then decide whether the result is an IPv4 address; so `%31%32%37.1` and
fullwidth digits (U+FF11...) are read as the loopback addresses they are.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import unquote

import idna

from sift_fetch.errors import Blocked
from sift_fetch.guard.addresses import IPAddress
from sift_fetch.guard.ipv4 import ends_in_number, parse_ipv4

# Full stops that browsers and UTS #46 treat as the ASCII dot.
_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})

# Labels of letters, digits and inner hyphens, at most 63 each, 253 in all.
_PLAIN_NAME = re.compile(
    r"(?=.{1,253}\Z)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
)

_INTERNAL_NAMES = frozenset({"localhost", "ip6-localhost", "ip6-loopback", "metadata"})
# `.internal` covers metadata.google.internal and the EC2 names; `.localdomain` covers
# localhost.localdomain.
_INTERNAL_SUFFIXES = (".localhost", ".localdomain", ".local", ".internal", ".home.arpa")


def _is_control_or_space(ch: str) -> bool:
    return ord(ch) <= 0x20 or 0x7F <= ord(ch) <= 0x9F or ch.isspace()


def ipv6_literal(text: str) -> ipaddress.IPv6Address:
    """The inside of `[...]`: a plain IPv6 address, never one with a zone id."""
    if "%" in text:
        # A zone id picks a local interface: meaningless for a public address.
        raise Blocked("IPv6 zone ids are not allowed")
    try:
        return ipaddress.IPv6Address(text)
    except ValueError:
        raise Blocked("invalid IPv6 address") from None


def normalise_host(text: str) -> IPAddress | str:
    """An unbracketed host: its IPv4 address if it spells one, else its ASCII (IDNA) name."""
    try:
        host = unquote(text, errors="strict")
    except UnicodeDecodeError:
        raise Blocked("host is not valid percent-encoded UTF-8") from None
    if any(_is_control_or_space(ch) for ch in host):
        raise Blocked("control character or whitespace in host")
    host = host.translate(_DOTS).removesuffix(".")
    if not host:
        raise Blocked("empty host")
    if "" in host.split("."):
        raise Blocked("invalid host name (empty label)")
    ascii_host = _to_ascii(host)
    if ends_in_number(ascii_host):
        try:
            return parse_ipv4(ascii_host)
        except ValueError:
            raise Blocked("invalid IPv4 address") from None
    reason = name_denied_reason(ascii_host)
    if reason is not None:
        raise Blocked(f"host {ascii_host!r} {reason}")
    return ascii_host


def _to_ascii(host: str) -> str:
    lowered = host.lower()
    if host.isascii() and "--" not in lowered and _PLAIN_NAME.fullmatch(lowered):
        # Letters, digits and inner hyphens are their own IDNA form: skip the costly path.
        return lowered
    try:
        ascii_host = idna.encode(host, uts46=True, std3_rules=True).decode("ascii")
    except UnicodeError:
        raise Blocked("invalid host name") from None
    # UTS #46 maps a few more characters to a dot, so a trailing or empty label can appear
    # only now.
    ascii_host = ascii_host.removesuffix(".")
    if not ascii_host or "" in ascii_host.split("."):
        raise Blocked("invalid host name")
    return ascii_host


def name_denied_reason(name: str) -> str | None:
    """Why a (lowercase ASCII) name is internal by its very spelling, or None."""
    if name in _INTERNAL_NAMES or name.endswith(_INTERNAL_SUFFIXES):
        return "is an internal name"
    if "." not in name:
        # A bare name goes through the resolver's search domains: an intranet lookup.
        return "is a single-label (intranet) name"
    return None
