"""Which IP addresses a fetch may reach: every public unicast address, nothing else.

The deny list follows the IANA special-purpose registries. IPv6 forms that carry an IPv4
address (mapped, compatible, NAT64, 6to4, Teredo) are judged by the IPv4 address inside,
because that is where the packets end up.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import TypeAlias

from sift_fetch.config import GuardConfig

IPAddress: TypeAlias = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork: TypeAlias = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class Policy:
    """The guard's only knobs: allowances for tests and local demos, empty in production."""

    allow_networks: tuple[IPNetwork, ...] = ()
    allow_ports: tuple[int, ...] = ()

    @classmethod
    def from_config(cls, cfg: GuardConfig) -> Policy:
        return cls(
            allow_networks=tuple(ipaddress.ip_network(c, strict=False) for c in cfg.allow_cidrs),
            allow_ports=tuple(cfg.allow_ports),
        )

    def allows(self, ip: IPAddress) -> bool:
        return any(ip in net for net in self.allow_networks)


def _table(*rows: tuple[str, str]) -> tuple[tuple[IPNetwork, str], ...]:
    return tuple((ipaddress.ip_network(cidr), reason) for cidr, reason in rows)


# Most specific first, so the reason names the narrowest range.
_DENIED_V4 = _table(
    ("255.255.255.255/32", "broadcast"),
    ("0.0.0.0/8", "the 'this network' block"),
    ("10.0.0.0/8", "private network"),
    ("100.64.0.0/10", "carrier-grade NAT"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local, where cloud metadata lives"),
    ("172.16.0.0/12", "private network"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.0.2.0/24", "documentation network"),
    ("192.88.99.0/24", "6to4 relay anycast"),
    ("192.168.0.0/16", "private network"),
    ("198.18.0.0/15", "benchmarking network"),
    ("198.51.100.0/24", "documentation network"),
    ("203.0.113.0/24", "documentation network"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),
)

_DENIED_V6 = _table(
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("::ffff:0:0:0/96", "IPv4-translated (SIIT)"),
    ("64:ff9b:1::/48", "local-use NAT64"),
    ("100::/64", "discard-only"),
    ("2001:db8::/32", "documentation network"),
    ("2001::/23", "IETF protocol assignments"),
    ("3fff::/20", "documentation network"),
    ("5f00::/16", "SRv6 segment identifiers"),
    ("fc00::/7", "unique-local, private"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),
    ("ff00::/8", "multicast"),
)

_GLOBAL_UNICAST_V6 = ipaddress.IPv6Network("2000::/3")
_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")
_COMPATIBLE = ipaddress.IPv6Network("::/96")
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_TEREDO = ipaddress.IPv6Network("2001::/32")
_SIXTOFOUR = ipaddress.IPv6Network("2002::/16")


def _embedded_v4(ip: ipaddress.IPv6Address) -> list[tuple[str, ipaddress.IPv4Address]]:
    """The IPv4 addresses an IPv6 address would deliver to, with the name of the form."""
    low32 = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _MAPPED:
        return [("IPv4-mapped", low32)]
    if ip in _NAT64:
        return [("NAT64", low32)]
    if ip in _COMPATIBLE and int(ip) > 1:
        return [("IPv4-compatible", low32)]
    if ip in _SIXTOFOUR:
        return [("6to4", ipaddress.IPv4Address((int(ip) >> 80) & 0xFFFFFFFF))]
    if ip in _TEREDO:
        client = ipaddress.IPv4Address(~int(ip) & 0xFFFFFFFF)
        server = ipaddress.IPv4Address((int(ip) >> 64) & 0xFFFFFFFF)
        return [("Teredo client", client), ("Teredo server", server)]
    return []


def denied_reason(ip: IPAddress, policy: Policy) -> str | None:
    """Why `ip` must not be reached, or None when it may (a public address or an allowance)."""
    if policy.allows(ip):
        return None
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.scope_id is not None:
            return "scoped (zone id)"
        embedded = _embedded_v4(ip)
        for form, v4 in embedded:
            reason = denied_reason(v4, policy)
            if reason is not None:
                # The embedded address stays out of the message: a resolved name must not
                # reveal the internal address it points at.
                return f"{form}: {reason}"
        if embedded:
            return None
        table = _DENIED_V6
    else:
        table = _DENIED_V4
    for network, reason in table:
        if ip in network:
            return reason
    if isinstance(ip, ipaddress.IPv6Address) and ip not in _GLOBAL_UNICAST_V6:
        # Everything outside 2000::/3 is unassigned or special; nothing public lives there.
        return "not global unicast"
    return None
