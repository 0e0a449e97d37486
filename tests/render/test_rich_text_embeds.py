"""Clean mode keeps what an author set in an embed block: Webflow's custom code, a quote embed."""

from __future__ import annotations

from tests.render.conftest import clean

INTRO = (
    "The analysis engine traced each finding from the place user input enters the program to "
    "the call that acts on it, across the layers of the application. "
)
TABLE = """<table><thead><tr><th>Vulnerability</th><th>Identifier</th></tr></thead><tbody>
<tr><td>Gateway request forgery</td><td>CVE-2026-26322</td></tr>
<tr><td>Webhook without authentication</td><td>CVE-2026-26319</td></tr></tbody></table>"""


def _page(rich_text: str, aside: str = "") -> str:
    return f"""<!doctype html><html><head><title>Six findings</title></head><body>
    <nav><a href="/">Home</a> <a href="/blog">Blog</a></nav><main><h1>Six findings</h1>
    <div class="blog-rich-text w-richtext">{rich_text}</div>{aside}</main>
    <footer><p>About us. Contact.</p></footer></body></html>"""


def test_a_table_in_an_embed_block_of_the_rich_text_is_kept() -> None:
    body = f"<p>{INTRO * 3}</p><h2>Summary</h2><div class='w-embed'>{TABLE}</div><p>{INTRO}</p>"
    text = clean(_page(body))
    assert "CVE-2026-26322" in text and "Webhook without authentication" in text


def test_an_embed_block_outside_the_rich_text_still_goes() -> None:
    share = "<div class='w-embed'><p>Share this post with your team on social media.</p></div>"
    text = clean(_page(f"<p>{INTRO * 3}</p>", aside=share))
    assert INTRO.strip() in text and "Share this post" not in text


QUOTED = (
    "The gathering opened with a video castigating the pundits who had offered more cautious "
    "assessments of the timeline, and it ran for a quarter of an hour before anyone spoke."
)


def _quote(paragraph: str) -> str:
    return f"""<blockquote class="sc-1 blockquote-embed"><div class="blockquote-embed__content">
    <p>{paragraph}</p></div></blockquote>"""


def test_a_quote_embed_holding_prose_is_kept() -> None:
    body = f"<p>{INTRO * 3}</p>{_quote(QUOTED)}<p>{INTRO}</p>"
    text = clean(_page(body))
    assert f"> {QUOTED}" in text, text


def test_a_quote_embed_of_a_few_words_still_goes() -> None:
    body = f"<p>{INTRO * 3}</p>{_quote('Watch the full video on our channel.')}<p>{INTRO}</p>"
    text = clean(_page(body))
    assert INTRO.strip() in text and "Watch the full video" not in text, text
