"""`GET /healthz`: 200 when this process can read and write its store, else 503 naming what
fails (`checks`), in the failure envelope, with Retry-After."""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request

from sift_api.responses import JSONResponse
from sift_fetch.errors import Unavailable
from sift_fetch.runtime import Runtime
from sift_store.health import StoreHealth, check_store


def _checks(health: StoreHealth) -> dict[str, str]:
    return {"store_read": health.read or "ok", "store_write": health.write or "ok"}


class Unhealthy(Unavailable):
    def __init__(self, health: StoreHealth) -> None:
        super().__init__(health.read or health.write or "")
        self.checks = _checks(health)

    def envelope(self) -> dict[str, Any]:
        return {**super().envelope(), "ok": False, "checks": self.checks}


async def healthz(request: Request) -> JSONResponse:
    rt: Runtime = request.app.state.runtime
    health = await rt.store.run(check_store, time.time())
    if not health.ok:
        raise Unhealthy(health)
    return JSONResponse({"ok": True, "checks": _checks(health)})
