"""Build configs for tests: a real SQLite file, callers with known tokens, and the explicit
test-only guard allowance for one loopback address and the test servers' ports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sift_fetch.callers import token_hash
from sift_fetch.config import Config, parse_config

TOKENS = {"alice": "alice-token", "bob": "bob-token", "spook": "spook-token"}
CLASSES = {"alice": "standard", "bob": "standard", "spook": "restricted"}
ALLOWED_LOOPBACK = "127.0.0.1/32"


def make_config(tmp_path: Path, ports: list[int], **sections: dict[str, Any]) -> Config:
    raw: dict[str, Any] = {
        "store": {"url": f"sqlite:///{tmp_path / 'sift.db'}"},
        "callers": [
            {"name": name, "token_sha256": token_hash(tok), "class": CLASSES[name]}
            for name, tok in TOKENS.items()
        ],
        "guard": {"allow_cidrs": [ALLOWED_LOOPBACK], "allow_ports": ports},
        "fetch": {"render_workers": 1, "render_queue": 4},
    }
    for name, values in sections.items():
        raw[name] = {**raw.get(name, {}), **values}
    return parse_config(raw)


def auth(name: str = "alice") -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[name]}"}
