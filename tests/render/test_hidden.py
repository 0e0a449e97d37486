"""Clean mode reads what a browser shows: blocks the page hides are not the article."""

from __future__ import annotations

from sift_fetch.render.html import drop_hidden_blocks, parse

STORY = "Apple sold more phones in India this quarter than in any quarter before."
POPUP = "We encourage you to register or log in and proceed, or fill up the form below."


def test_a_hidden_block_goes_and_a_hidden_formula_keeps_its_sentence() -> None:
    html = f"""<!doctype html><html><body><article><p>{STORY}</p>
    <p>Given a set of <span class="math"><span style="display: none;">x1 ... xN</span>
    <img src="x.png" alt="x"></span> phones sold, the share of older models rose.</p>
    <div id="popup" style="position: absolute; display:none"><p>{POPUP}</p></div>
    <section hidden><p>{POPUP}</p></section></article></body></html>"""
    tree = parse(html)
    drop_hidden_blocks(tree)
    text = " ".join(tree.text_content().split())
    assert STORY in text
    assert "register or log in" not in text
    assert "x1 ... xN" in text  # inline: its removal would empty the span around the picture
    assert "phones sold, the share of older models rose." in text


def test_hidden_inline_prose_goes_and_a_hidden_formulas_markup_stays() -> None:
    appeal = "We rely on your support: this site is primarily supported by advertisements."
    formula = "<math>" + "<mi>x</mi><mo>+</mo><mi>y</mi><mo>=</mo><mi>z</mi>" * 5 + "</math>"
    html = f"""<!doctype html><html><body><article>
    <strong style="display: none">{appeal}</strong><p>{STORY}</p>
    <p>The sum <span style="display:none">{formula}</span> holds for every phone.</p>
    </article></body></html>"""
    tree = parse(html)
    drop_hidden_blocks(tree)
    text = " ".join(tree.text_content().split())
    assert STORY in text
    assert "rely on your support" not in text
    assert "x+y=z" in text.replace(" ", "")
