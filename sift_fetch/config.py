"""The one TOML config file: sections as frozen dataclasses, every key checked at load.

Unknown keys and bad values raise `ConfigError` naming the key (`fetch.per_host: …`), so a
typo stops the start instead of silently falling back to a default.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs


class ConfigError(ValueError):
    pass


def _positive(value: Any) -> str | None:
    return None if value > 0 else "must be greater than 0"


def _port(value: int) -> str | None:
    return None if 0 < value < 65536 else "must be a port number (1-65535)"


def _check(fn: Callable[[Any], str | None], default: Any = MISSING) -> Any:
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata={"check": fn})
    return field(default=default, metadata={"check": fn})


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = _check(_port, 8080)


def state_dir() -> Path:
    """The user's state directory for Sift (`$XDG_STATE_HOME/sift`, else
    `~/.local/state/sift` on Linux); the systemd units make it /var/lib/sift."""
    return Path(platformdirs.user_state_dir("sift"))


def default_store_url() -> str:
    return f"sqlite:///{state_dir() / 'sift.db'}"


@dataclass(frozen=True)
class StoreConfig:
    url: str = ""  # empty: the embedded SQLite file under the user's state directory


@dataclass(frozen=True)
class MetricsConfig:
    # Empty: `metrics` beside the SQLite file, or under the state directory for PostgreSQL.
    dir: str = ""


@dataclass(frozen=True)
class CallerConfig:
    name: str
    token_sha256: str
    class_: str = "standard"


@dataclass(frozen=True)
class FetchConfig:
    connect_timeout: float = _check(_positive, 10.0)
    read_timeout: float = _check(_positive, 20.0)
    total_timeout: float = _check(_positive, 45.0)
    batch_total_timeout: float = _check(_positive, 210.0)
    max_body_bytes: int = _check(_positive, 20 * 1024 * 1024)
    max_content_chars: int = _check(_positive, 60_000)
    max_redirects: int = _check(lambda v: None if v >= 0 else "must be 0 or more", 5)
    user_agent: str = "Sift/0.1 (+https://github.com/sift; fetch service for AI agents)"
    global_: int = _check(_positive, 8)
    per_host: int = _check(_positive, 2)
    per_caller: int = _check(_positive, 4)
    render_workers: int = _check(_positive, 2)
    render_queue: int = _check(_positive, 8)
    program_timeout: float = _check(_positive, 5.0)
    cache_ttl: float = _check(_positive, 900.0)
    cache_max_bytes: int = _check(_positive, 128 * 1024 * 1024)


def _cidrs(value: list[str]) -> str | None:
    for item in value:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            return f"{item!r} is not a CIDR block"
    return None


def _ports(value: list[int]) -> str | None:
    return next((f"{p!r} is not a port number" for p in value if not 0 < p < 65536), None)


@dataclass(frozen=True)
class GuardConfig:
    """Escape hatches for tests and local demos only; both empty in production."""

    allow_cidrs: list[str] = _check(_cidrs, [])
    allow_ports: list[int] = _check(_ports, [])


@dataclass(frozen=True)
class RecoverConfig:
    archive_url: str = "https://archive.org/wayback/available"


@dataclass(frozen=True)
class DigestConfig:
    """An OpenAI-compatible chat endpoint; empty `url` turns the LLM answer off."""

    url: str = ""
    model: str = ""
    api_key_env: str = "SIFT_DIGEST_API_KEY"
    timeout: float = _check(_positive, 30.0)
    max_input_chars: int = _check(_positive, 12_000)


@dataclass(frozen=True)
class BatchConfig:
    targets_per_job: int = _check(_positive, 32)
    jobs_per_caller: int = _check(_positive, 1)
    jobs_total: int = _check(_positive, 8)
    ttl: float = _check(_positive, 24 * 3600.0)
    max_bytes: int = _check(_positive, 64 * 1024 * 1024)
    workers: int = _check(lambda v: None if 1 <= v <= 2 else "must be 1 or 2 on one host", 1)
    busy_retry_for: float = _check(_positive, 600.0)


def _host_name(name: str) -> bool:
    if ":" in name:  # only an IPv6 address may have one
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return False
        return True
    return bool(name) and not any(c in name for c in "/*@[] ")


def _host_names(value: list[str]) -> str | None:
    bad = next((h for h in value if not _host_name(h)), None)
    return None if bad is None else f"{bad!r} is not a host name (no port, scheme or path)"


@dataclass(frozen=True)
class McpConfig:
    """The Host names `/mcp` answers to (any port), against DNS rebinding. Behind a reverse
    proxy, add the public name the proxy passes on."""

    allowed_hosts: list[str] = _check(_host_names, ["127.0.0.1", "localhost", "::1"])


@dataclass(frozen=True)
class Config:
    server: ServerConfig = field(default_factory=ServerConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    callers: list[CallerConfig] = field(default_factory=list)
    fetch: FetchConfig = field(default_factory=FetchConfig)
    guard: GuardConfig = field(default_factory=GuardConfig)
    recover: RecoverConfig = field(default_factory=RecoverConfig)
    digest: DigestConfig = field(default_factory=DigestConfig)
    batch: BatchConfig = field(default_factory=BatchConfig)
    metrics: MetricsConfig = field(default_factory=MetricsConfig)
    mcp: McpConfig = field(default_factory=McpConfig)

    @property
    def store_url(self) -> str:
        return self.store.url or default_store_url()

    @property
    def metrics_dir(self) -> Path:
        """Where the processes of this config write their counters and histograms (one
        directory per host, shared by the API and the worker there): `[metrics] dir`, else
        beside the SQLite file, else under the state directory."""
        if self.metrics.dir:
            return Path(self.metrics.dir)
        # `sqlite:///PATH[?…]` (any sqlite driver), parsed by hand: importing SQLAlchemy to
        # read it would slow every `sift` command down by a fifth of a second.
        scheme, _, rest = self.store_url.partition(":///")
        path = rest.split("?", 1)[0]
        if scheme.split("+")[0] == "sqlite" and path not in ("", ":memory:"):
            return Path(path).parent / "metrics"
        return state_dir() / "metrics"


_SECTIONS: dict[str, type] = {
    "server": ServerConfig,
    "store": StoreConfig,
    "fetch": FetchConfig,
    "guard": GuardConfig,
    "recover": RecoverConfig,
    "digest": DigestConfig,
    "batch": BatchConfig,
    "metrics": MetricsConfig,
    "mcp": McpConfig,
}
_CALLER_CLASSES = ("standard", "restricted")


def _toml_name(name: str) -> str:
    # `global` and `class` are Python keywords: the dataclass field carries a trailing "_".
    return name.rstrip("_")


def _type_ok(value: Any, hint: Any) -> bool:
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if typing.get_origin(hint) is list:
        (item,) = typing.get_args(hint)
        return isinstance(value, list) and all(_type_ok(v, item) for v in value)
    if isinstance(hint, types.UnionType):
        return any(_type_ok(value, h) for h in typing.get_args(hint))
    return isinstance(value, hint)


def _section(cls: type, raw: Any, where: str) -> Any:
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: must be a table")
    hints = typing.get_type_hints(cls)
    known = {_toml_name(f.name): f for f in fields(cls)}
    for key in raw:
        if key not in known:
            raise ConfigError(f"{where}.{key}: unknown key")
    values = {}
    for name, f in known.items():
        if name not in raw:
            if f.default is MISSING and f.default_factory is MISSING:
                raise ConfigError(f"{where}.{name}: required")
            continue
        value = raw[name]
        if not _type_ok(value, hints[f.name]):
            raise ConfigError(f"{where}.{name}: expected {_type_name(hints[f.name])}")
        check = f.metadata.get("check")
        problem = check(value) if check else None
        if problem:
            raise ConfigError(f"{where}.{name}: {problem}")
        values[f.name] = float(value) if hints[f.name] is float else value
    return cls(**values)


def _type_name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint)


def _callers(raw: Any) -> list[CallerConfig]:
    if not isinstance(raw, list):
        raise ConfigError("callers: must be an array of tables ([[callers]])")
    callers = [_section(CallerConfig, item, f"callers[{i}]") for i, item in enumerate(raw)]
    names: set[str] = set()
    for i, c in enumerate(callers):
        if c.class_ not in _CALLER_CLASSES:
            raise ConfigError(f"callers[{i}].class: must be one of {', '.join(_CALLER_CLASSES)}")
        digest = c.token_sha256.lower()
        if len(digest) != 64 or any(ch not in "0123456789abcdef" for ch in digest):
            raise ConfigError(f"callers[{i}].token_sha256: must be 64 hex digits")
        if c.name in names:
            raise ConfigError(f"callers[{i}].name: duplicate caller {c.name!r}")
        names.add(c.name)
    return callers


def parse_config(raw: dict[str, Any]) -> Config:
    for key in raw:
        if key not in _SECTIONS and key != "callers":
            raise ConfigError(f"{key}: unknown section")
    sections = {key: _section(cls, raw.get(key, {}), key) for key, cls in _SECTIONS.items()}
    return Config(callers=_callers(raw.get("callers", [])), **sections)


def load_config(path: str | os.PathLike[str] | None) -> Config:
    """Read PATH (or $SIFT_CONFIG); no path at all means every default."""
    path = path or os.environ.get("SIFT_CONFIG")
    if not path:
        return Config()
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror}") from exc
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    return parse_config(raw)
