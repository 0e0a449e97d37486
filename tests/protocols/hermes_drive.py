"""Run by `.venv-hermes/bin/python` (Hermes's own environment, not Sift's): Hermes's tools
called as functions, without an LLM, each answer written as JSON to the file OUT.

    hermes_drive.py extract OUT URL...
        tools.web_tools.web_extract_tool(URLs), after plugin discovery
    hermes_drive.py skill OUT NAME DIR
        tools.skills_tool.skill_view(NAME), and the skills guard's scan_skill(DIR) with its
        should_allow_install verdict
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path


def extract(urls: list[str]) -> object:
    from hermes_cli.plugins import discover_plugins
    from tools.web_tools import web_extract_tool

    # As Hermes does when it starts (cli.py, the gateway): plugins register their providers
    # before the first tool call picks one.
    discover_plugins()
    return json.loads(asyncio.run(web_extract_tool(urls)))


def skill(name: str, directory: str) -> object:
    from tools.skills_guard import scan_skill, should_allow_install
    from tools.skills_tool import skill_view

    scan = scan_skill(Path(directory), source="community")
    allowed, reason = should_allow_install(scan)
    return {
        "view": json.loads(skill_view(name)),
        "verdict": scan.verdict,
        "findings": [str(f) for f in scan.findings],
        "allowed": allowed,
        "reason": reason,
    }


def main() -> None:
    command, out, *args = sys.argv[1:]
    answer = extract(args) if command == "extract" else skill(*args)
    Path(out).write_text(json.dumps(answer))


if __name__ == "__main__":
    main()
