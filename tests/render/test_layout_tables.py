"""Clean mode reads a table that lays text out as the text's own blocks, and keeps data tables."""

from __future__ import annotations

from tests.render.conftest import clean

PROSE = "The installer asked for a codec pack that no mirror carried, so the evening went on it. "


def test_columns_set_in_a_one_row_table_are_read_as_paragraphs() -> None:
    page = f"""<html><head><title>Usability</title></head><body>
    <table width="90%"><tbody><tr>
      <td><p>{PROSE * 3}</p><p>The replies fell into a few groups.</p></td>
      <td><p>While I am flattered so many readers wrote, {PROSE * 2}</p></td>
    </tr></tbody></table>
    <p>{PROSE * 4}</p>
    <table><tr><th>Player</th><th>Result</th></tr>
      <tr><td>mplayer</td><td>installed after an hour</td></tr>
      <tr><td>xine</td><td>crashed on start</td></tr></table>
    <p>{PROSE * 4}</p>
    </body></html>"""
    text = clean(page)
    assert "\nThe replies fell into a few groups.\n" in f"\n{text}\n"
    assert "\nWhile I am flattered so many readers wrote," in text
    assert "| xine | crashed on start |" in text
