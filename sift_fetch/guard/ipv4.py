"""IPv4 hosts spelled the way inet_aton and browsers (the WHATWG URL standard) read them.

`0177.0.0.1`, `0x7f.1`, `127.1` and `2130706433` all reach 127.0.0.1 in a browser and in
libc, so the guard has to read them the same way before judging the address.
"""

from __future__ import annotations

import ipaddress

_DECIMAL = frozenset("0123456789")
_OCTAL = frozenset("01234567")
_HEX = frozenset("0123456789abcdefABCDEF")


def ends_in_number(host: str) -> bool:
    """True when a browser would parse `host` as an IPv4 address rather than as a name."""
    labels = host.split(".")
    if labels[-1] == "" and len(labels) > 1:
        labels.pop()
    last = labels[-1]
    if last and set(last) <= _DECIMAL:
        return True
    return last[:2] in ("0x", "0X") and set(last[2:]) <= _HEX


def _number(part: str) -> int:
    if part[:2] in ("0x", "0X"):
        digits, base, allowed = part[2:], 16, _HEX
    elif len(part) > 1 and part[0] == "0":
        digits, base, allowed = part[1:], 8, _OCTAL
    else:
        digits, base, allowed = part, 10, _DECIMAL
    if not set(digits) <= allowed:
        raise ValueError(f"{part!r} is not a number")
    # Bounded so a 4,000-digit label cannot make int() expensive; anything longer is too big.
    if len(digits.lstrip("0")) > 11:
        raise ValueError(f"{part!r} is out of range")
    return int(digits, base) if digits else 0


def parse_ipv4(host: str) -> ipaddress.IPv4Address:
    """Read an IPv4 host in any spelling; ValueError when it is not one."""
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4 or "" in parts:
        raise ValueError("not an IPv4 address")
    numbers = [_number(p) for p in parts]
    *leading, last = numbers
    if any(n > 255 for n in leading) or last >= 256 ** (5 - len(numbers)):
        raise ValueError("IPv4 address out of range")
    value = last
    for i, n in enumerate(leading):
        value += n << (8 * (3 - i))
    return ipaddress.IPv4Address(value)
