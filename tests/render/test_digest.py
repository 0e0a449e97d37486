"""The LLM digest against a fake OpenAI-compatible endpoint on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from sift_fetch.config import DigestConfig
from sift_fetch.digest import DigestFailed, digest_answer, endpoint

PASSAGES = ["Water deeply every morning in hot weather.", "Mulch the surface to slow evaporation."]


@dataclass
class FakeLLM:
    status: int = 200
    reply: bytes = b""
    delay: float = 0.0
    requests: list[dict[str, Any]] = field(default_factory=list)

    def answer(self, content: str) -> None:
        message = {"role": "assistant", "content": content}
        self.reply = json.dumps({"choices": [{"index": 0, "message": message}]}).encode()


@pytest.fixture
def llm() -> Iterator[tuple[FakeLLM, str]]:
    fake = FakeLLM()
    fake.answer("Every morning in hot weather [1].")

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: object) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            fake.requests.append(
                {
                    "path": self.path,
                    "headers": dict(self.headers),
                    "body": json.loads(self.rfile.read(length)),
                }
            )
            time.sleep(fake.delay)
            self.send_response(fake.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(fake.reply)))
            self.end_headers()
            self.wfile.write(fake.reply)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield fake, f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _ask(cfg: DigestConfig, passages: list[str] = PASSAGES) -> str:
    async def go() -> str:
        async with httpx.AsyncClient(trust_env=False) as client:
            return await digest_answer(client, cfg, "How often should I water?", passages)

    return asyncio.run(go())


def test_answer_comes_back_and_the_request_is_a_chat_completion(
    llm: tuple[FakeLLM, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, url = llm
    monkeypatch.setenv("SIFT_TEST_DIGEST_KEY", "sk-test-123")
    cfg = DigestConfig(url=url, model="tiny-model", api_key_env="SIFT_TEST_DIGEST_KEY")
    assert _ask(cfg) == "Every morning in hot weather [1]."
    (request,) = fake.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == "Bearer sk-test-123"
    body = request["body"]
    assert body["model"] == "tiny-model"
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    user = body["messages"][1]["content"]
    assert "How often should I water?" in user
    assert "[1]\nWater deeply every morning in hot weather." in user
    assert "[2]\nMulch the surface" in user


def test_no_key_means_no_authorization_header(
    llm: tuple[FakeLLM, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, url = llm
    monkeypatch.delenv("SIFT_TEST_DIGEST_KEY", raising=False)
    _ask(DigestConfig(url=url + "/chat/completions", api_key_env="SIFT_TEST_DIGEST_KEY"))
    (request,) = fake.requests
    assert request["path"] == "/v1/chat/completions"  # a full endpoint URL is used as given
    assert "Authorization" not in request["headers"]
    assert "model" not in request["body"]


def test_passages_are_clipped_to_the_input_budget(llm: tuple[FakeLLM, str]) -> None:
    fake, url = llm
    _ask(DigestConfig(url=url, max_input_chars=300), ["x" * 250, "y" * 250, "z" * 250])
    user = fake.requests[0]["body"]["messages"][1]["content"]
    assert "x" * 250 in user and "z" not in user and user.count("y") < 250


@pytest.mark.parametrize(
    ("status", "reply", "words"),
    [
        (500, b'{"error": "overloaded"}', "HTTP 500"),
        (200, b"not json", "not a chat completion"),
        (200, b'{"choices": []}', "not a chat completion"),
        (200, b'{"choices": [{"message": {"content": "  "}}]}', "empty answer"),
    ],
)
def test_bad_replies_fail_as_digest_errors(
    llm: tuple[FakeLLM, str], status: int, reply: bytes, words: str
) -> None:
    fake, url = llm
    fake.status, fake.reply = status, reply
    with pytest.raises(DigestFailed) as caught:
        _ask(DigestConfig(url=url))
    assert words in caught.value.message


def test_a_slow_endpoint_times_out(llm: tuple[FakeLLM, str]) -> None:
    fake, url = llm
    fake.delay = 1.0
    with pytest.raises(DigestFailed) as caught:
        _ask(DigestConfig(url=url, timeout=0.3))
    assert "did not answer within 0.3 s" in caught.value.message


def test_an_unreachable_endpoint_fails_without_leaking_the_url() -> None:
    with pytest.raises(DigestFailed) as caught:
        _ask(DigestConfig(url="http://user:secret@127.0.0.1:9/v1"))
    assert "unreachable" in caught.value.message
    assert "secret" not in caught.value.message


def test_unconfigured_digest_fails() -> None:
    with pytest.raises(DigestFailed):
        _ask(DigestConfig())


def test_endpoint_joining() -> None:
    assert endpoint("https://api.example.com/v1/") == "https://api.example.com/v1/chat/completions"
    assert endpoint("http://h/x/chat/completions") == "http://h/x/chat/completions"
