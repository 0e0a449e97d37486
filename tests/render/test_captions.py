"""Clean mode leaves out a caption whose class names it with a capital, a caption cell and a
short credit, and sets a table's own caption above it."""

from __future__ import annotations

from sift_fetch.render.captions import drop_captions
from sift_fetch.render.html import parse
from tests.render.conftest import clean

CAPTION = "The observatory captured this image of the solar flare on May 14, 2013. Credit: NASA"
STORY = "The sun unleashed its fourth major flare in two days on Wednesday, scientists said."


def test_a_caption_named_in_camel_case_is_taken_out_of_the_tree() -> None:
    html = f"""<!doctype html><html><body><div id="article"><h1>Solar flares</h1>
    <div class="contentImage"><img src="flare.jpg"><span class="imageCaption">{CAPTION}</span>
    </div><div id="photoCaption_2"><p>{CAPTION}</p></div><p>{STORY}</p></div></body></html>"""
    tree = parse(html)
    drop_captions(tree, html)
    text = tree.text_content()
    assert STORY in text
    assert "captured this image" not in text


def test_a_page_that_names_no_caption_with_a_capital_is_left_as_it_is() -> None:
    """The lower-case names are trafilatura's to drop; the tree is not searched."""
    html = f"""<!doctype html><html><body><p>{STORY}</p>
    <span class="imagecaption">{CAPTION}</span></body></html>"""
    tree = parse(html)
    drop_captions(tree, html)
    assert "captured this image" in tree.text_content()


def test_a_short_block_named_a_credit_goes_and_a_long_one_stays() -> None:
    story = " ".join([STORY] * 6)  # a block whose class says "credit", longer than any credit
    html = f"""<!doctype html><html><body><div id="article"><p>{STORY}</p>
    <div class="inlinePhoto"><img src="map.jpg"><p class="photo_credit">UTL / Colorado State
    University</p><div class="photo_credit_container"><p>{CAPTION}</p></div></div>
    <div class="credit-card-story"><p>{story}</p></div></div></body></html>"""
    tree = parse(html)
    drop_captions(tree, html)
    text = tree.text_content()
    assert "Colorado State" not in text
    assert "captured this image" not in text
    assert text.count(STORY) == 7


def test_a_caption_cell_under_a_picture_goes_and_the_table_cells_beside_it_stay() -> None:
    """Blogger sets a picture's caption in the table cell under it (`td.tr-caption`), which
    trafilatura does not test; a data table's cells are not named so and stay."""
    html = f"""<!doctype html><html><body><div class="post-body"><p>{STORY}</p>
    <table class="tr-caption-container"><tbody><tr><td><img src="flare.jpg"></td></tr>
    <tr><td class="tr-caption">{CAPTION}</td></tr></tbody></table>
    <table><tr><td>Flares this week</td><td>4</td></tr></table></div></body></html>"""
    tree = parse(html)
    drop_captions(tree, html)
    text = tree.text_content()
    assert "captured this image" not in text
    assert STORY in text
    assert "Flares this week" in text


def test_a_tables_caption_is_a_line_above_it_not_a_header_row() -> None:
    rows = "".join(
        f"<tr><td>{symptom}</td><td>{cause}</td></tr>"
        for symptom, cause in [
            ("Serving 500s", "The database refuses connections"),
            ("Slow", "CPUs"),
        ]
    )
    page = f"""<html><head><title>Monitoring</title></head><body><article><p>{STORY}</p>
    <p>{STORY}</p><table><caption><span>Table 6-1.</span> Example symptoms and causes</caption>
    <thead><tr><th>Symptom</th><th>Cause</th></tr></thead><tbody>{rows}</tbody></table>
    <p>{STORY}</p></article></body></html>"""
    lines = clean(page).split("\n")
    caption = lines.index("Table 6-1. Example symptoms and causes")
    assert lines[caption + 1 : caption + 4] == ["", "| Symptom | Cause |", "|---|---|"]
    assert lines.count("|---|---|") == 1
