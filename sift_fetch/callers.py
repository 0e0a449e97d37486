"""Who is asking: callers come from the config, tokens are stored as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Literal

from sift_fetch.config import CallerConfig

CallerClass = Literal["standard", "restricted"]


@dataclass(frozen=True, slots=True)
class Caller:
    name: str
    cls: CallerClass

    @property
    def restricted(self) -> bool:
        return self.cls == "restricted"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return "sift_" + secrets.token_urlsafe(32)


class CallerTable:
    def __init__(self, callers: list[CallerConfig]) -> None:
        self._by_hash = {c.token_sha256.lower(): Caller(c.name, c.class_) for c in callers}  # type: ignore[arg-type]
        self._by_name = {c.name: c for c in self._by_hash.values()}

    def authenticate(self, token: str) -> Caller | None:
        # Keyed by a hash of the secret, so a lookup's timing tells nothing about the token.
        return self._by_hash.get(token_hash(token))

    def by_name(self, name: str) -> Caller | None:
        return self._by_name.get(name)
