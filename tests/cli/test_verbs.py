"""Seed §12 item 5: the CLI's verbs, their arguments and error cases, against a real API process
and a real worker process (the stack), with the command run in-process through `run(argv)`."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from sift_cli.main import run
from sift_fetch.callers import token_hash
from tests.batch_api.conftest import Gate
from tests.batch_api.stack import REPO, Stack
from tests.support.site import LocalSite


class Sift:
    def __init__(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
        self.capsys = capsys
        self.monkeypatch = monkeypatch

    def __call__(self, *argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        self.capsys.readouterr()
        if stdin is not None:
            self.monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = run(argv)
        out, err = self.capsys.readouterr()
        return code, out, err


@pytest.fixture
def sift(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stack: Stack) -> Sift:
    for name, value in stack.env("alice").items():
        monkeypatch.setenv(name, value)
    return Sift(capsys, monkeypatch)


def job_id_of(out: str) -> str:
    first = out.splitlines()[0]
    assert first.startswith("job_id: ")
    return first.removeprefix("job_id: ")


# --- arguments and error cases (no server needed for most) ---------------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["batch", "frobnicate"], "No such command"),
        (["batch", "status"], "Missing argument"),
        (["batch", "result", "abc", "-1"], "-1"),
        (["batch", "result", "abc", "1", "-o", "out"], "IDX or --out"),
        (["batch", "wait", "abc", "--timeout", "-5"], "--timeout"),
        (["batch", "submit"], "Missing argument"),
        (["batch", "submit", "/nonexistent/targets.json"], "cannot read"),
        (["fetch"], "Missing argument"),
        (["fetch", "http://a.example/", "--mode", "fancy"], "--mode"),
        (["token", "new", "x", "--class", "admin"], "standard or restricted"),
        (["--no-such-flag"], "No such option"),
    ],
)
def test_usage_errors_exit_2_with_one_line(sift: Sift, argv: list[str], needle: str) -> None:
    code, out, err = sift(*argv)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sift: ") and needle in lines[0]
    assert "Traceback" not in err


def test_bare_groups_print_their_help(sift: Sift) -> None:
    code, out, _ = sift("batch")
    assert code == 2 and "submit" in out and "retry" in out


def test_bad_targets_files_are_usage_errors(sift: Sift, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[{]")
    code, _, err = sift("batch", "submit", str(bad))
    assert code == 2 and "not valid JSON" in err
    code, _, err = sift("batch", "submit", "-", stdin="\n# nothing\n")
    assert code == 2 and "stdin: no targets" in err


def test_missing_token_is_usage(sift: Sift, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SIFT_TOKEN")
    code, _, err = sift("batch", "status", "abc")
    assert code == 2 and "SIFT_TOKEN" in err


def test_unreachable_server_is_3(sift: Sift) -> None:
    from sift_cli.procs import free_port

    url = f"http://127.0.0.1:{free_port()}"
    code, _, err = sift("batch", "status", "abc", "--url", url)
    assert code == 3 and err.startswith("sift: cannot reach") and len(err.splitlines()) == 1


def test_flags_override_the_environment(sift: Sift, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIFT_TOKEN", "wrong-token")
    code, _, err = sift("batch", "status", "abc")
    assert code == 1 and "401" in err
    code, _, err = sift("batch", "status", "abc", "--token", "alice-token")
    assert code == 1 and "404" in err  # authenticated now: the job is unknown


def test_refusals_are_1_with_the_servers_reason(sift: Sift, site: LocalSite) -> None:
    code, _, err = sift("batch", "submit", "-", stdin="http://10.0.0.1/\n")
    assert code == 1
    assert err.startswith("sift: 422 blocked: targets[0].url:") and "(hint: browser)" in err
    code, _, err = sift("fetch", "http://127.0.0.1:8081/x")
    assert code == 1 and "422 blocked:" in err
    code, _, err = sift("batch", "cancel", "0123")
    assert code == 1 and "404 not_found" in err


# --- the verbs against the real stack -------------------------------------------------------


def test_submit_lines_then_wait_status_result(sift: Sift, site: LocalSite, tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text(f"# two documents\n{site.url('/one.txt')}\n{site.url('/two.txt')}\n")
    code, out, _ = sift("batch", "submit", str(urls))
    assert code == 0 and out.splitlines()[1] == "reused: false"
    job = job_id_of(out)
    code, out, err = sift("batch", "wait", job, "--timeout", "60")
    assert code == 0, err
    assert f"job {job}: done (2/2 finished, 0 failed)" in out
    assert "batch [" in err and "2/2 done" in err  # the progress bar, on stderr
    code, out, _ = sift("batch", "submit", str(urls))
    assert code == 0 and job_id_of(out) == job and "reused: true" in out
    code, out, _ = sift("batch", "status", job)
    status = json.loads(out)
    assert status["job_id"] == job and [t["status"] for t in status["targets"]] == ["done"] * 2
    code, out, _ = sift("batch", "result", job, "1")
    assert code == 0 and out == "another document\n"
    code, out, _ = sift("batch", "result", job, "0", "--json")
    assert code == 0 and json.loads(out)["result"]["content"].startswith("first line")
    code, out, _ = sift("batch", "result", job, "-o", str(tmp_path / "out"))
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert code == 0 and written == ["0.json", "1.json"]
    assert json.loads((tmp_path / "out" / "1.json").read_text())["result"]["success"] is True
    code, out, _ = sift("batch", "result", job)
    assert code == 0 and len(json.loads(out)["targets"]) == 2
    code, _, err = sift("batch", "cancel", job)
    assert code == 1 and "409" in err and "(done)" in err


def test_submit_stdin_json_wait_partial_and_retry(sift: Sift, site: LocalSite) -> None:
    targets = [
        {"url": site.url("/data.json"), "jq": ".items[0]"},
        {"url": site.url("/gone")},
        {"url": site.url("/boom"), "grep": "down"},
    ]
    code, out, err = sift("batch", "submit", "-", "--wait", stdin=json.dumps({"targets": targets}))
    assert code == 4, err  # partial
    job = job_id_of(out)
    assert "partial (3/3 finished, 2 failed)" in out
    assert "[1] failed" in out and "(hint: recover)" in out and "(retryable)" in out
    code, out, _ = sift("batch", "result", job, "0")
    assert code == 0 and out.strip() == '"x"'
    code, _, err = sift("batch", "result", job, "1")
    assert code == 1 and "target 1 failed: upstream:" in err
    code, out, err = sift("batch", "retry", job, "--wait", "--json")
    assert code == 4 and "retrying 1 target(s)" in err
    retried = json.loads(out)
    assert [(t["url"], t["options"]["grep"]) for t in retried["targets"]] == [
        (site.url("/boom"), "down")
    ]
    assert retried["status"] == "failed"


def test_cancel_and_wait_timeout(sift: Sift, site: LocalSite, gate: Gate) -> None:
    code, out, _ = sift(
        "batch", "submit", "-", stdin=f"{site.url('/hold')}\n{site.url('/one.txt?x')}\n"
    )
    job = job_id_of(out)
    for _ in range(300):  # until the worker is inside target 0 (bounded, never a timing check)
        if site.count("/hold"):
            break
        time.sleep(0.05)
    code, out, _ = sift("batch", "wait", job, "--timeout", "0.5")
    assert code == 5 and f"job {job}: running" in out
    code, out, _ = sift("batch", "retry", job)
    assert code == 1
    code, out, _ = sift("batch", "cancel", job)
    assert code == 0 and out.strip() == "cancelled"
    gate.open()
    code, out, _ = sift("batch", "wait", job, "--timeout", "60")
    assert code == 4 and "cancelled" in out
    assert site.count("/one.txt?x") == 0


def test_fetch_prints_content_or_envelope(sift: Sift, site: LocalSite) -> None:
    code, out, _ = sift("fetch", site.url("/one.txt"), "--grep", "second")
    assert code == 0 and out == "2: second line\n"
    code, out, _ = sift("fetch", site.url("/data.json"), "--jq", ".items | length", "--json")
    envelope = json.loads(out)
    assert code == 0 and envelope["success"] is True and envelope["content"].strip() == "2"
    code, out, err = sift("fetch", site.url("/gone"), "--json")
    assert code == 1 and json.loads(out)["success"] is False and "502 upstream:" in err


def test_fetch_prints_a_pages_clean_text_under_its_headline(sift: Sift, site: LocalSite) -> None:
    code, out, _ = sift("fetch", site.url("/pruning"))
    assert code == 0
    headline, _, text = out.partition("\n\n")
    assert headline == "# Winter pruning"
    assert text.startswith("Apple trees are pruned in winter") and "Winter pruning" not in text
    code, out, _ = sift("fetch", site.url("/pruning"), "--mode", "raw")
    assert code == 0 and out.startswith("<!doctype html>")


def test_token_new_prints_a_working_callers_table(sift: Sift) -> None:
    code, out, _ = sift("token", "new", "reader", "--class", "restricted")
    assert code == 0
    token_line, _, table = out.partition("\n\n")
    token = token_line.removeprefix("token: ")
    caller = tomllib.loads(table)["callers"][0]
    assert caller == {"name": "reader", "token_sha256": token_hash(token), "class": "restricted"}


def test_the_installed_command_never_prints_a_traceback(stack: Stack) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sift_cli", "batch", "status", "nope"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={"PATH": "/usr/bin:/bin", **stack.env("bob")},
        timeout=60,
    )
    assert proc.returncode == 1
    assert proc.stderr == "sift: 404 not_found: no such batch job\n"
