"""HTML: `clean` (main content as Markdown), `full` (all visible text) and `raw` (the body).

`clean` is trafilatura's extraction, focused on precision, with its fallback extractors
(readability and jusText, consulted where its own result looks thin), and, where it kept little
of the page, a balanced extraction refereed by readability. It was chosen by measuring it against
trafilatura's other settings, other open extractors and votes among them (docs/clean-mode.md;
bench/article_quality.py and bench/clean_quality.py print the figures).
Markdown is written block by block from trafilatura's element tree, with its own serializer, so
that block quotes keep their `>` and code blocks their language, which its Markdown output drops.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from copy import deepcopy
from typing import Any

import trafilatura
from lxml import etree
from lxml.html import (
    HtmlComment,
    HtmlElement,
    HtmlEntity,
    HTMLParser,
    HtmlProcessingInstruction,
    document_fromstring,
)
from trafilatura.external import try_readability
from trafilatura.metadata import extract_title
from trafilatura.settings import Document as Extraction
from trafilatura.utils import INVALID_XML_CHARS
from trafilatura.xml import xmltotxt

from sift_fetch.errors import Unsupported
from sift_fetch.render.around_body import drop_around_body
from sift_fetch.render.asides import drop_role_asides
from sift_fetch.render.author_boxes import drop_author_boxes
from sift_fetch.render.callouts import keep_callouts
from sift_fetch.render.captions import drop_captions, lift_table_captions
from sift_fetch.render.code_figures import read_code_figures
from sift_fetch.render.comments import drop_comment_sections
from sift_fetch.render.context import html_meta
from sift_fetch.render.declared_body import declared_body, hold_to_declared
from sift_fetch.render.embedded_posts import keep_embedded_posts
from sift_fetch.render.escapes import drop_needless_escapes
from sift_fetch.render.fallback_blocks import restore_fallback_blocks
from sift_fetch.render.furniture import COPYRIGHT, title_words, trim_furniture
from sift_fetch.render.layout_tables import unwrap_layout_tables
from sift_fetch.render.link_lists import drop_link_lists
from sift_fetch.render.list_starts import list_starts, renumber
from sift_fetch.render.list_wrappers import unwrap_short_lists
from sift_fetch.render.loose_text import wrap_loose_text
from sift_fetch.render.model import Body, Document, Heading
from sift_fetch.render.nutrition import drop_nutrition
from sift_fetch.render.paragraph_divs import read_paragraph_divs
from sift_fetch.render.repeats import drop_repeated_passage
from sift_fetch.render.rich_text_embeds import keep_rich_text_embeds
from sift_fetch.render.roundup_headings import keep_roundup_headings
from sift_fetch.render.split_body import join_split_body
from sift_fetch.render.teasers import drop_teasers
from sift_fetch.render.text import markdown_headings, shingles, word_count, words_at_most
from sift_fetch.render.title import head_title, title_text
from sift_fetch.render.tree import loose_text

EXTRACT_OPTIONS: dict[str, Any] = {
    # Markdown is written here from trafilatura's element tree (_block_markdown). Asking it for
    # plain text keeps bold and italics out of that tree, and in precision mode they change what
    # it keeps: with them, a bold "More information:" or "Citation:" line survives the article's
    # end (bench/article_quality.py: F1 0.961 -> 0.964; tuning corpus 0.920 -> 0.921).
    "output_format": "txt",
    "include_links": False,  # link targets cost the agent tokens; context lists them instead
    "include_images": False,
    "include_tables": True,
    "include_comments": False,  # reader comments are noise for an agent reading the article
    "deduplicate": False,
    "favor_precision": True,
    "fast": False,
    "with_metadata": False,  # context reads the metadata, and only when asked
}

_SKIP = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "svg",
        "math",
        "head",
        "iframe",
        "object",
        "embed",
        "canvas",
        "select",
        "datalist",
        "input",
    }
)
_SKIP_BUT_NOSCRIPT = _SKIP - {"noscript"}
_BLOCK = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "caption",
        "dd",
        "details",
        "dialog",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "header",
        "hgroup",
        "hr",
        "html",
        "legend",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "section",
        "summary",
        "table",
        "tbody",
        "tfoot",
        "thead",
        "tr",
        "ul",
        "br",
        "center",
        "menu",
    }
)
# Inline elements that trafilatura deletes when empty (of its CUT_EMPTY_ELEMS), tail and all in
# precision mode.
_INLINE_PRUNED = ("b", "em", "i", "q", "span", "strong")
_HEADING_LEVEL = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_CELL = frozenset({"td", "th"})
# trafilatura costs about 60 µs per element (measured on a synthetic 60,000-element page: 3.4 s).
# Past this size `clean` falls back to the visible text, which is linear and ~10x cheaper, so a
# giant page still renders within the pool's time limit; grep and question then see it all.
CLEAN_MAX_ELEMENTS = 30_000
# trafilatura's fallbacks and the second opinion multiply that cost (up to ~4x on a big page);
# past this size clean mode runs trafilatura once without them, so the bound above still holds.
THOROUGH_MAX_ELEMENTS = 10_000
# huge_tree: without it libxml2 drops text nodes over 10 MB and everything nested deeper than 256.
_PARSER = HTMLParser(
    collect_ids=False, default_doctype=False, remove_comments=True, remove_pis=True, huge_tree=True
)
# lxml.html picks each element's class (FormElement, InputElement, ...) in a Python function
# that runs whenever an element is touched from Python, thousands of times per extraction. Every
# element as a plain HtmlElement, picked in C, takes ~2% off a clean render (bench/pages), with
# the same output on the 949 tuning pages: nothing here or in trafilatura uses the form classes.
_PARSER.set_element_class_lookup(
    etree.ElementDefaultClassLookup(
        element=HtmlElement, comment=HtmlComment, pi=HtmlProcessingInstruction, entity=HtmlEntity
    )
)
# lxml refuses str input that declares its own encoding; the text is decoded already.
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
# A script tag written self-closed (`<script src="x.js"/>`, as in XHTML) opens a script in HTML:
# browsers read what follows, up to `</script>`, as code. libxml2 closes it on the spot, so a
# recipe site's inline JavaScript came out as a paragraph of clean text. Rewritten as an
# opening tag before parsing (0.03-0.06 ms on the saved pages; 3 of the 949 tuning pages have one).
_SELF_CLOSED_SCRIPT = re.compile(r"(<script\b[^>]*?)\s*/>", re.I)
# A `</p>` with no `<p>` open is, to a browser, an empty paragraph: a break between the text on
# either side (eWEEK ends each paragraph so, with no `<p>` before it). libxml2 drops it, and the
# story ran together as one run of bare text, which precision mode drops. Where a page closes
# far more paragraphs than it opens, each close also opens the next paragraph.
_CLOSE_P = re.compile(r"</p\s*>", re.I)
# What is counted: "/" for a plain close, "" for an open.
_P_TAG = re.compile(r"<(?:(/)[pP]>|[pP][> \n\t])")
STRAY_CLOSES = 2  # closes per open, and more than STRAY_MIN_EXTRA more, to read them as stray
STRAY_MIN_EXTRA = 4
# A hidden inline element of this many words is prose the page hides, not a formula's markup.
HIDDEN_PROSE_MIN_WORDS = 10
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_BLANK_RUNS = re.compile(r"\n{3,}")
_BLANK_LINE = re.compile(r"\n\s*\n")
# A paragraph drawn with underscores ("___", a wire story's separator) is a thematic break, and
# is written as Markdown's usual one: underscores are word characters to a word count or search.
_UNDERSCORE_RULE = re.compile(r"(?:\\?_\s*){3,}$")
# When the precise extraction is this thin a share of the page's words, a balanced one and
# readability are asked too (~1 page in 9 of the tuning corpus; bench/clean_quality.py and
# bench/article_quality.py measure it). Asking on more pages finds more (at 0.35, tuning F1
# 0.9309 -> 0.9325, article pages 0.9717 -> 0.9719), but one of bench/pages' six, a blog post
# above its comments, then gets the second opinion too, and its cost takes the median page to
# 2.2x-2.3x trafilatura's (bench/render_bench.py), over the 2x budget.
SECOND_OPINION_SHARE = 0.2
# ... unless it has this many words: a whole short article, which a long page can dwarf (a post
# above a stream of other posts, where readability took one of those and the balanced
# extraction the stream). Any floor from 250 to 400 words moves that page alone on both
# yardsticks (round 21's newrepublic.com, F1 0.14 -> 1.00).
ARTICLE_WORDS = 300
# Where the balanced extraction holds this share of the precise one's 4-grams, it is the same
# article, and the prose it adds is what precision mode cut (lines of PROSE_MIN_WORDS or more).
HELD_SHARE = 0.95
PROSE_MIN_WORDS = 15
_SENTENCE_END = re.compile(r"[.!?\"\u201d\u2019)]\s*$")
# A block that opens with ©, (c) or "Copyright" and is this short is a credit or a notice, not
# prose (a longer one can be a paragraph that a photo credit runs into). Tuning corpus F1
# 0.922 -> 0.923, article pages precision 0.961 -> 0.962.
CREDIT_MAX_WORDS = 30
# What highlighters write for "no language": a fence labelled so tells the reader nothing.
_NO_LANGUAGE = frozenset({"text", "txt", "plain", "plaintext", "none", "nohighlight"})
_CODE_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang|highlight-source)-([\w+#.-]+)")
# Where a <title> joins the headline to the site's name ("Headline | Site", "Site - Headline").
_TITLE_PARTS = re.compile(r"\s+(?:[|\-\u2013\u2014:·»/]|::)\s+")
_SOCIAL_TITLES = "//meta[@property='og:title' or @name='twitter:title']/@content"


def parse(text: str) -> HtmlElement:
    """Any HTML, fragments included, as a document tree (html/body are added when missing)."""
    try:
        text = _SELF_CLOSED_SCRIPT.sub(r"\1>", _XML_DECLARATION.sub("", text, count=1))
        # Characters XML forbids, which a browser shows as nothing: lxml keeps them in the tree
        # but refuses them in any element built later, and trafilatura, building its result from
        # the tree, then returns nothing (one \x10 lost round 21's gothamist.com story). It takes
        # them out of a string it parses itself; clean mode hands it a tree, so they go here.
        text = INVALID_XML_CHARS.sub("", text)
        return document_fromstring(_open_stray_paragraphs(text), parser=_PARSER)
    except (etree.ParserError, ValueError):
        raise Unsupported("not a readable HTML document", hint="browser") from None


def _open_stray_paragraphs(text: str) -> str:
    # One pass of a pattern that starts with "<": ten substring counts took four times as long.
    tags = _P_TAG.findall(text)
    closes = tags.count("/")
    if closes > STRAY_CLOSES * (len(tags) - closes) + STRAY_MIN_EXTRA:
        return _CLOSE_P.sub("</p><p>", text)
    return text


# Counted in C: iterating would create a Python object for every element (~0.3 ms a page).
_ELEMENTS = etree.XPath(
    "count(descendant-or-self::*|descendant::comment()|descendant::processing-instruction())"
)


def element_count(tree: HtmlElement) -> int:
    return int(_ELEMENTS(tree))


def page_title(tree: HtmlElement) -> str | None:
    return title_text(extract_title(tree) or "")


def page_titles(tree: HtmlElement, title: str | None) -> frozenset[str]:
    """Every title the page gives itself (TITLE, its <title> and that title's parts, og:title,
    twitter:title), as `title_words`: a leading heading that says one of them is the headline."""
    head = tree.find(".//head/title")
    titles = [title or "", *tree.xpath(_SOCIAL_TITLES)]
    if head is not None:
        own = head.text_content()
        titles += [own, *_TITLE_PARTS.split(own)]
    return frozenset(words for words in map(title_words, titles) if words)


def _hidden(el: HtmlElement) -> bool:
    return el.get("hidden") is not None or bool(_HIDDEN_STYLE.search(el.get("style") or ""))


# The elements that may be hidden, found in C from their attributes (a test of every element
# costs three times as much); the style is then read in Python.
_MAYBE_HIDDEN = etree.XPath("(//@hidden | //@style)/..")


def drop_hidden_blocks(tree: HtmlElement) -> None:
    """Take out the blocks the page hides (`hidden`, an inline `display: none` or `visibility:
    hidden`), as visible_text skips them: a browser shows none of it. trafilatura reads them,
    and a comment form's pop-up came back as the story's last paragraphs (round 24's
    indiatimes.com: P 0.79 -> 0.95). A hidden inline element goes only when it holds a sentence
    or more and no formula (phoronix.com's appeal for support, a `<strong>` at the top of the
    article): a formula's MathML beside its picture is hidden too, and its removal left an empty
    `<span>` that precision mode deleted with the rest of the sentence."""
    for el in _MAYBE_HIDDEN(tree):
        if el.tag in ("html", "body") or not _hidden(el):
            continue
        if el.tag in _BLOCK or _hidden_prose(el):
            el.drop_tree()


def _hidden_prose(el: HtmlElement) -> bool:
    if next(el.iter("math", "{*}math"), None) is not None:
        return False
    return word_count(el.text_content()) >= HIDDEN_PROSE_MIN_WORDS


def visible_text(tree: HtmlElement, *, noscript: bool = False) -> tuple[str, list[Heading]]:
    """All visible text of the body, one line per block, whitespace collapsed within a line;
    with `noscript`, also what a browser without scripts shows in `<noscript>`.

    Iterative (lxml iterwalk) rather than recursive: hostile pages nest thousands deep.
    """
    skip = _SKIP_BUT_NOSCRIPT if noscript else _SKIP
    lines: list[str] = []
    headings: list[Heading] = []
    parts: list[str] = []

    def flush(level: int = 0) -> None:
        line = " ".join("".join(parts).split())
        parts.clear()
        if line:
            if level:
                headings.append(Heading(len(lines), level, line))
            lines.append(line)

    root = tree.find(".//body")
    walker = etree.iterwalk(tree if root is None else root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag if isinstance(el.tag, str) else None  # comments and PIs have no tag name
        skipped = tag is None or tag in skip or _hidden(el)
        if event == "start":
            if skipped:
                walker.skip_subtree()  # its "end" still comes, so the tail is kept
            elif tag == "pre":
                flush()
                lines.extend(
                    line.rstrip() for line in el.text_content().splitlines() if line.strip()
                )
                walker.skip_subtree()
            else:
                if tag in _BLOCK or tag in _HEADING_LEVEL:
                    flush()
                elif tag in _CELL and el.getprevious() is not None:
                    parts.append(" | ")
                if el.text:
                    parts.append(el.text)
            continue
        if not skipped and tag in _HEADING_LEVEL:
            flush(_HEADING_LEVEL[tag])
        elif not skipped and tag in _BLOCK:
            flush()
        if el.tail:
            parts.append(el.tail)
    flush()
    return "\n".join(lines), headings


def dom_outline(tree: HtmlElement) -> list[dict[str, Any]]:
    outline = []
    for el in tree.iter(*_HEADING_LEVEL):
        text = " ".join(el.text_content().split())
        if text:
            outline.append({"level": _HEADING_LEVEL[str(el.tag)], "text": text[:300]})
    return outline


def _code_language(code: etree._Element) -> str | None:
    """The language a code block declares: `class="language-python"` and its usual spellings."""
    for el in code.iter():
        match = _CODE_LANGUAGE.search(el.get("class") or "")
        declared = el.get("data-lang") or el.get("data-language") or (match and match.group(1))
        if declared:
            language = declared.strip().lower()
            return language if language and language not in _NO_LANGUAGE else None
    return None


def _block_markdown(block: etree._Element) -> str:
    """One top-level element of trafilatura's result as Markdown (the block moves out of it)."""
    wrapper = etree.Element("body")
    wrapper.append(block)
    text = xmltotxt(wrapper, include_formatting=True).strip()
    if block.tag != "code":
        text = drop_needless_escapes(text)
    if block.tag == "p" and _UNDERSCORE_RULE.match(text):
        return "---"
    if block.tag in ("p", "head"):
        # The serializer keeps the source's line breaks and indentation in the text after an
        # inline element; in a paragraph they are a space, as a browser shows them (a <br>
        # comes out as a blank line, which stays).
        return "\n\n".join(" ".join(part.split()) for part in _BLANK_LINE.split(text))
    if block.tag == "quote":
        return "\n".join(f"> {line}".rstrip() for line in text.split("\n"))
    if block.tag == "code" and text.startswith("```"):
        language = _code_language(block)
        if language:
            fence, rest = text.split("\n", 1) if "\n" in text else (text, "")
            return f"{fence}{language}\n{rest}"
    return text


def extract_blocks(tree: HtmlElement, url: str, **options: Any) -> list[tuple[str, str]]:
    """trafilatura's main content, block by block: (its tag, the block as Markdown)."""
    starts = list_starts(tree)
    document = trafilatura.bare_extraction(tree, url=url, **{**EXTRACT_OPTIONS, **options})
    if not isinstance(document, Extraction) or document.body is None:
        return []
    drop_around_body(document.body, tree)
    return body_blocks(document.body, starts)


def body_blocks(
    body: etree._Element, starts: dict[str, int] | None = None
) -> list[tuple[str, str]]:
    """An extraction's body block by block, (tag, Markdown), without credit lines (the blocks
    move out of BODY); its ordered lists numbered from the STARTS of the source's."""
    blocks = [
        (str(block.tag), renumber(block, _block_markdown(block), starts or {}))
        for block in _top_blocks(body)
    ]
    return [(tag, text) for tag, text in blocks if text and not _is_credit(text)]


def _top_blocks(body: etree._Element) -> list[etree._Element]:
    """BODY's blocks, with the containers a fallback extractor leaves (a `div` holding the
    article's paragraphs) opened up, so that each paragraph is a block of its own, as in
    trafilatura's own result. A container with text outside its children stays whole."""
    blocks: list[etree._Element] = []
    pending = list(reversed(body))  # a stack: the next block on top
    while pending:
        block = pending.pop()
        if block.tag == "div" and len(block) and not loose_text(block):
            pending.extend(reversed(block))
        else:
            blocks.append(block)
    return blocks


def join_blocks(blocks: list[str]) -> str:
    """Blocks as one Markdown text, a blank line between blocks."""
    # trafilatura leaves trailing spaces on table rows and occasional blank-line runs.
    markdown = "\n".join(line.rstrip() for line in "\n\n".join(blocks).splitlines())
    return unicodedata.normalize("NFC", _BLANK_RUNS.sub("\n\n", markdown).strip())


def _extract(tree: HtmlElement, url: str, **options: Any) -> str:
    """trafilatura's main content as Markdown, "" when it finds none."""
    return join_blocks([text for _, text in extract_blocks(tree, url, **options)])


def _is_credit(block: str) -> bool:
    """A short block that opens with a copyright sign: a photo credit or the site's notice."""
    return bool(COPYRIGHT.match(block)) and word_count(block) <= CREDIT_MAX_WORDS


def _agreement(grams: Counter[tuple[str, ...]], reference: Counter[tuple[str, ...]]) -> float:
    """How well a text's word 4-grams, GRAMS, match REFERENCE's: the F1 of the two."""
    common = sum((grams & reference).values())
    if not common:
        return 0.0
    precision, recall = common / grams.total(), common / reference.total()
    return 2 * precision * recall / (precision + recall)


def _clear_in_page_links(tree: HtmlElement) -> None:
    """Take out in-page links with neither text nor image: a heading's permalink icon
    (`<a href="#section">`), an empty `<a name>`; and unwrap a heading's text from a link to a
    place on the page (`<h3 id="z-score"><a href="#z-score">Z-Score</a></h3>`, as Markdown's
    table-of-contents extensions write every heading).

    trafilatura counts them as links: it finds no link text in the icon, and drops the heading
    or short paragraph that holds one; a heading that is nothing but link text it dropped too
    (a tutorial lost all 18 of its section headings). They lead nowhere off the page (context's
    links skip them too). A link to "#" alone works a script, and stays.
    """
    targets: set[str] | None = None
    for anchor in list(tree.iter("a")):
        href = (anchor.get("href") or "").strip()
        if href and href[0] != "#":
            continue  # a link off the page: most are, and reading their text costs
        if not anchor.text_content().strip() and anchor.find(".//img") is None:
            anchor.drop_tree()  # keeps the tail text
        elif len(href) > 1 and _in_heading(anchor):
            if targets is None:
                targets = {str(value) for value in tree.xpath("//@id | //a/@name")}
            if href[1:] in targets:
                anchor.drop_tag()


def _in_heading(el: HtmlElement) -> bool:
    return next(el.iterancestors(*_HEADING_LEVEL), None) is not None


def _keep_tails_of_empty(tree: HtmlElement) -> None:
    """Take out the empty elements that article text follows, keeping the text: a blank line
    written as `<div><br></div>` (it leaves a `<br>`), an empty `<span>`, `<b>` or `<i>` inside
    a paragraph (a `<span id="more-12">` marker, a stray tag), and an empty element with an id
    inside a heading (the section's anchor target).

    In precision mode trafilatura deletes an empty element together with the text after it (a
    Blogger post lost each paragraph after a blank line, a paragraph its every word after an
    empty span, a post every heading after its anchor span). Elsewhere that text is as often an
    icon's label ("2 min", a date), so only these cases, which are article text wherever they
    occur, are changed.
    """
    for el in list(tree.iter("div", *_INLINE_PRUNED)):
        parent = el.getparent()
        if parent is None or not (el.tail or "").strip():
            continue
        if el.tag != "div":
            # Exactly empty, as trafilatura tests it (a space inside separates two words).
            # In a heading, only an anchor target (it has an id): a bare one is an icon.
            target = parent.tag == "p" or (parent.tag in _HEADING_LEVEL and el.get("id"))
            if el.text is None and not len(el) and target:
                el.drop_tree()  # keeps the tail
        elif not (el.text or "").strip() and all(_bare_break(child) for child in el):
            br = el.makeelement("br", {})
            br.tail = el.tail
            parent.replace(el, br)


def _unwrap_section_headers(tree: HtmlElement) -> None:
    """Unwrap a `<header>` that holds only a section's heading and leads into a paragraph, as a
    CMS writes each section of a post (TYPO3: `<header><h2>Analysis</h2></header><p>...`).

    In precision mode trafilatura drops every `<header>`, which is right for the page's and
    the article's (title, byline, date) and loses such a section's heading.
    """
    for header in list(tree.iter("header")):
        if len(header) != 1 or _HEADING_LEVEL.get(str(header[0].tag), 1) == 1:
            continue  # not a lone heading, or the page's or article's title
        bare = not (header.text or "").strip() and not (header[0].tail or "").strip()
        follower = header.getnext()
        if bare and follower is not None and follower.tag == "p":
            header.drop_tag()


def _bare_break(el: HtmlElement) -> bool:
    return el.tag == "br" and not (el.tail or "").strip()


def clean_markdown(tree: HtmlElement, url: str, *, html: str, thorough: bool = True) -> str | None:
    """The main content: trafilatura's precise extraction, unless it lost the article.

    Precision mode now and then cuts the article itself, not just its clutter. Where it kept
    under SECOND_OPINION_SHARE of the page's visible words (with `<noscript>`'s, which trafilatura
    reads too: fortune.com shows its story only there), and under ARTICLE_WORDS, a balanced
    extraction is the second opinion, and readability the referee: of the two, the one closer
    to readability's main content wins, unless the balanced one holds the precise one and adds
    more prose than that has (readability then made the same cut). A balanced extraction
    alone, taken whenever it found much more, also took a paywalled teaser's page furniture for
    the article. Not `thorough` (a very large page): one extraction, without trafilatura's
    fallbacks; the rules on the tree, linear and a small part of one extraction's cost, apply
    to every page. HTML is the page's source, searched first by rules whose mark is rare
    (nutrition facts), so that their XPath runs on those pages only.
    """
    _clear_in_page_links(tree)
    drop_hidden_blocks(tree)
    drop_role_asides(tree, html)
    # Before the empty elements go: a run of bare text can start with one (a CMS's marker).
    wrap_loose_text(tree)
    _keep_tails_of_empty(tree)
    _unwrap_section_headers(tree)
    read_code_figures(tree, html)
    join_split_body(tree)
    read_paragraph_divs(tree, html)
    drop_teasers(tree)
    keep_roundup_headings(tree, url)
    drop_author_boxes(tree, html)
    drop_comment_sections(tree)
    drop_captions(tree, html)
    lift_table_captions(tree)
    unwrap_layout_tables(tree)
    drop_link_lists(tree, url)
    drop_nutrition(tree, html)
    keep_embedded_posts(tree, html)
    keep_rich_text_embeds(tree, html)
    keep_callouts(tree)
    unwrap_short_lists(tree)
    return restore_fallback_blocks(tree, _main_content(tree, url, thorough), url) or None


def _main_content(tree: HtmlElement, url: str, thorough: bool) -> str:
    """The extraction clean mode keeps: the precise one, or the referee's pick where it kept
    too little of the page; not `thorough`, one extraction without fallbacks."""
    if not thorough:
        return _extract(tree, url, fast=True)
    precise = _extract(tree, url)
    if not words_at_most(precise, ARTICLE_WORDS - 1):
        return precise  # a whole article: asked without counting all its words
    if word_count(precise) >= SECOND_OPINION_SHARE * word_count(
        visible_text(tree, noscript=True)[0]
    ):
        return precise
    return _referee(precise, _extract(tree, url, favor_precision=False), tree)


def _referee(precise: str, balanced: str, tree: HtmlElement) -> str:
    """Of the precise and the balanced extraction, the one closer to readability's main content
    (trafilatura's port, which finds it by a different algorithm and changes the tree it reads),
    unless the precise one was cut short."""
    precise_grams, balanced_grams = shingles(precise), shingles(balanced)
    if _cut_short(precise, balanced, precise_grams, balanced_grams):
        return balanced
    reference = shingles(" ".join(try_readability(deepcopy(tree)).itertext()))
    if reference and _agreement(precise_grams, reference) > _agreement(balanced_grams, reference):
        return precise
    return balanced or precise


def _cut_short(
    precise: str,
    balanced: str,
    precise_grams: Counter[tuple[str, ...]],
    balanced_grams: Counter[tuple[str, ...]],
) -> bool:
    """Precision mode stopped inside the article: the balanced extraction holds the precise one
    and adds more prose than that has. Readability makes the same cut, so it cannot referee:
    a slideshow's slides after its lead (eWEEK, PopSugar), a press release quoted in a form
    (The Next Web). The GRAMS are the two extractions' word 4-grams."""
    if sum((precise_grams & balanced_grams).values()) < HELD_SHARE * precise_grams.total():
        return False
    kept = {line.strip() for line in precise.splitlines()}
    added = [line for line in balanced.splitlines() if line.strip() not in kept]
    return _prose_words(added) > _prose_words(precise.splitlines())


def _prose_words(lines: list[str]) -> int:
    """The words of the lines that are prose: long, and ending as a sentence ends."""
    counts = (word_count(line) for line in lines if _SENTENCE_END.search(line))
    return sum(count for count in counts if count >= PROSE_MIN_WORDS)


def render_html(doc: Document, text: str, mode: str, *, context: bool) -> Body:
    """The body for `mode`; with `context`, its meta holds what context reads from the page
    (read before clean mode takes teasers out of the tree). Raw mode parses the page only for
    context."""
    if mode == "raw":
        if not context:
            return Body(text=text, title=head_title(text))
        tree = parse(text)
        meta = {"outline": dom_outline(tree), **html_meta(tree, doc.url)}
        return Body(text=text, title=head_title(text), meta=meta)
    tree = parse(text)
    title = page_title(tree)
    meta = html_meta(tree, doc.url) if context else {}
    elements = element_count(tree) if mode == "clean" else 0
    if mode == "clean" and elements <= CLEAN_MAX_ELEMENTS:
        thorough = elements <= THOROUGH_MAX_ELEMENTS
        declared = declared_body(tree)  # before clean mode changes the tree
        try:
            markdown = clean_markdown(tree, doc.url, thorough=thorough, html=text)
        except RecursionError:
            # trafilatura recurses once per level of nesting and the parser keeps about 2,000
            # levels: past Python's limit, the page's visible text, read iteratively.
            markdown = None
        if markdown:
            markdown = drop_repeated_passage(trim_furniture(markdown, page_titles(tree, title)))
        if declared:
            markdown = hold_to_declared(markdown or "", declared)
        if markdown:
            headings = markdown_headings(markdown)
            return Body(text=markdown, title=title, headings=headings, meta=meta)
        # No main content found (a link hub, a tiny page): all the text beats nothing.
    full, headings = visible_text(tree)
    return Body(text=full, title=title, headings=headings, meta=meta)
