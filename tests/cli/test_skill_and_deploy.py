"""The agent skill's format, the systemd units, and the example config."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from sift_fetch.config import Config, load_config

REPO = Path(__file__).resolve().parents[2]
SECTIONS = [
    "When to Use",
    "Prerequisites",
    "How to Run",
    "Quick Reference",
    "Procedure",
    "Pitfalls",
    "Verification",
]


def front_matter(text: str) -> tuple[dict, str]:
    match = re.match(r"---\n(.*?)\n---\n(.*)", text, re.DOTALL)
    assert match, "SKILL.md must start with YAML front matter between --- lines"
    return yaml.safe_load(match[1]), match[2]


def test_skill_front_matter() -> None:
    meta, _ = front_matter((REPO / "skill" / "SKILL.md").read_text())
    assert meta["name"] == "sift"
    description = meta["description"]
    assert len(description) <= 60 and description.endswith(".")
    assert description.count(".") == 1  # one sentence
    for key in ("version", "author", "license"):
        assert isinstance(meta[key], str) and meta[key]
    assert set(meta["platforms"]) <= {"linux", "macos", "windows"} and meta["platforms"]
    assert meta["metadata"]["hermes"]["tags"]
    env = {item["name"]: item for item in meta["required_environment_variables"]}
    assert set(env) == {"SIFT_URL", "SIFT_TOKEN"}
    assert all(item["prompt"] and item["help"] for item in env.values())


def test_skill_sections_in_order_and_batch_advice() -> None:
    _, body = front_matter((REPO / "skill" / "SKILL.md").read_text())
    headings = re.findall(r"^## (.+)$", body, re.MULTILINE)
    assert headings == SECTIONS
    for needle in (
        "sift batch submit",
        "sift batch status",
        "sift batch wait",
        "sift batch result",
    ):
        assert needle in body
    for option in ("question", "grep", "pages"):
        assert f"--{option}" in body
    for hint in ("retry", "recover", "browser", "pages", "grep", "fix_request"):
        assert f"`{hint}`" in body


def test_example_config_has_every_key_at_its_default() -> None:
    path = REPO / "deploy" / "sift.toml"
    defaults = Config()
    assert load_config(path) == defaults
    text = path.read_text()
    for section in dataclasses.fields(Config):
        value = getattr(defaults, section.name)
        if isinstance(value, list):  # [[callers]]: shown commented, with each key
            keys = ["name", "token_sha256", "class"]
        else:
            keys = [f.name.rstrip("_") for f in dataclasses.fields(value)]
        for key in keys:
            assert re.search(rf"^#? ?{key} = ", text, re.MULTILINE), f"{section.name}.{key}"


def test_example_config_runs_any_user_on_the_embedded_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # README's quick start copies deploy/sift.toml as it is: its store and metrics must land in
    # the user's own state directory, not in /var/lib where only the units may write.
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    config = load_config(REPO / "deploy" / "sift.toml")
    assert config.store_url == f"sqlite:///{tmp_path / 'sift' / 'sift.db'}"
    assert config.metrics_dir == tmp_path / "sift" / "metrics"


def test_units_put_the_default_store_and_metrics_in_their_state_directory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("sift-api.service", "sift-worker.service"):
        unit = (REPO / "deploy" / name).read_text()
        env = dict(re.findall(r"^Environment=(\w+)=(.*)$", unit, re.MULTILINE))
        assert "PROMETHEUS_MULTIPROC_DIR" not in env  # the config's default serves them
        state = re.search(r"^StateDirectory=(.*)$", unit, re.MULTILINE)
        assert state is not None and state[1].split() == ["sift", "sift/metrics"]
        monkeypatch.setenv("XDG_STATE_HOME", env["XDG_STATE_HOME"])
        config = load_config(REPO / "deploy" / "sift.toml")
        assert config.store_url == "sqlite:////var/lib/sift/sift.db", name
        assert config.metrics_dir == Path("/var/lib/sift/metrics"), name


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (apt-get install systemd to run this check)",
)
def test_systemd_units_verify(tmp_path: Path) -> None:
    sift = Path(sys.executable).with_name("sift")
    assert sift.exists()
    units = []
    for name in ("sift-api.service", "sift-worker.service"):
        text = (REPO / "deploy" / name).read_text()
        assert "/opt/sift/.venv/bin/sift" in text
        # verify checks that ExecStart's binary exists: point it at this install's `sift`.
        unit = tmp_path / name
        unit.write_text(text.replace("/opt/sift/.venv/bin/sift", str(sift)))
        units.append(str(unit))
        assert "DynamicUser=yes" in text and "MemoryMax=" in text and "StateDirectory=" in text
    worker = (REPO / "deploy" / "sift-worker.service").read_text()
    assert "Restart=on-failure" in worker
    proc = subprocess.run(
        ["systemd-analyze", "verify", *units], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    problems = [line for line in proc.stderr.splitlines() if "sift-" in line]
    assert problems == []
