"""The HTTP client behind the client verbs: one request, one decoded JSON body, or a CliError.

Every failure is turned into a CliError here, so the verbs never see an httpx exception and the
user never sees a traceback: a non-2xx answer is REFUSED with the server's `error` and `hint`,
no answer at all is UNREACHABLE.
"""

from __future__ import annotations

from typing import Any

import httpx

from sift_cli.exits import REFUSED, UNREACHABLE, USAGE, CliError

DEFAULT_URL = "http://127.0.0.1:8080"
# Room on top of a long-poll's own wait before the client gives up on the server.
READ_MARGIN = 15.0


def resolve(url: str | None, token: str | None) -> tuple[str, str]:
    """URL and token as the options gave them (a flag, else SIFT_URL / SIFT_TOKEN); the URL
    defaults to a local `sift serve`."""
    url = url or DEFAULT_URL
    if not token:
        raise CliError("no token: set SIFT_TOKEN or pass --token", USAGE)
    if not url.startswith(("http://", "https://")):
        raise CliError(f"SIFT_URL/--url must start with http:// or https://, not {url!r}", USAGE)
    return url.rstrip("/"), token


class Client:
    def __init__(self, url: str | None, token: str | None, *, timeout: float = 300.0) -> None:
        self.base, token = resolve(url, token)
        # trust_env=False: a proxy from the environment must not see the bearer token by surprise.
        self._http = httpx.Client(
            base_url=self.base,
            headers={"Authorization": f"Bearer {token}", "User-Agent": "sift-cli"},
            timeout=httpx.Timeout(timeout, connect=10.0),
            trust_env=False,
        )

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_exc: object) -> None:
        self._http.close()

    def call(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: dict[str, Any] | None = None,
        wait: float = 0.0,
    ) -> dict[str, Any]:
        timeout = (
            httpx.Timeout(wait + READ_MARGIN, connect=10.0) if wait else httpx.USE_CLIENT_DEFAULT
        )
        try:
            response = self._http.request(method, path, json=body, params=params, timeout=timeout)
        except httpx.TransportError as exc:
            raise CliError(f"cannot reach {self.base}: {_reason(exc)}", UNREACHABLE) from None
        try:
            data = response.json()
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise CliError(
                f"{self.base} answered {response.status_code} without a Sift JSON body", REFUSED
            )
        if response.status_code >= 400:
            raise CliError(refusal(response.status_code, data), REFUSED, data)
        return data


def refusal(status: int, body: dict[str, Any]) -> str:
    """`422 blocked: … (hint: browser)`: what the server said, on one line."""
    line = f"{status} {body.get('error') or 'error'}"
    if body.get("hint"):
        line += f" (hint: {body['hint']})"
    if body.get("retry_after") is not None:
        line += f" (retry after {body['retry_after']} s)"
    return line.replace("\n", " ")


def _reason(exc: httpx.TransportError) -> str:
    if isinstance(exc, httpx.TimeoutException):
        return "no answer in time"
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0]
