"""The one JSON response class every route answers with: starlette's, encoded by orjson.

An envelope carries a whole page as text; the standard library's encoder was a fifth of a raw
fetch's time on the event loop (py-spy, bench/fetch_bench.py), orjson a tenth of that.
"""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import JSONResponse as _StarletteJSONResponse


class JSONResponse(_StarletteJSONResponse):
    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)
