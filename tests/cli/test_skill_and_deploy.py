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
    loaded = load_config(path)
    defaults = Config()
    assert loaded.store.url.startswith("sqlite:///")
    assert dataclasses.replace(loaded, store=defaults.store) == defaults
    text = path.read_text()
    for section in dataclasses.fields(Config):
        value = getattr(defaults, section.name)
        if isinstance(value, list):  # [[callers]]: shown commented, with each key
            keys = ["name", "token_sha256", "class"]
        else:
            keys = [f.name.rstrip("_") for f in dataclasses.fields(value)]
        for key in keys:
            assert re.search(rf"^#? ?{key} = ", text, re.MULTILINE), f"{section.name}.{key}"


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
