"""IPv4 spellings read the way inet_aton and browsers read them."""

from __future__ import annotations

import ipaddress

import pytest

from sift_fetch.guard.ipv4 import ends_in_number, parse_ipv4


@pytest.mark.parametrize(
    ("spelling", "address"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),  # one decimal number
        ("017700000001", "127.0.0.1"),  # one octal number
        ("0x7f000001", "127.0.0.1"),  # one hex number
        ("0X7F000001", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),  # octal part
        ("0x7f.0.0.1", "127.0.0.1"),  # hex part
        ("0x7f.1", "127.0.0.1"),  # short form, last part fills 24 bits
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),  # last part fills 16 bits
        ("0x7f.0.0.01", "127.0.0.1"),  # mixed
        ("0000177.0x00.0.1", "127.0.0.1"),  # extra leading zeros
        ("10.0x10000", "10.1.0.0"),
        ("0", "0.0.0.0"),
        ("0x", "0.0.0.0"),  # an empty hex number is zero, as in browsers
        ("169.254.43518", "169.254.169.254"),
        ("0xa9fea9fe", "169.254.169.254"),
        ("1.2.3.4.", "1.2.3.4"),  # one trailing dot
        ("4294967295", "255.255.255.255"),
    ],
)
def test_spellings(spelling: str, address: str) -> None:
    assert ends_in_number(spelling)
    assert parse_ipv4(spelling) == ipaddress.IPv4Address(address)


@pytest.mark.parametrize(
    "spelling",
    [
        "4294967296",  # 2**32
        "1.2.3.256",
        "256.1",
        "1.2.65536",
        "1.2.3.4.5",
        "08.0.0.1",  # 8 is not an octal digit
        "0x7g.1",
        "1..2",
        "example.1",
        "9" * 40,  # long enough to be expensive if it were converted
    ],
)
def test_numbers_that_are_not_addresses(spelling: str) -> None:
    with pytest.raises(ValueError):
        parse_ipv4(spelling)


@pytest.mark.parametrize("name", ["example.com", "1.2.3.com", "0x7f.example", "x0x1", ""])
def test_names_do_not_end_in_a_number(name: str) -> None:
    assert not ends_in_number(name)
