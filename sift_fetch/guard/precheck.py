"""The pre-check: everything about a URL that can be refused without touching the network.

The URL is taken apart here with browser rules, judged, and put back together in one
canonical spelling; that spelling is what the client requests, so what was checked and what
is fetched cannot differ.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field

import httpx

from sift_fetch.errors import Blocked
from sift_fetch.guard.addresses import IPAddress, Policy, denied_reason
from sift_fetch.guard.hosts import ipv6_literal, normalise_host
from sift_fetch.target import MAX_URL_CHARS

DEFAULT_PORTS = {"http": 80, "https": 443}
ALLOWED_PORTS = frozenset(DEFAULT_PORTS.values())

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
# Browsers strip these from both ends of a URL.
_C0_AND_SPACE = "".join(chr(i) for i in range(0x21))
_AUTHORITY_END = re.compile(r"[/?#]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class CheckedURL:
    url: str  # canonical: scheme://host[:port]/path?query, no userinfo, no fragment
    scheme: str
    host: str  # ASCII name, dotted IPv4 or compressed IPv6 (no brackets)
    port: int
    literal_ip: IPAddress | None
    # `url` as httpx parsed it, which a request takes as it is (parsing again cost 40 µs).
    parsed: httpx.URL = field(compare=False, repr=False)


def precheck(url: str, policy: Policy) -> CheckedURL:
    """Refuse (Blocked) or return the URL in the one spelling that will be fetched."""
    if len(url) > MAX_URL_CHARS:
        raise Blocked(f"URL is longer than {MAX_URL_CHARS} characters")
    text = url.strip(_C0_AND_SPACE)
    if _CONTROL.search(text):
        # Browsers silently drop tabs and newlines inside URLs; refusing is clearer.
        raise Blocked("control character in URL")
    match = _SCHEME.match(text)
    if match is None:
        raise Blocked("not an absolute http(s) URL")
    scheme = match[1].lower()
    if scheme not in DEFAULT_PORTS:
        raise Blocked(f"scheme {scheme!r} is not allowed (http and https only)")
    rest = text[match.end() :]
    if not rest.startswith("//"):
        raise Blocked("missing '//' after the scheme")
    rest = rest[2:]
    end = _AUTHORITY_END.search(rest)
    authority, tail = (rest[: end.start()], rest[end.start() :]) if end else (rest, "")
    if "@" in authority:
        raise Blocked("credentials (userinfo) in URLs are not allowed")
    if "\\" in authority:
        # Browsers read a backslash as a slash here, other parsers as part of the host.
        raise Blocked("backslash in the host part")
    host_text, port_text, bracketed = _split_authority(authority)
    port = _port(port_text, scheme, policy)
    host = ipv6_literal(host_text) if bracketed else normalise_host(host_text)
    if isinstance(host, str):
        literal_ip, host_str, url_host = None, host, host
    else:
        reason = denied_reason(host, policy)
        if reason is not None:
            raise Blocked(f"address {host} is not public ({reason})")
        literal_ip, host_str = host, str(host)
        url_host = f"[{host}]" if isinstance(host, ipaddress.IPv6Address) else host_str
    port_part = "" if port == DEFAULT_PORTS[scheme] else f":{port}"
    path = tail.split("#", 1)[0]
    if not path.startswith("/"):
        path = "/" + path
    parsed = _encoded(f"{scheme}://{url_host}{port_part}{path}", host_str, port)
    return CheckedURL(str(parsed), scheme, host_str, port, literal_ip, parsed)


def _split_authority(authority: str) -> tuple[str, str | None, bool]:
    """(host, port or None, whether the host was a bracketed IPv6 literal)."""
    if authority.startswith("["):
        close = authority.find("]")
        if close < 0:
            raise Blocked("unclosed '[' in host")
        after = authority[close + 1 :]
        if after and not after.startswith(":"):
            raise Blocked("unexpected text after the IPv6 address")
        return authority[1:close], (after[1:] if after else None), True
    host, colon, port = authority.partition(":")
    if "[" in host or "]" in host:
        raise Blocked("invalid host")
    return host, (port if colon else None), False


def _port(text: str | None, scheme: str, policy: Policy) -> int:
    if not text:  # "host:" means the default port, as in browsers
        return DEFAULT_PORTS[scheme]
    if not text.isascii() or not text.isdigit() or len(text.lstrip("0")) > 5:
        raise Blocked("invalid port")
    port = int(text)
    if not 0 < port < 65536:
        raise Blocked("invalid port")
    if port not in ALLOWED_PORTS and port not in policy.allow_ports:
        raise Blocked(f"port {port} is not allowed (80 and 443 only)")
    return port


def _encoded(url: str, host: str, port: int) -> httpx.URL:
    """Let httpx percent-encode path and query, then make sure it still sees our host."""
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        raise Blocked("invalid URL") from None
    seen_port = parsed.port or DEFAULT_PORTS[parsed.scheme]
    if parsed.raw_host.decode("ascii") != host or seen_port != port:
        raise Blocked("ambiguous URL")
    return parsed
