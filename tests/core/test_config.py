from pathlib import Path

import pytest

from sift_fetch.callers import CallerTable, token_hash
from sift_fetch.config import Config, ConfigError, load_config, parse_config

TOKEN_HASH = "a" * 64


def test_no_config_means_every_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SIFT_CONFIG", raising=False)
    config = load_config(None)
    assert config == Config()
    assert config.server.port == 8080
    assert config.fetch.global_ == 8 and config.fetch.per_host == 2
    assert config.guard.allow_cidrs == [] and config.guard.allow_ports == []
    assert config.batch.targets_per_job == 32 and config.batch.max_bytes == 64 * 1024 * 1024
    assert config.store_url.startswith("sqlite:///") and config.store_url.endswith("sift.db")


def test_full_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "sift.toml"
    path.write_text(
        f"""
[server]
host = "0.0.0.0"
port = 9000
[store]
url = "sqlite:///{tmp_path}/x.db"
[[callers]]
name = "hermes"
token_sha256 = "{TOKEN_HASH}"
class = "restricted"
[fetch]
global = 4
per_host = 1
total_timeout = 30
[guard]
allow_cidrs = ["127.0.0.1/32"]
allow_ports = [8081]
[batch]
workers = 2
ttl = 3600
"""
    )
    config = load_config(path)
    assert config.server.port == 9000
    assert config.fetch.global_ == 4 and config.fetch.total_timeout == 30.0
    assert isinstance(config.fetch.total_timeout, float)
    assert config.callers[0].class_ == "restricted"
    assert config.guard.allow_ports == [8081]
    assert config.batch.workers == 2 and config.batch.ttl == 3600.0
    assert config.store_url == f"sqlite:///{tmp_path}/x.db"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"fetch": {"globl": 3}}, "fetch.globl: unknown key"),
        ({"fetc": {}}, "fetc: unknown section"),
        ({"fetch": {"global": 0}}, "fetch.global: must be greater than 0"),
        ({"fetch": {"global": "8"}}, "fetch.global: expected int"),
        ({"fetch": {"per_host": True}}, "fetch.per_host: expected int"),
        ({"server": {"port": 70000}}, "server.port: must be a port number"),
        ({"guard": {"allow_cidrs": ["10.0.0.0/33"]}}, "guard.allow_cidrs: '10.0.0.0/33'"),
        ({"guard": {"allow_ports": [0]}}, "guard.allow_ports: 0 is not a port"),
        ({"batch": {"workers": 3}}, "batch.workers: must be 1 or 2"),
        ({"callers": [{"name": "a"}]}, "callers[0].token_sha256: required"),
        (
            {"callers": [{"name": "a", "token_sha256": TOKEN_HASH, "class": "admin"}]},
            "callers[0].class: must be one of standard, restricted",
        ),
        ({"callers": [{"name": "a", "token_sha256": "xyz"}]}, "callers[0].token_sha256"),
        (
            {
                "callers": [
                    {"name": "a", "token_sha256": TOKEN_HASH},
                    {"name": "a", "token_sha256": "b" * 64},
                ]
            },
            "callers[1].name: duplicate",
        ),
        ({"callers": {"name": "a"}}, "callers: must be an array"),
    ],
)
def test_bad_config_names_the_key(raw: dict, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_config(raw)
    assert message in str(err.value)


def test_unreadable_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read config"):
        load_config(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[server\nport = 1")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)


def test_callers_authenticate_by_token_hash() -> None:
    config = parse_config(
        {
            "callers": [
                {"name": "hermes", "token_sha256": token_hash("s3cret"), "class": "restricted"}
            ]
        }
    )
    table = CallerTable(config.callers)
    caller = table.authenticate("s3cret")
    assert caller is not None and caller.name == "hermes" and caller.restricted
    assert table.authenticate("wrong") is None
    assert table.authenticate("") is None
    assert table.by_name("hermes") == caller


@pytest.mark.parametrize(
    ("section", "expected"),
    [
        ({"store": {"url": "sqlite:////var/lib/sift/sift.db"}}, "/var/lib/sift/metrics"),
        ({"store": {"url": "sqlite+pysqlite:////srv/s.db?timeout=5"}}, "/srv/metrics"),
        ({"store": {"url": "sqlite:///relative/s.db"}}, "relative/metrics"),
        ({"store": {"url": "sqlite:///:memory:"}}, "{state}/metrics"),
        ({"store": {"url": "postgresql://sift@db:5432/sift"}}, "{state}/metrics"),
        ({}, "{state}/metrics"),  # the embedded store is in the state directory too
        ({"store": {"url": "sqlite:////x/s.db"}, "metrics": {"dir": "/m"}}, "/m"),
    ],
)
def test_metrics_dir_is_beside_the_store_unless_set(
    section: dict, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    config = parse_config(section)
    assert config.metrics_dir == Path(expected.format(state=tmp_path / "sift"))
