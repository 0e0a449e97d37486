"""`GET /openapi.json`: the API described by hand, close to the code it describes.

The vocabularies (modes, hints, statuses, body caps, the wait limit) are taken from the modules
that enforce them, so the document cannot drift from them; a schemathesis run in the tests
checks every answer against it.
"""

from __future__ import annotations

import typing
from typing import Any

from starlette.requests import Request

from sift_api.batch import MAX_WAIT_SECONDS
from sift_api.bodycap import BATCH_CAP, DEFAULT_CAP
from sift_api.firecrawl import CONTENT_FORMATS, IGNORED, METADATA_FORMATS, SUMMARY
from sift_api.responses import JSONResponse
from sift_fetch.errors import Hint
from sift_fetch.target import MAX_PROGRAM_CHARS, MAX_URL_CHARS, MODES
from sift_store.batch import JobStatus, TargetStatus

REF = "#/components/schemas/"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "nullable": True}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _failure(description: str) -> dict[str, Any]:
    return _json(_ref("Failure"), description)


def _retry_after(description: str) -> dict[str, Any]:
    return {**_failure(description), "headers": {"Retry-After": {"schema": {"type": "integer"}}}}


_PROGRAM = {"type": "string", "minLength": 1, "maxLength": MAX_PROGRAM_CHARS}

TARGET = {
    "type": "object",
    "description": "One target: a URL and what to keep of it.",
    "required": ["url"],
    "additionalProperties": False,
    "properties": {
        "url": {"type": "string", "minLength": 1, "maxLength": MAX_URL_CHARS},
        "mode": {"type": "string", "enum": list(MODES), "default": "clean"},
        "question": _nullable({**_PROGRAM, "description": "Keep the passages answering this."}),
        "pages": _nullable({**_PROGRAM, "description": 'PDF pages, like "1-3,7".'}),
        "grep": _nullable({**_PROGRAM, "description": "Keep lines matching this regex."}),
        "jq": _nullable({**_PROGRAM, "description": "A jq program for JSON documents."}),
        "context": {"type": "boolean", "default": False},
        "recover": {"type": "boolean", "default": False},
    },
}

FAILURE = {
    "type": "object",
    "required": ["success", "error", "hint"],
    "properties": {
        "success": {"type": "boolean", "enum": [False]},
        "error": {"type": "string", "description": "`kind: detail`, e.g. `blocked: …`"},
        # OpenAPI 3.0: a nullable enum lists null among its values.
        "hint": _nullable({"type": "string", "enum": [*typing.get_args(Hint), None]}),
        "retry_after": {"type": "number"},
        "status": {"type": "integer", "description": "The upstream HTTP status."},
        "index": {"type": "integer", "description": "Batch submit: the refused target."},
    },
}

ENVELOPE = {
    "type": "object",
    "required": [
        "success",
        "url",
        "final_url",
        "status",
        "content_type",
        "title",
        "content",
        "truncated",
        "bytes",
        "cached",
    ],
    "properties": {
        "success": {"type": "boolean", "enum": [True]},
        "url": {"type": "string"},
        "final_url": {"type": "string"},
        "status": {"type": "integer"},
        "content_type": {"type": "string"},
        "title": _nullable({"type": "string"}),
        "content": {"type": "string"},
        "truncated": {"type": "boolean"},
        "bytes": {"type": "integer"},
        "cached": {"type": "boolean"},
        "hint": {"type": "string"},
        "context": {"type": "object"},
        "recovered_from": {"type": "string"},
        "answer": _nullable({"type": "string"}),
    },
}

TARGET_ROW = {
    "type": "object",
    "required": ["idx", "url", "options", "status"],
    "properties": {
        "idx": {"type": "integer", "minimum": 0},
        "url": {"type": "string"},
        "options": {"type": "object", "description": "The target's other fields, as stored."},
        "status": {"type": "string", "enum": list(typing.get_args(TargetStatus))},
        "error": _nullable({"type": "string"}),
        "hint": _nullable({"type": "string"}),
        "retryable": {"type": "boolean"},
        "retry_after": {"type": "number"},
        "result": {
            "description": "The target's envelope, once it has finished.",
            "oneOf": [_ref("Envelope"), _ref("Failure")],
        },
    },
}

_TIME = {"type": "string", "format": "date-time"}

JOB = {
    "type": "object",
    "required": [
        "success",
        "job_id",
        "status",
        "targets_total",
        "targets_done",
        "targets_failed",
        "created_at",
        "started_at",
        "finished_at",
        "expires_at",
        "targets",
    ],
    "properties": {
        "success": {"type": "boolean", "enum": [True]},
        "job_id": {"type": "string"},
        "status": {"type": "string", "enum": list(typing.get_args(JobStatus))},
        "targets_total": {"type": "integer"},
        "targets_done": {"type": "integer", "description": "Finished targets, ok or failed."},
        "targets_failed": {"type": "integer"},
        "created_at": _TIME,
        "started_at": _nullable(_TIME),
        "finished_at": _nullable(_TIME),
        "expires_at": {**_TIME, "description": "When the job is deleted unless read again."},
        "error": {"type": "string"},
        "targets": {"type": "array", "items": _ref("TargetRow")},
    },
}

SCRAPE = {
    "type": "object",
    "description": "Firecrawl's scrape request (firecrawl-py 4.x). Other fields are refused.",
    "required": ["url"],
    "additionalProperties": False,
    "properties": {
        "url": {"type": "string", "minLength": 1, "maxLength": MAX_URL_CHARS},
        "formats": {
            "type": "array",
            "items": {
                "type": "string",
                "enum": [*CONTENT_FORMATS, *sorted(METADATA_FORMATS), SUMMARY],
            },
            "default": ["markdown"],
        },
        "onlyMainContent": {"type": "boolean", "default": True},
        "headers": {"type": "object", "maxProperties": 0, "description": "Refused if set."},
        "actions": {"type": "array", "maxItems": 0, "description": "Needs a browser: refused."},
        **{name: {"description": "Accepted and ignored."} for name in sorted(IGNORED)},
    },
}

SCRAPED = {
    "type": "object",
    "required": ["success", "data"],
    "properties": {
        "success": {"type": "boolean", "enum": [True]},
        "data": {
            "type": "object",
            "required": ["metadata"],
            "properties": {
                "markdown": {"type": "string"},
                "html": {"type": "string"},
                "rawHtml": {"type": "string"},
                "links": {"type": "array", "items": {"type": "string"}},
                "summary": {"type": "string"},
                "warning": {"type": "string"},
                "metadata": {
                    "type": "object",
                    "required": ["sourceURL", "url", "statusCode", "contentType", "cacheState"],
                    "properties": {
                        "title": _nullable({"type": "string"}),
                        "description": _nullable({"type": "string"}),
                        "language": _nullable({"type": "string"}),
                        "sourceURL": {"type": "string"},
                        "url": {"type": "string"},
                        "statusCode": {"type": "integer"},
                        "contentType": {"type": "string"},
                        "cacheState": {"type": "string", "enum": ["hit", "miss"]},
                    },
                },
            },
        },
    },
}

_JOB_ID = {"name": "job_id", "in": "path", "required": True, "schema": {"type": "string"}}
_AUTH = {"401": _failure("Missing or unknown bearer token.")}
_NOT_FOUND = {"404": _failure("No such job for this caller (another caller's job looks the same).")}
_UNAVAILABLE = {
    "503": _retry_after("The store is away for now (`unavailable:`); retry after Retry-After.")
}
_CHECKS = {
    "type": "object",
    "required": ["store_read", "store_write"],
    "properties": {
        "store_read": {"type": "string", "description": "`ok`, or why the store cannot be read."},
        "store_write": {"type": "string", "description": "`ok`, or why it cannot be written."},
    },
}


def document() -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Sift",
            "version": "1",
            "description": "A web-fetch service for AI agents; every target goes through an "
            "SSRF guard. Batch jobs are drained serially by a separate worker.",
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {
                "Target": TARGET,
                "Failure": FAILURE,
                "Envelope": ENVELOPE,
                "TargetRow": TARGET_ROW,
                "Job": JOB,
                "Scrape": SCRAPE,
                "Scraped": SCRAPED,
            },
        },
        "security": [{"bearer": []}],
        "paths": {
            "/v1/fetch": {"post": _fetch()},
            "/v1/batch": {"post": _submit()},
            "/v1/batch/{job_id}": {"get": _read_job(), "delete": _cancel()},
            "/v1/batch/{job_id}/{idx}": {"get": _read_target()},
            "/v2/scrape": {"post": _scrape()},
            "/v1/scrape": {"post": _scrape()},
            **{path: {"post": _not_offered(what)} for path, what in _NOT_OFFERED.items()},
            "/healthz": {"get": _healthz()},
            "/metrics": {
                "get": {
                    "summary": "Prometheus metrics (API and worker series).",
                    "security": [],
                    "responses": {
                        "200": {
                            "description": "Text exposition format.",
                            "content": {"text/plain": {"schema": {"type": "string"}}},
                        }
                    },
                }
            },
            "/openapi.json": {"get": _plain("This document.")},
        },
    }


def _plain(summary: str) -> dict[str, Any]:
    return {
        "summary": summary,
        "security": [],
        "responses": {"200": _json({"type": "object"}, "OK")},
    }


def _healthz() -> dict[str, Any]:
    healthy = {
        "type": "object",
        "required": ["ok", "checks"],
        "properties": {"ok": {"type": "boolean", "enum": [True]}, "checks": _CHECKS},
    }
    unhealthy = {
        "allOf": [
            _ref("Failure"),
            {
                "type": "object",
                "required": ["ok", "checks"],
                "properties": {"ok": {"type": "boolean", "enum": [False]}, "checks": _CHECKS},
            },
        ]
    }
    return {
        "summary": "Health: the process answers and can read and write its store.",
        "security": [],
        "responses": {
            "200": _json(healthy, "Healthy."),
            "503": {
                **_json(unhealthy, "The store cannot be read or written; `checks` says which."),
                "headers": {"Retry-After": {"schema": {"type": "integer"}}},
            },
        },
    }


def _fetch() -> dict[str, Any]:
    return {
        "summary": "Fetch one target now.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": TARGET}}},
        "responses": {
            "200": _json(_ref("Envelope"), "What was asked for, in `content`."),
            "400": _failure("Malformed body, a bad field, or a regex/jq program that failed."),
            **_AUTH,
            "413": _failure(f"Body over {DEFAULT_CAP // 1024} KiB."),
            "422": _failure("Refused by the guard (`blocked:`) or an unsupported type."),
            "429": _retry_after("Busy: a fetch gate is full; retry after Retry-After."),
            "499": _failure("Cancelled."),
            "502": _failure("The site failed (`upstream:`) or the body is too long."),
            **_UNAVAILABLE,
            "504": _failure("Timed out."),
        },
    }


def _scrape() -> dict[str, Any]:
    return {
        "summary": "Firecrawl-compatible single scrape, through the same pipeline as /v1/fetch.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": SCRAPE}}},
        "responses": {
            "200": _json(_ref("Scraped"), "A Firecrawl document."),
            "400": _failure(
                "A bad field, a browser-only or LLM format (`summary` without [digest]), "
                "headers or actions."
            ),
            **_AUTH,
            "403": _failure("Refused by the guard (`blocked:`)."),
            "408": _failure("Timed out."),
            "413": _failure(f"Body over {DEFAULT_CAP // 1024} KiB."),
            "422": _failure("The site failed, the body is too long, or an unsupported type."),
            "429": _retry_after("Busy: a fetch gate is full; retry after Retry-After."),
            "499": _failure("Cancelled."),
        },
    }


_NOT_OFFERED = {
    "/v2/batch/scrape": "Firecrawl batch scrape: not offered; use POST /v1/batch.",
    "/v1/batch/scrape": "Firecrawl batch scrape: not offered; use POST /v1/batch.",
    "/v2/search": "Firecrawl search: not offered.",
    "/v1/search": "Firecrawl search: not offered.",
}


def _not_offered(summary: str) -> dict[str, Any]:
    return {
        "summary": summary,
        "responses": {"400": _failure("Always: the error names what to use instead."), **_AUTH},
    }


def _submit() -> dict[str, Any]:
    body = {
        "type": "object",
        "required": ["targets"],
        "additionalProperties": False,
        "properties": {"targets": {"type": "array", "minItems": 1, "items": TARGET}},
    }
    submitted = {
        "type": "object",
        "required": ["success", "job_id", "status", "targets", "reused"],
        "properties": {
            "success": {"type": "boolean", "enum": [True]},
            "job_id": {"type": "string"},
            "status": {"type": "string", "enum": list(typing.get_args(JobStatus))},
            "targets": {"type": "integer"},
            "reused": {"type": "boolean"},
        },
    }
    return {
        "summary": "Submit a batch job; the same list again returns the same job.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
        "responses": {
            "202": {
                **_json(submitted, "Created, or reused (`reused: true`)."),
                "headers": {"Location": {"schema": {"type": "string"}}},
            },
            "400": _failure("Malformed body or target; `index` names the target."),
            **_AUTH,
            "413": _failure(f"Body over {BATCH_CAP // 1024} KiB."),
            "422": _failure("A target refused by the pre-check (`index`), or too many targets."),
            "429": _retry_after("The caller already has a live job, or the service is full."),
            **_UNAVAILABLE,
        },
    }


def _read_job() -> dict[str, Any]:
    return {
        "summary": "The job's summary; `results=1` inlines every result; `wait=S` long-polls.",
        "parameters": [
            _JOB_ID,
            {
                "name": "results",
                "in": "query",
                "schema": {"type": "integer", "enum": [0, 1]},
                "description": "1: include each finished target's envelope.",
            },
            {
                "name": "wait",
                "in": "query",
                "schema": {"type": "number", "minimum": 0, "maximum": MAX_WAIT_SECONDS},
                "description": "Answer when the job finishes or after this many seconds.",
            },
        ],
        "responses": {
            "200": _json(_ref("Job"), "The job, one row per target in input order."),
            "400": _failure("A bad query parameter."),
            **_AUTH,
            **_NOT_FOUND,
            **_UNAVAILABLE,
        },
    }


def _read_target() -> dict[str, Any]:
    row = {"allOf": [_ref("TargetRow"), {"type": "object", "required": ["job_id"]}]}
    return {
        "summary": "One target, with its result envelope once finished.",
        "parameters": [
            _JOB_ID,
            {"name": "idx", "in": "path", "required": True, "schema": {"type": "integer"}},
        ],
        "responses": {
            "200": _json(row, "The target."),
            **_AUTH,
            "404": _failure("No such job for this caller, or no such index."),
            **_UNAVAILABLE,
        },
    }


def _cancel() -> dict[str, Any]:
    cancelled = {
        "type": "object",
        "required": ["success", "status"],
        "properties": {
            "success": {"type": "boolean", "enum": [True]},
            "status": {"type": "string", "enum": ["cancelled"]},
        },
    }
    conflict = {"allOf": [_ref("Failure"), {"type": "object", "required": ["status"]}]}
    return {
        "summary": "Cancel: the in-flight target finishes and is stored; the rest stay pending.",
        "parameters": [_JOB_ID],
        "responses": {
            "200": _json(cancelled, "Cancelled."),
            **_AUTH,
            **_NOT_FOUND,
            "409": _json(conflict, "The job had already finished; `status` says how."),
            **_UNAVAILABLE,
        },
    }


DOCUMENT = document()


async def openapi_json(_request: Request) -> JSONResponse:
    return JSONResponse(DOCUMENT)
