"""Name resolution, injectable: the backend asks a Resolver once per connection."""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable
from typing import TypeAlias

import anyio

Resolver: TypeAlias = Callable[[str, int], Awaitable[list[str]]]


async def system_resolver(host: str, port: int) -> list[str]:
    """Every address (IPv4 and IPv6) the system resolver knows for `host`, first seen first."""
    infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))
