"""A page's visible text, one numbered line per HTML block, for picking an article's gold text.

    .venv/bin/python bench/visible_lines.py PAGE.html[.gz] [--noscript] [--width N]
    .venv/bin/python bench/visible_lines.py PAGE.html[.gz] --pick 12-40,43 > bench/articles/X.txt

No extractor is involved: the lines are the page's own blocks (a <pre> gives one line per line
of code), so the gold picked from them owes nothing to what any extractor keeps. With
--noscript the content of <noscript> counts as visible (a page that renders its article from a
script template and repeats it there, as Blogger does).
"""

from __future__ import annotations

import argparse
import gzip
import re
from pathlib import Path

import lxml.html

BLOCK = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "br",
        "button",
        "caption",
        "center",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "html",
        "label",
        "legend",
        "li",
        "main",
        "menu",
        "nav",
        "ol",
        "option",
        "p",
        "pre",
        "section",
        "select",
        "summary",
        "table",
        "tbody",
        "td",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    ]
)
INVISIBLE = frozenset({"script", "style", "template", "svg", "head", "iframe", "object", "canvas"})
_SPACE = re.compile(r"\s+")


def _hidden(element: lxml.html.HtmlElement) -> bool:
    style = (element.get("style") or "").replace(" ", "").lower()
    return (
        element.get("hidden") is not None or "display:none" in style or "visibility:hidden" in style
    )


SOFT_HYPHEN = "\u00ad"
# lxml refuses a str that declares its own encoding; the text is decoded already.
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


def visible_lines(html: str, noscript: bool = False) -> list[str]:
    skip = INVISIBLE if noscript else INVISIBLE | {"noscript"}
    lines: list[str] = []
    pending: list[str] = []

    def flush(pre: bool) -> None:
        # A soft hyphen shows only where the browser breaks the word across lines: the text a
        # reader reads has none (a German press office's page has one every few syllables).
        text = "".join(pending).replace(SOFT_HYPHEN, "")
        pending.clear()
        if pre:
            lines.extend(line.rstrip() for line in text.split("\n") if line.strip())
        elif text := _SPACE.sub(" ", text).strip():
            lines.append(text)

    def walk(element: lxml.html.HtmlElement, in_pre: bool) -> None:
        tag = element.tag.lower() if isinstance(element.tag, str) else None
        if tag is not None and tag not in skip and not _hidden(element):
            block, pre = tag in BLOCK, in_pre or tag == "pre"
            if block:
                flush(pre)
            pending.append(element.text or "")
            for child in element:
                walk(child, pre)
            if block:
                flush(pre)
        pending.append(element.tail or "")

    document = lxml.html.fromstring(_XML_DECLARATION.sub("", html, count=1))
    body = document.find("body")
    walk(body if body is not None else document, False)
    flush(False)
    return lines


def picked(spec: str) -> list[int]:
    """Line numbers from '12-40,43'."""
    numbers: list[int] = []
    for part in spec.split(","):
        first, _, last = part.partition("-")
        numbers.extend(range(int(first), int(last or first) + 1))
    return numbers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("--noscript", action="store_true", help="count <noscript> as visible")
    parser.add_argument("--width", type=int, default=0, help="cut lines to N characters")
    parser.add_argument("--pick", help="print only these lines, unnumbered: the gold text")
    args = parser.parse_args()
    raw = args.page.read_bytes()
    if args.page.suffix == ".gz":
        raw = gzip.decompress(raw)
    lines = visible_lines(raw.decode("utf-8", "replace"), args.noscript)
    if args.pick:
        for number in picked(args.pick):
            print(lines[number])
        return
    for number, line in enumerate(lines):
        print(number, line[: args.width] if args.width else line)


if __name__ == "__main__":
    main()
