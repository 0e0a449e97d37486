"""RenderPool: results and errors cross the process boundary intact; runaway programs die alone.

Timeouts here are short (2 s) so the runaway tests stay quick; no test asserts a duration.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from sift_fetch.errors import BadRequest, Busy, FetchError, Timeout, Unsupported
from sift_fetch.render import Document, RenderPool, render
from sift_fetch.render.pool import INLINE_MAX_BYTES, renders_inline
from sift_fetch.target import Target
from tests.render.conftest import ARTICLE_URL, make_doc

RUNAWAY = "def f: f; f"
JSON_DOC = make_doc('{"items": [1, 2, 3]}', "application/json", "https://api.example.com/x")


@pytest.fixture(scope="module")
def pool() -> Iterator[RenderPool]:
    pool = RenderPool(workers=2, queue=2, timeout=2.0)
    yield pool
    pool.close()


async def _outcome(pool: RenderPool, doc: Document, target: Target) -> object:
    try:
        return await pool.render(doc, target, 60_000)
    except FetchError as exc:
        return exc


def test_worker_renders_what_render_renders(pool: RenderPool, article: Document) -> None:
    target = Target(ARTICLE_URL, question="how often to water?", context=True)
    assert asyncio.run(pool.render(article, target, 60_000)) == render(article, target, 60_000)


@pytest.mark.parametrize(
    ("doc", "target", "kind"),
    [
        (make_doc(b"\x89PNG", "image/png"), Target(ARTICLE_URL), Unsupported),
        (JSON_DOC, Target(JSON_DOC.url, jq=".items[ | oops"), BadRequest),
        (make_doc("<p>x</p>", "text/html"), Target(ARTICLE_URL, grep=r"(x)\1"), BadRequest),
    ],
)
def test_child_errors_keep_their_class_message_and_hint(
    pool: RenderPool, doc: Document, target: Target, kind: type[FetchError]
) -> None:
    with pytest.raises(kind) as in_process:
        render(doc, target, 1000)
    from_worker = asyncio.run(_outcome(pool, doc, target))
    assert type(from_worker) is kind
    assert isinstance(from_worker, FetchError)
    assert from_worker.message == in_process.value.message
    assert from_worker.hint == in_process.value.hint


def test_runaway_jq_is_stopped_while_other_work_goes_on(
    pool: RenderPool, article: Document
) -> None:
    async def scenario() -> tuple[object, object, object]:
        runaway = asyncio.create_task(_outcome(pool, JSON_DOC, Target(JSON_DOC.url, jq=RUNAWAY)))
        normal = await pool.render(article, Target(ARTICLE_URL), 60_000)
        stopped = await runaway
        after = await pool.render(JSON_DOC, Target(JSON_DOC.url, jq=".items | add"), 1000)
        return normal, stopped, after

    normal, stopped, after = asyncio.run(scenario())
    assert normal == render(article, Target(ARTICLE_URL), 60_000)
    assert isinstance(stopped, BadRequest)
    assert stopped.message == "bad_request: jq program ran longer than 2 s and was stopped"
    assert after.content == "6"  # type: ignore[attr-defined]


@pytest.mark.parametrize("program", ["[range(1e10)]", "[repeat(1)]", "last(range(1e12))"])
def test_programs_that_never_finish_end_as_bad_requests(pool: RenderPool, program: str) -> None:
    outcome = asyncio.run(_outcome(pool, JSON_DOC, Target(JSON_DOC.url, jq=program)))
    assert isinstance(outcome, BadRequest)
    assert "jq program" in outcome.message


def test_a_full_pool_answers_busy_at_once() -> None:
    pool = RenderPool(workers=1, queue=0, timeout=2.0)
    try:

        async def scenario() -> tuple[object, object, object]:
            slow = asyncio.create_task(_outcome(pool, JSON_DOC, Target(JSON_DOC.url, jq=RUNAWAY)))
            await asyncio.sleep(0)  # let the slow task take the only slot
            refused = await _outcome(pool, JSON_DOC, Target(JSON_DOC.url, jq="."))
            return refused, await slow, await _outcome(pool, JSON_DOC, Target(JSON_DOC.url))

        refused, slow, later = asyncio.run(scenario())
        assert isinstance(refused, Busy)
        assert refused.message == "busy: render pool full"
        assert refused.hint == "retry" and refused.retry_after is not None
        assert isinstance(slow, BadRequest)
        assert '"items"' in later.content  # type: ignore[attr-defined]
    finally:
        pool.close()


def test_cancelling_a_request_frees_its_slot() -> None:
    pool = RenderPool(workers=1, queue=0, timeout=60.0)
    try:

        async def scenario() -> object:
            slow = asyncio.create_task(pool.render(JSON_DOC, Target(JSON_DOC.url, jq=RUNAWAY), 10))
            await asyncio.sleep(0.5)
            slow.cancel()
            with pytest.raises(asyncio.CancelledError):
                await slow
            # The runaway's worker is killed and replaced; the slot is free again.
            return await pool.render(JSON_DOC, Target(JSON_DOC.url, jq=".items[0]"), 100)

        assert asyncio.run(scenario()).content == "1"  # type: ignore[attr-defined]
    finally:
        pool.close()


def test_memory_explosion_is_a_bad_request_naming_memory() -> None:
    pool = RenderPool(workers=1, queue=0, timeout=60.0, memory_limit=384 << 20)
    try:
        outcome = asyncio.run(_outcome(pool, JSON_DOC, Target(JSON_DOC.url, jq="[range(1e9)]")))
        assert isinstance(outcome, BadRequest)
        assert outcome.message == (
            "bad_request: jq program needed more than 384 MiB of memory and was stopped"
        )
        after = asyncio.run(_outcome(pool, JSON_DOC, Target(JSON_DOC.url, jq=".items[2]")))
        assert after.content == "3"  # type: ignore[attr-defined]
    finally:
        pool.close()


def test_slow_rendering_without_a_program_is_a_timeout() -> None:
    rows = "".join(f"<div><h2>Part {n}</h2><p>Text of part {n}.</p></div>" for n in range(150_000))
    doc = make_doc(f"<html><body>{rows}</body></html>", "text/html")
    pool = RenderPool(workers=1, queue=0, timeout=0.2)
    try:
        outcome = asyncio.run(_outcome(pool, doc, Target(doc.url, mode="full")))
        assert isinstance(outcome, Timeout)
        assert outcome.message == "timeout: rendering took longer than 0.2 s"
    finally:
        pool.close()


HTML_PAGE = make_doc("<html><head><title>T</title></head><body><p>x</p></body></html>", "text/html")


@pytest.mark.parametrize(
    ("doc", "target", "inline"),
    [
        (HTML_PAGE, Target(HTML_PAGE.url, mode="raw"), True),
        (make_doc("alpha\nbeta\n", "text/plain"), Target("https://example.com/t"), True),
        (JSON_DOC, Target(JSON_DOC.url), True),
        (JSON_DOC, Target(JSON_DOC.url, jq=".items"), False),  # the agent's program
        (HTML_PAGE, Target(HTML_PAGE.url), False),  # clean mode: extraction
        (HTML_PAGE, Target(HTML_PAGE.url, mode="raw", context=True), False),  # parses the page
        (HTML_PAGE, Target(HTML_PAGE.url, mode="raw", grep="x"), False),
        (HTML_PAGE, Target(HTML_PAGE.url, mode="raw", question="x?"), False),
        (make_doc("x" * (INLINE_MAX_BYTES + 1), "text/plain"), Target("https://e.com/"), False),
        (make_doc("%PDF-1.7 ...", "application/pdf"), Target("https://e.com/a.pdf"), False),
        (make_doc("\x89PNG", "image/png"), Target("https://e.com/a.png"), False),
    ],
)
def test_only_cheap_renders_skip_the_pool(doc: Document, target: Target, inline: bool) -> None:
    assert renders_inline(doc, target) is inline


def test_a_cheap_render_needs_no_pool() -> None:
    stopped = RenderPool(workers=1, queue=1, timeout=2.0)
    stopped.close()
    target = Target(HTML_PAGE.url, mode="raw")
    out = asyncio.run(stopped.render(HTML_PAGE, target, 60_000))
    assert out == render(HTML_PAGE, target, 60_000) and out.title == "T"
