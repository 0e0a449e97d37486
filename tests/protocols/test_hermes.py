"""Hermes itself (hermes-agent, in `.venv-hermes`) against a real Sift: its `web_extract` tool
through the Firecrawl path and through Sift's own plugin, and its skill loader and skills
guard on skill/SKILL.md. Each call is a subprocess in Hermes's environment, without an LLM.

Slow (each subprocess imports Hermes), so behind the `slow` marker, which CI runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.batch_api.stack import REPO, Stack
from tests.support.config import TOKENS
from tests.support.site import LocalSite

pytestmark = pytest.mark.slow

HERMES_PYTHON = REPO / ".venv-hermes" / "bin" / "python"
DRIVE = Path(__file__).with_name("hermes_drive.py")
DEAD_END = "http://127.0.0.1:9"  # the discard port: nothing listens


@pytest.fixture(scope="module", autouse=True)
def hermes_installed() -> None:
    if not HERMES_PYTHON.exists():
        reason = ".venv-hermes is missing: scripts/test builds it"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


def hermes(tmp: Path, config: dict[str, Any], env: dict[str, str], *args: str) -> Any:
    """Run hermes_drive.py in Hermes's environment with its own home and CONFIG; its JSON answer."""
    home = tmp / "hermes-home"
    home.mkdir(exist_ok=True)
    (home / "config.yaml").write_text(yaml.safe_dump(config))
    out = tmp / "answer.json"
    proc = subprocess.run(
        [str(HERMES_PYTHON), str(DRIVE), args[0], str(out), *args[1:]],
        env={
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(tmp),
            "HERMES_HOME": str(home),
            # The targets are a local site on 127.0.0.1: Hermes's own pre-check would refuse
            # them; Sift's guard (with the tests' allowance) still decides.
            "HERMES_ALLOW_PRIVATE_URLS": "true",
            # Nothing may reach out during a test: no installs on demand, no tracking, and any
            # client that honours proxy variables finds a closed loopback port, except for
            # the loopback Sift itself.
            "HERMES_DISABLE_LAZY_INSTALLS": "1",
            "DO_NOT_TRACK": "1",
            "FIRECRAWL_DISABLE_CALLER_ORIGIN": "1",
            "HTTP_PROXY": DEAD_END,
            "HTTPS_PROXY": DEAD_END,
            "ALL_PROXY": DEAD_END,
            "NO_PROXY": "127.0.0.1,localhost",
            **env,
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(out.read_text())


def native(stack: Stack, url: str) -> dict[str, Any]:
    with stack.http() as http:
        return dict(http.post("/v1/fetch", json={"url": url}).json())


def test_web_extract_through_the_firecrawl_path(
    stack: Stack, site: LocalSite, tmp_path: Path
) -> None:
    url = site.url("/article")
    env = {"FIRECRAWL_API_URL": stack.base, "FIRECRAWL_API_KEY": TOKENS["alice"]}
    answer = hermes(tmp_path, {"web": {"extract_backend": "firecrawl"}}, env, "extract", url)
    (result,) = answer["results"]
    assert result["error"] is None
    assert result["content"] == native(stack, url)["content"]  # Sift's Markdown, unchanged
    assert result["title"] == "Lighthouses of the North"


def test_web_extract_through_the_sift_plugin(stack: Stack, site: LocalSite, tmp_path: Path) -> None:
    config = {"web": {"extract_backend": "sift"}, "plugins": {"enabled": ["sift"]}}
    env = {"SIFT_URL": stack.base, "SIFT_TOKEN": TOKENS["alice"]}
    urls = [site.url("/moved"), f"http://127.0.0.2:{site.port}/article", site.url("/gone")]
    answer = hermes(tmp_path, config, env, "extract", *urls)
    moved, blocked, gone = answer["results"]
    assert moved["error"] is None
    assert moved["url"] == site.url("/article")  # the final URL, after the redirect
    assert moved["content"] == native(stack, site.url("/article"))["content"]
    assert blocked["error"].startswith("blocked: ")
    assert blocked["error"].endswith("(hint: browser)")  # Sift's hint reaches the model
    assert gone["error"] == "upstream: the site answered 404 (hint: recover)"


def test_the_skill_loads_and_passes_the_skills_guard(tmp_path: Path) -> None:
    skill_dir = tmp_path / "hermes-home" / "skills" / "sift"
    skill_dir.mkdir(parents=True)
    shutil.copy(REPO / "skill" / "SKILL.md", skill_dir / "SKILL.md")
    answer = hermes(tmp_path, {}, {}, "skill", "sift", str(skill_dir))
    assert answer["verdict"] == "safe", answer["findings"]
    assert answer["allowed"] is True, answer["reason"]
    view = answer["view"]
    assert view["success"] is True
    assert "sift" in view["compatibility"] and "server" in view["compatibility"]
    assert "# Sift" in view["content"]
