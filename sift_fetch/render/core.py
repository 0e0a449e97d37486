"""`render(doc, target, max_chars)`: the one pure function from fetched bytes to the agent's answer.

Steps: pick the renderer by content type, render the body to text (HTML by mode, PDF pages, JSON
through jq, text as is), then apply `grep` or `question`, cut the result at `max_chars` on a line
boundary, and build `context` if asked. `mode` matters for HTML, and `raw` also for JSON (the
body as sent instead of pretty-printed); PDF and text types ignore it.

CPU-bound and synchronous: the API and the worker call it through RenderPool, which runs it in a
separate process under time and memory limits (in-process, a runaway jq program would hang).
"""

from __future__ import annotations

from sift_fetch.errors import BadRequest
from sift_fetch.render import context as ctx
from sift_fetch.render.decode import Kind, classify, decode
from sift_fetch.render.grep import grep
from sift_fetch.render.html import render_html
from sift_fetch.render.jsonq import render_json, run_jq
from sift_fetch.render.model import Body, Document, Rendered
from sift_fetch.render.pdf import render_pdf
from sift_fetch.render.question import best_passages, split_sentences
from sift_fetch.render.text import render_text
from sift_fetch.target import Target

# grep and question must see more than what fits in the answer; this bounds how much more.
SCAN_CHARS = 5_000_000


def _check(kind: Kind, target: Target) -> None:
    if target.grep and target.question:
        raise BadRequest("grep and question cannot be combined; send one of them")
    if target.jq and kind != "json":
        raise BadRequest(f"jq applies to JSON documents; this one is {kind.upper()}")
    if target.pages and kind != "pdf":
        raise BadRequest(f"pages applies to PDF documents; this one is {kind.upper()}")


def _body(kind: Kind, doc: Document, target: Target, budget: int) -> Body:
    if kind == "pdf":
        return render_pdf(doc, target.pages, budget, want_meta=target.context)
    if kind == "html":
        return render_html(doc, decode(doc, sniff_html=True), target.mode, context=target.context)
    text = decode(doc)
    if kind == "json" and target.jq:
        return run_jq(target.jq, text, budget)
    if kind == "json":
        return render_json(text, target.mode, budget)
    return render_text(doc, text)


def truncate(text: str, max_chars: int) -> tuple[str, bool]:
    """`text` cut to at most `max_chars`, at the last line break when there is one."""
    if len(text) <= max_chars:
        return text, False
    head = text[:max_chars]
    newline = head.rfind("\n")
    return (head[:newline] if newline > 0 else head), True


def render(doc: Document, target: Target, max_chars: int) -> Rendered:
    kind = classify(doc)
    _check(kind, target)
    searching = bool(target.grep or target.question)
    budget = max(max_chars, SCAN_CHARS) if searching else max_chars
    body = _body(kind, doc, target, budget)
    text, source_cut = truncate(body.text, budget)
    source_cut = source_cut or body.cut

    hits: list[int] | None = None
    passages: list[str] = []
    if target.grep:
        found = grep(text, target.grep, max_chars)
        content, hits, cut = found.content, found.lines, found.cut
    elif target.question:
        chosen = best_passages(target.question, split_sentences(text, body.headings))
        passages = [p.text for p in chosen]
        hits = [p.line for p in chosen]
        content, cut = "\n\n".join(passages), False
    else:
        content, cut = text, False
    content, over = truncate(content, max_chars)

    context = None
    if target.context:
        context = ctx.build(doc.url, body.title, body, hits)
    return Rendered(
        title=body.title,
        content=content,
        truncated=source_cut or cut or over,
        context=context,
        passages=passages,
    )
