"""Clean mode keeps a callout the author set in the post, and still drops a sidebar."""

from __future__ import annotations

from tests.render.conftest import clean

PROSE = "The workflow restricts the token's permissions, so the only secret it holds is the key. "


def test_a_note_set_apart_in_the_post_is_kept_and_a_sidebar_still_goes() -> None:
    page = f"""<html><head><title>Cache poisoning</title></head><body><article>
    <p>{PROSE * 3}</p>
    <aside class="callout border-amber" role="note" aria-label="Update">
      <div><p>Update</p><p>The maintainers fixed the workflow within an hour of the report.</p>
      </div></aside>
    <p>{PROSE * 3}</p>
    <aside class="admonition warning"><p>Never run untrusted code with a write token.</p></aside>
    <p>{PROSE * 3}</p>
    <aside><h3>Popular posts</h3><p>Ten tips for faster builds in the cloud</p></aside>
    </article></body></html>"""
    text = clean(page)
    assert "fixed the workflow within an hour" in text
    assert "Never run untrusted code" in text
    assert "Ten tips for faster builds" not in text
