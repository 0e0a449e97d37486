"""HTML rendering on a real article page: clean Markdown, full text, raw body, decoding."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from lxml import etree

from sift_fetch.errors import BadRequest, Unsupported
from sift_fetch.render import html, render
from sift_fetch.target import Target
from tests.render.conftest import ARTICLE_URL, clean, make_doc

BOILERPLATE = ("Cookie settings", "Shop our seeds", "Related posts", "Copyright 2024", "Privacy")
NEVER = ("SCRIPT_TEXT_MUST_NOT_APPEAR", "STYLE_TEXT_MUST_NOT_APPEAR", "HIDDEN_TEXT_MUST_NOT_APPEAR")


def test_clean_is_the_article_as_markdown(article) -> None:  # type: ignore[no-untyped-def]
    out = render(article, Target(ARTICLE_URL), 60_000)
    lines = out.content.splitlines()
    # The headline is the title; the content does not say it again.
    assert out.title == "Growing Tomatoes on a Balcony"
    assert "Growing Tomatoes on a Balcony" not in out.content
    assert lines[0].startswith("Tomatoes are the most rewarding plant")
    assert "## Choosing a variety" in lines
    assert "### Blossom end rot" in lines
    assert "- Sungold: sweet orange cherries, very productive" in lines
    assert "| Variety | Pot size | Days to harvest |" in lines
    assert "| Sungold | 20 l | 65 |" in lines
    assert "Water deeply every morning in hot weather" in out.content
    # Link text stays, link targets do not: context lists them instead.
    assert "choosing a variety" in out.content
    assert "example.org" not in out.content and "](" not in out.content
    for text in BOILERPLATE + NEVER:
        assert text not in out.content
    assert out.truncated is False
    assert out.context is None
    assert out.passages == []


def test_full_is_every_visible_line(article) -> None:  # type: ignore[no-untyped-def]
    out = render(article, Target(ARTICLE_URL, mode="full"), 60_000)
    lines = out.content.splitlines()
    for text in (
        "Home",
        "Shop our seeds",
        "Growing Tomatoes on a Balcony",
        "Related posts",
        "Tumbling Tom | 10 l | 60",
        "Roma: a paste tomato for sauces",
    ):
        assert text in lines
    assert any(line.startswith("Copyright 2024") for line in lines)
    for text in NEVER:
        assert text not in out.content
    assert all(line == " ".join(line.split()) for line in lines)  # whitespace collapsed


def test_raw_is_the_decoded_body(article) -> None:  # type: ignore[no-untyped-def]
    out = render(article, Target(ARTICLE_URL, mode="raw"), 1_000_000)
    assert out.content == article.body.decode("utf-8")
    # As sent: the page's own <title>, read without parsing the page.
    assert out.title == "Growing Tomatoes on a Balcony | The Urban Gardener"


@pytest.mark.parametrize(
    ("html", "title"),
    [
        ("<html><head><title> A &amp;\n B </title></head><body>x</body></html>", "A & B"),
        ("<html><head></head><body><title>late</title></body></html>", None),
        ("<p>no head at all</p>", None),
        ("<html><head><title>" + "long " * 100 + "</title></head></html>", ("long " * 60).strip()),
        # A title past the scanned start of a page is not looked for.
        ("<html><head><!--" + "x" * 70_000 + "--><title>far</title></head></html>", None),
    ],
)
def test_raw_title_is_the_head_title(html: str, title: str | None) -> None:
    doc = make_doc(html, "text/html")
    assert render(doc, Target(doc.url, mode="raw"), 1_000_000).title == title


def test_page_without_main_content_falls_back_to_its_text() -> None:
    doc = make_doc(
        "<html><body><a href='/a'>Alpha</a> <a href='/b'>Beta</a></body></html>", "text/html"
    )
    out = render(doc, Target(doc.url), 10_000)
    assert "Alpha" in out.content and "Beta" in out.content


def test_charset_comes_from_meta_when_the_header_has_none() -> None:
    html = (
        '<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head>'
        "<body><p>\u201cQuoted\u201d caf\xe9 cr\xe8me br\xfbl\xe9e.</p></body></html>"
    )
    doc = make_doc(html.encode("cp1252"), "text/html")
    out = render(doc, Target(doc.url, mode="full"), 10_000)
    assert "\u201cQuoted\u201d café crème brûlée." in out.content


def test_latin1_label_is_read_as_windows_1252() -> None:
    doc = make_doc(b"<p>it\x92s</p>", "text/html; charset=ISO-8859-1")
    doc = type(doc)(doc.url, doc.content_type, "ISO-8859-1", doc.body)
    assert "it\u2019s" in render(doc, Target(doc.url, mode="full"), 100).content


def test_undecodable_bytes_do_not_fail() -> None:
    doc = make_doc(b"<p>ok \xff\xfe bytes</p>", "text/html; charset=utf-8")
    doc = type(doc)(doc.url, doc.content_type, "utf-8", doc.body)
    assert "ok" in render(doc, Target(doc.url, mode="full"), 100).content


@pytest.mark.parametrize("mode", ["clean", "full"])
@pytest.mark.parametrize(
    "opening",
    [
        "<div>",
        '<div itemprop="author">x ',
        '<div class="paragraph">x ',
        # an article body in every level: trafilatura recursed past Python's limit on it
        '<article><div class="entry-content">word ',
    ],
)
def test_hostile_nesting_renders(mode: str, opening: str) -> None:
    depth = 100_000  # past libxml2's depth limit: the parser drops the excess, nothing crashes
    doc = make_doc("<p>before</p>" + opening * depth + "deep" + "</div>" * depth, "text/html")
    assert "before" in render(doc, Target(doc.url, mode=mode), 1000).content


def test_fragments_and_xml_declarations_parse() -> None:
    fragment = make_doc("<p>just a fragment</p>", "text/html")
    assert render(fragment, Target(fragment.url), 100).content == "just a fragment"
    xhtml = make_doc(
        "<?xml version='1.0' encoding='utf-8'?><html><body><p>xhtml body</p></body></html>",
        "application/xhtml+xml",
    )
    assert "xhtml body" in render(xhtml, Target(xhtml.url, mode="full"), 100).content


def test_a_self_closed_script_tag_opens_a_script_as_in_a_browser() -> None:
    article = " ".join(["Tomatoes want six to eight hours of direct sun and deep watering."] * 6)
    page = f"""<html><head><title>Tomatoes</title></head><body><article><h1>Tomatoes</h1>
    <p>{article}</p><script type="text/javascript"/>
    (function() {{ var componentMetadata = JSON.parse('{{"componentName": "RatingCounts"}}');
    window.ratings = componentMetadata; }})();
    </script><p>{article}</p></article></body></html>"""
    for mode in ("clean", "full"):
        content = render(
            make_doc(page, "text/html"), Target(ARTICLE_URL, mode=mode), 60_000
        ).content
        assert "componentMetadata" not in content, mode
        assert "six to eight hours" in content, mode


def test_paragraphs_closed_but_never_opened_are_paragraphs_as_in_a_browser() -> None:
    """eWEEK writes each paragraph as bare text ended by a `</p>` that no `<p>` opened."""
    paragraphs = [
        f"Paragraph {n}: Microsoft and the FBI took down a botnet that used infected computers "
        f"around the world to spread more malware, the latest of its takedowns ({n})."
        for n in range(1, 7)
    ]
    page = f"""<html><head><title>Botnets</title></head><body><div id="nav"><a href="/">Home</a>
    </div><div class="article_body">{"</p> ".join(paragraphs)}</p></div></body></html>"""
    tree = html.parse(page)
    texts = [" ".join(p.text_content().split()) for p in tree.iter("p")]
    assert [text for text in texts if text] == paragraphs[1:], texts  # the first stays bare
    content = clean(page)
    assert all(paragraph in content for paragraph in paragraphs), content
    # Paired paragraphs are left as they are.
    paired = html.parse("<p>One.</p><p>Two.</p>" * 4)
    assert [p.text for p in paired.iter("p")] == ["One.", "Two."] * 4


def test_empty_html_is_unsupported() -> None:
    with pytest.raises(Unsupported):
        render(make_doc("   ", "text/html"), Target(ARTICLE_URL), 100)


def test_truncation_cuts_at_a_line_boundary(article) -> None:  # type: ignore[no-untyped-def]
    whole = render(article, Target(ARTICLE_URL, mode="full"), 60_000).content
    out = render(article, Target(ARTICLE_URL, mode="full"), 300)
    assert out.truncated is True
    assert len(out.content) <= 300
    assert whole.startswith(out.content) and whole[len(out.content)] == "\n"


@pytest.mark.parametrize("content_type", ["image/png", "application/zip", "video/mp4"])
def test_other_types_are_unsupported_with_a_browser_hint(content_type: str) -> None:
    with pytest.raises(Unsupported) as caught:
        render(make_doc(b"\x89PNG....", content_type), Target(ARTICLE_URL), 100)
    assert content_type in caught.value.message
    assert caught.value.hint == "browser"


def test_unlabelled_html_is_sniffed() -> None:
    doc = make_doc(
        b"<!DOCTYPE html><html><body><p>sniffed</p></body></html>", "application/octet-stream"
    )
    assert "sniffed" in render(doc, Target(doc.url, mode="full"), 100).content


@pytest.mark.parametrize(("field", "value"), [("jq", ".a"), ("pages", "1")])
def test_format_specific_options_are_refused_on_html(article, field, value) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadRequest) as caught:
        render(article, Target(ARTICLE_URL, **{field: value}), 100)
    assert field in caught.value.message and "HTML" in caught.value.message


def test_text_types_are_returned_as_they_are() -> None:
    csv = "name,qty\napples,3\npears,5\n"
    out = render(make_doc(csv, "text/csv; charset=utf-8"), Target(ARTICLE_URL), 1000)
    assert out.content == csv
    assert out.title is None


def test_byte_order_mark_wins_over_a_wrong_label() -> None:
    body = "\ufeff<p>naïve café</p>".encode("utf-16-le")
    doc = make_doc(body, "text/html; charset=iso-8859-1")
    doc = type(doc)(doc.url, doc.content_type, "iso-8859-1", doc.body)
    assert render(doc, Target(doc.url, mode="full"), 100).content == "naïve café"


RUSSIAN = (
    "<html><head><title>Новости дня</title></head><body><article><h1>Новости дня</h1>"
    "<p>Правительство объявило сегодня новую программу поддержки малого бизнеса. "
    "По словам министра, средства получат более десяти тысяч предприятий по всей стране.</p>"
    "<p>Эксперты считают, что программа поможет сохранить рабочие места в регионах.</p>"
    "</article></body></html>"
)


@pytest.mark.parametrize("mode", ["clean", "full"])
def test_undeclared_charset_is_detected(mode: str) -> None:
    doc = make_doc(RUSSIAN.encode("cp1251"), "text/html")
    assert doc.charset is None and b"charset" not in doc.body
    out = render(doc, Target(doc.url, mode=mode), 10_000)
    assert "Правительство объявило сегодня" in out.content
    assert "\ufffd" not in out.content
    assert out.title == "Новости дня"


def test_undeclared_text_is_detected_and_utf8_wins_when_valid() -> None:
    german = (
        "Die Größe der Wohnung an der Hauptstraße überraschte uns. Für die Übergabe "
        "müssen Käufer und Verkäufer gemeinsam zum Notar gehen, erklärte der Makler."
    )
    latin = make_doc(german.encode("cp1252"), "text/plain")
    assert render(latin, Target(latin.url), 1000).content == german
    # A UTF-8 body cut inside its last character by the size cap is still UTF-8.
    cut = make_doc("Größe: 5 €".encode()[:-1], "text/plain")
    assert render(cut, Target(cut.url), 100).content == "Größe: 5 \ufffd"


def test_clean_keeps_quotes_code_languages_and_plain_headings() -> None:
    intro = "Rust's borrow checker rejects code that would race on shared data. " * 4
    page = f"""<html><head><title>Borrowing</title></head><body>
    <nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
    <article><h1>Borrowing in practice</h1><p>{intro}</p>
    <h2><strong>A first example</strong></h2>
    <p>The following program prints the length of a string it only borrows.</p>
    <pre><code class="language-rust">fn len(s: &amp;str) -&gt; usize {{
    s.len()
}}</code></pre>
    <blockquote><p>Ownership is Rust's most unique feature.</p><p>It has deep implications.</p>
    </blockquote>
    <figure><img src="/c.png" alt=""><figcaption>Photo: Staff photographer</figcaption></figure>
    <p>{intro}</p></article>
    <footer>Copyright 2024 Example Blog. All rights reserved.</footer></body></html>"""
    doc = make_doc(page, "text/html")
    lines = render(doc, Target(doc.url), 10_000).content.split("\n")
    assert "## A first example" in lines
    fence = lines.index("```rust")
    assert lines[fence + 1 : fence + 4] == ["fn len(s: &str) -> usize {", "    s.len()", "}"]
    assert lines[fence + 4] == "```"
    quote = lines.index("> Ownership is Rust's most unique feature.")
    assert lines[quote + 1 : quote + 3] == [">", "> It has deep implications."]
    text = "\n".join(lines)
    for boilerplate in ("Home", "Staff photographer", "Copyright 2024"):
        assert boilerplate not in text


NEWS_PARAGRAPHS = [
    "The city council voted on Tuesday to turn the old tram depot into a covered market, ending"
    " a dispute that had kept the building empty for eleven years.",
    "Traders will move in next spring. The council expects about forty stalls, most of them for"
    " farmers from the surrounding villages who now sell from vans on the square.",
    "Residents had asked for a library instead. The mayor said the upper floor could still house"
    " one once the roof is repaired, which the budget allows for in two years.",
    "Opposition members criticised the cost of the renovation but voted in favour after the"
    " council agreed to publish the contracts for the building work in full.",
]


def test_clean_drops_the_news_page_furniture_around_the_article() -> None:
    body = "".join(f"<p>{text}</p>" for text in NEWS_PARAGRAPHS)
    page = f"""<html><head><title>Depot becomes a market</title></head><body>
    <header><nav><a href="/">News</a> <a href="/sport">Sport</a></nav></header>
    <main><article>
    <h1>Old tram depot to become a covered market</h1>
    <div class="byline">By Jane Reporter, City Desk</div>
    <div class="share"><a href="https://facebook.com/share">Share on Facebook</a>
    <a href="https://twitter.com/share">Tweet this story</a></div>
    <figure><img src="/depot.jpg" alt=""><figcaption>The depot in 1952. Photo: City archive
    </figcaption></figure>
    {body}
    <aside class="newsletter"><h3>Get the morning briefing</h3>
    <p>Sign up for our newsletter and never miss a story.</p>
    <form><input type="email"><button>Subscribe</button></form></aside>
    </article>
    <section class="related"><h2>Related stories</h2><ul>
    <li><a href="/a">Tram museum finds a new home in the harbour</a></li>
    <li><a href="/b">Farmers' market moves to the square for the summer</a></li>
    <li><a href="/c">Council approves budget for roof repairs on public buildings</a></li>
    </ul></section>
    <section id="comments"><h2>3 comments</h2>
    <div class="comment"><p>Finally! This should have happened years ago, well done.</p></div>
    </section></main>
    <footer>Copyright 2024 City News</footer></body></html>"""
    doc = make_doc(page, "text/html", "https://news.example.com/city/depot-market")
    text = render(doc, Target(doc.url), 20_000).content
    for paragraph in NEWS_PARAGRAPHS:
        assert paragraph in text
    for furniture in (
        "Jane Reporter",
        "Share on Facebook",
        "Tweet this story",
        "City archive",
        "Sign up for our newsletter",
        "Related stories",
        "Tram museum finds a new home",
        "should have happened years ago",
        "Copyright 2024",
    ):
        assert furniture not in text


def test_clean_keeps_headings_that_carry_a_permalink_icon() -> None:
    # The saved interview puts an empty <a href="#id"> in each question's heading; trafilatura's
    # link-density test dropped those headings as links without text.
    page = Path(__file__).parents[2] / "bench" / "pages" / "github.blog.spiceland.html"
    url = "https://github.blog/2019-03-29-leader-spotlight-erin-spiceland/"
    doc = make_doc(page.read_text("utf-8"), "text/html", url)
    lines = render(doc, Target(url), 60_000).content.split("\n")
    for question in (
        "What was your first job in tech like?",
        "What does leadership mean to you in your current role?",
        "What are you looking forward to next?",
    ):
        assert f"## {question}" in lines


def test_clean_keeps_headings_written_as_links_to_themselves() -> None:
    # Markdown's table-of-contents extension wraps each heading's text in a link to the heading
    # (`<h3 id="x"><a href="#x">`); all link text, every one of the saved tutorial's 18 section
    # headings was dropped.
    page = Path(__file__).parents[2] / "bench" / "articles" / "english"
    page /= "mozilla-readability.toc-missing.html.gz"
    url = "https://hakibenita.com/sql-anomaly-detection"
    doc = make_doc(gzip.decompress(page.read_bytes()).decode("utf-8"), "text/html", url)
    lines = render(doc, Target(url), 60_000).content.split("\n")
    for heading in ("## Detecting Anomalies", "### Understanding Z-Score", "## Conclusion"):
        assert heading in lines


def test_clean_keeps_the_paragraph_after_a_blank_line_div() -> None:
    # In precision mode trafilatura deleted an empty element with the text after it: Blogger's
    # blank line (<div><br></div>) took the next paragraph.
    first = "Python 3.6.0 is now available, with many new features and optimizations. " * 2
    after = "Maintenance releases for the 3.6 series will follow at regular intervals."
    page = f"""<html><head><title>Release</title></head><body><div class="post-body">
    {first}<br /><br />
    You can download Python 3.6.0 here. Most distributors should have packages soon.<br />
    <div>
    <br /></div>{after}<br />
    <div>
    <br /></div>
    <div>We hope you enjoy Python 3.6.0!</div></div></body></html>"""
    text = clean(page)
    assert after in text.split("\n\n") and "We hope you enjoy" in text


def test_clean_keeps_a_paragraph_whole_past_an_empty_span() -> None:
    # An empty <span> (a "more" marker) took the rest of its paragraph with it.
    prose = "The exchange keeps most of its customers' coins in cold storage, offline. "
    before = "Coinbase offers insurance on the dollar deposits its customers hold with it."
    after = "Like a bank, the exchange insures deposits of up to 250,000 dollars."
    icon = "Share this story"
    page = f"""<html><head><title>Exchanges</title></head><body><article>
    <p>{prose * 3}</p><p>{before}<span id="more-12"></span> {after}</p><p>{prose * 2}</p>
    <div class="share"><span class="icon-share"></span>{icon}</div></article></body></html>"""
    text = clean(page)
    assert f"{before} {after}" in text
    # An empty icon outside a paragraph labels page furniture: its text still goes.
    assert icon not in text


def test_clean_keeps_a_heading_that_opens_with_its_anchor_target() -> None:
    # A section's anchor target (an empty <span id>) took its heading's words with it; a bare
    # empty span in a widget's heading is an icon, and its label still goes.
    prose = "The loader decrypts its payload in memory and never writes it to the disk. " * 3
    page = f"""<html><head><title>Loader</title></head><body><article>
    <p>{prose}</p><h2><span id="stage-one" class="anchor"></span>Stage one: the loader</h2>
    <p>{prose}</p><h2><span id="stage-two"></span>Stage two: the implant</h2><p>{prose}</p>
    <aside><h3 class="video-headline"><span></span>Popular Video</h3></aside>
    </article></body></html>"""
    lines = clean(page).split("\n")
    assert "## Stage one: the loader" in lines and "## Stage two: the implant" in lines
    assert not any("Popular Video" in line for line in lines)


def test_clean_keeps_section_headings_a_cms_writes_in_a_header() -> None:
    # TYPO3 writes each section's heading as <header><h2>; precision mode drops every <header>.
    prose = "The shortcut file connects to a remote share that a free tunnel service hosts. " * 3
    page = f"""<html><head><title>Analysis</title></head><body><article>
    <header><h1>Analysis of a loader</h1><p>By A. Writer</p></header><p>{prose}</p>
    <div class="ce-bodytext"><header><h2>Initial access</h2></header><p>{prose}</p></div>
    <div class="ce-bodytext"><header><h3>Execution</h3></header><p>{prose}</p></div>
    </article></body></html>"""
    lines = clean(page).split("\n")
    assert "## Initial access" in lines and "### Execution" in lines
    assert not any("A. Writer" in line for line in lines)


def test_code_declared_as_plain_text_gets_a_bare_fence() -> None:
    intro = "The build prints the pinned versions of every dependency it installed. " * 4
    page = f"""<html><head><title>Pins</title></head><body><article><h1>Pinning</h1>
    <p>{intro}</p><pre><code class="language-text">flask==1.0.3
click==7.0</code></pre><p>{intro}</p></article></body></html>"""
    doc = make_doc(page, "text/html")
    lines = render(doc, Target(doc.url), 10_000).content.split("\n")
    fence = lines.index("```")
    assert lines[fence + 1 : fence + 4] == ["flask==1.0.3", "click==7.0", "```"]


def test_clean_writes_identifiers_as_the_page_does() -> None:
    intro = "The client opens a socket to the host it was given and sends one request. " * 4
    page = f"""<html><head><title>Sockets</title></head><body><article><h1>Sockets</h1>
    <p>{intro}</p>
    <p>Set target_host and target_port first, or mail jane_doe@example.org; a __dunder__ name,
    a *star* and a ____ blank stay escaped where Markdown would read them.</p>
    <table><tr><th>name</th><th>use</th></tr><tr><td>http_response_len</td><td>bytes</td></tr>
    </table><p>Call <code>socket.AF_INET</code> as is; {intro}</p></article></body></html>"""
    doc = make_doc(page, "text/html")
    text = render(doc, Target(doc.url), 10_000).content
    assert "Set target_host and target_port first, or mail jane_doe@example.org;" in text
    # Where an underscore or a star could open emphasis, the escape is kept; a lone run of
    # underscores between spaces reads as itself.
    assert "a \\_\\_dunder\\_\\_ name" in text and "a \\*star\\*" in text
    assert "and a ____ blank" in text
    assert "| http_response_len | bytes |" in text.split("\n")
    assert "`socket.AF_INET`" in text


def test_a_character_xml_forbids_does_not_cost_the_article() -> None:
    # A browser shows nothing for it; trafilatura, meeting it in the tree, found no article.
    stray = NEWS_PARAGRAPHS[1].replace(" ", " \x10", 1)
    body = "".join(f"<p>{text}</p>" for text in [NEWS_PARAGRAPHS[0], stray, *NEWS_PARAGRAPHS[2:]])
    page = f"<html><head><title>Depot</title></head><body><article>{body}</article></body></html>"
    doc = make_doc(page, "text/html", "https://news.example.com/city/depot")
    text = render(doc, Target(doc.url), 20_000).content
    for paragraph in NEWS_PARAGRAPHS:
        assert paragraph in text
    assert "\x10" not in text


def test_clean_drops_credit_and_copyright_lines_but_not_prose_about_copyright() -> None:
    prose = (
        "Copyright law in most countries protects a photograph for seventy years after the death"
        " of the photographer, which is why archives ask before they publish old prints, and why"
        " a museum may show a picture it is not allowed to sell as a postcard."
    )
    body = "".join(f"<p>{text}</p>" for text in NEWS_PARAGRAPHS[:2])
    page = f"""<html><head><title>Depot</title></head><body><article><h1>Depot</h1>
    {body}<p>© Jane Photographer / City Archive</p><p>{prose}</p>
    <p>{NEWS_PARAGRAPHS[2]}</p><p>Copyright 2024 City News Ltd. All rights reserved.</p>
    </article></body></html>"""
    doc = make_doc(page, "text/html", "https://news.example.com/city/depot")
    text = render(doc, Target(doc.url), 20_000).content
    assert prose in text
    for paragraph in NEWS_PARAGRAPHS[:3]:
        assert paragraph in text
    assert "Jane Photographer" not in text
    assert "All rights reserved" not in text


# A page whose precise extraction is a thin share of its words: the second opinion is asked.
THIN_PAGE = "<body>" + "<p>Menu item and more menu text</p>" * 60 + "</body>"


def second_opinion(
    monkeypatch: pytest.MonkeyPatch, extractions: dict[str, str], readability: str, source: str
) -> str:
    """Clean mode on SOURCE, with trafilatura's precise and balanced EXTRACTIONS and
    READABILITY's main content given."""

    def extract(tree: object, url: str, **options: object) -> str:
        return extractions["balanced" if options.get("favor_precision") is False else "precise"]

    monkeypatch.setattr(html, "_extract", extract)
    monkeypatch.setattr(html, "try_readability", lambda tree: html.parse(f"<p>{readability}</p>"))
    page = html.parse(source)
    return html.clean_markdown(page, "https://news.example.com/story", html=source) or ""


@pytest.mark.parametrize(
    ("readability_finds", "expected"),
    [
        ("teaser", "precise"),  # balanced took the page furniture: readability sides with precise
        ("article", "balanced"),  # precision cut the article: readability sides with balanced
        ("", "balanced"),  # readability found nothing: the larger extraction, as before
    ],
)
def test_thin_extraction_is_refereed_by_readability(
    monkeypatch: pytest.MonkeyPatch, readability_finds: str, expected: str
) -> None:
    teaser = "A senior prison official said in a sworn statement that anyone could escape."
    article = " ".join(NEWS_PARAGRAPHS)
    extractions = {
        "precise": teaser,
        "balanced": f"Home News Sport Share Facebook Twitter {teaser} More stories Weather Jobs",
    }
    if readability_finds == "article":
        extractions["balanced"] = f"{teaser} {article}"
    found = {"teaser": teaser, "article": f"{teaser} {article}", "": ""}[readability_finds]
    assert second_opinion(monkeypatch, extractions, found, THIN_PAGE) == extractions[expected]


@pytest.mark.parametrize(
    ("added", "expected"),
    [
        # A slideshow after its lead: each slide's prose, which precision mode and readability
        # both left out.
        (
            "\n\n".join(f"## Slide {n}\n\n{text}" for n, text in enumerate(NEWS_PARAGRAPHS[1:])),
            "balanced",
        ),
        # The headline and a newsletter line: less prose than the lead holds.
        (
            "# Depot becomes a market\n\nGet our daily newsletter. It is the freshest news.",
            "precise",
        ),
    ],
)
def test_an_article_cut_short_is_taken_whole_though_readability_cut_it_too(
    monkeypatch: pytest.MonkeyPatch, added: str, expected: str
) -> None:
    lead = NEWS_PARAGRAPHS[0]
    extractions = {"precise": lead, "balanced": f"{lead}\n\n{added}"}
    assert second_opinion(monkeypatch, extractions, lead, THIN_PAGE) == extractions[expected]


@pytest.mark.parametrize(("wrapper", "expected"), [("noscript", "balanced"), ("script", "precise")])
def test_an_article_shown_only_without_scripts_counts_in_the_page(
    monkeypatch: pytest.MonkeyPatch, wrapper: str, expected: str
) -> None:
    # fortune.com: the story is inside <noscript>, which a client without scripts (trafilatura,
    # and so Sift) shows; what else the page shows is a licensing box, the precise extraction.
    box = "To license Fortune articles or headlines for republication, contact our licensing desk."
    article = "\n\n".join(NEWS_PARAGRAPHS)
    paragraphs = "".join(f"<p>{text}</p>" for text in NEWS_PARAGRAPHS)
    source = f"<body><{wrapper}>{paragraphs}</{wrapper}><div><p>{box}</p></div></body>"
    extractions = {"precise": box, "balanced": article}
    assert second_opinion(monkeypatch, extractions, article, source) == extractions[expected]


@pytest.mark.parametrize(("words", "expected"), [(300, "precise"), (299, "balanced")])
def test_a_whole_short_article_needs_no_second_opinion(
    monkeypatch: pytest.MonkeyPatch, words: int, expected: str
) -> None:
    # A short post above a stream of other posts: the page dwarfs it, readability takes one of
    # the other posts, and the balanced extraction, holding that one, would win the referee.
    post = " ".join(f"post{n}" for n in range(words))
    other = " ".join(f"other{n}" for n in range(400))
    extractions = {"precise": post, "balanced": f"{post} {other} " + "stream " * 2000}
    source = "<body>" + "<p>A paragraph of another post in the stream below</p>" * 400 + "</body>"
    assert second_opinion(monkeypatch, extractions, other, source) == extractions[expected]


def test_the_page_titles_a_headline_is_matched_against() -> None:
    tree = html.parse(
        "<html><head><title>Balcony Tomatoes | The Urban Gardener</title>"
        '<meta property="og:title" content="How to grow tomatoes on a balcony">'
        "</head><body><p>text</p></body></html>"
    )
    assert html.page_titles(tree, "Balcony Tomatoes") == {
        "balcony tomatoes the urban gardener",
        "balcony tomatoes",
        "the urban gardener",
        "how to grow tomatoes on a balcony",
    }


def test_blocks_are_paragraphs_on_one_line_even_inside_a_fallback_container() -> None:
    # A fallback extractor's result: the article's blocks inside a container, the source's
    # line breaks and indentation still in the text.
    body = etree.fromstring(
        "<body><div><head rend='h1'>Pots</head><p>Tomatoes want a <hi>big\n    pot</hi> and\n"
        "    sun.</p><p>Water daily.<lb/>Feed weekly.</p><quote>Grow what you eat.</quote>"
        "</div><div>Loose text <p>and a paragraph</p></div></body>"
    )
    assert html.body_blocks(body) == [
        ("head", "# Pots"),
        ("p", "Tomatoes want a big pot and sun."),
        ("p", "Water daily.\n\nFeed weekly."),
        ("quote", "> Grow what you eat."),
        ("div", "Loose text and a paragraph"),  # text outside its children: kept whole
    ]


def test_a_paragraph_drawn_with_underscores_is_a_thematic_break() -> None:
    body = f"<p>{NEWS_PARAGRAPHS[0]}</p><p>___</p><p>{NEWS_PARAGRAPHS[1]}</p>"
    text = clean(f"<html><body><article>{body}</article></body></html>")
    assert text.split("\n\n") == [NEWS_PARAGRAPHS[0], "---", NEWS_PARAGRAPHS[1]]
