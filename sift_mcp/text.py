"""What an agent reads: a fetch envelope or a batch summary as plain text.

The MCP tools answer with this text only (no structured copy beside it: clients show both and
the agent would pay for the content twice), and the CLI prints the same summary lines.
"""

from __future__ import annotations

from typing import Any


def failure(body: dict[str, Any]) -> str:
    """A failure envelope's `error` and `hint`, on one line."""
    line = str(body.get("error") or "error")
    if body.get("hint"):
        line += f" (hint: {body['hint']})"
    if body.get("retry_after") is not None:
        line += f" (retry after {body['retry_after']} s)"
    return line


def headline(envelope: dict[str, Any], options: dict[str, Any]) -> str | None:
    """The title as a Markdown heading, for showing above a page's clean text (OPTIONS are the
    target's): clean mode leaves the headline out of `content`, since `title` carries it."""
    title = envelope.get("title")
    clean_text = options.get("mode", "clean") == "clean" and not (
        options.get("grep") or options.get("jq")
    )
    if not title or not clean_text or str(envelope.get("content", "")).startswith(f"# {title}"):
        return None
    return f"# {title}"


def content(envelope: dict[str, Any], options: dict[str, Any]) -> str:
    """The content under its headline, after the digest's answer when there is one, and a note
    when it was cut."""
    parts = []
    if heading := headline(envelope, options):
        parts.append(heading)
    if envelope.get("answer"):
        parts.append(f"Answer: {envelope['answer']}\n\nPassages:")
    parts.append(str(envelope.get("content", "")))
    if envelope.get("truncated"):
        parts.append(
            f"[truncated: the document is longer than one result (hint: {envelope.get('hint')})]"
        )
    return "\n\n".join(parts)


def outcome_lines(summary: dict[str, Any]) -> list[str]:
    """One line per target: index, status, URL, and for a failure its error and hint."""
    lines = [
        f"job {summary['job_id']}: {summary['status']} "
        f"({summary['targets_done']}/{summary['targets_total']} finished, "
        f"{summary.get('targets_failed', 0)} failed)"
    ]
    for row in summary["targets"]:
        line = f"  [{row['idx']}] {row['status']:<7} {row['url']}"
        if row["status"] == "failed":
            line += f"\n        {row.get('error')}"
            if row.get("hint"):
                line += f" (hint: {row['hint']})"
            if row.get("retryable"):
                line += " (retryable)"
        lines.append(line)
    if summary.get("error"):
        lines.append(f"  job error: {summary['error']}")
    return lines
