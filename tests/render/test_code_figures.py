"""Clean mode keeps a listing set in a `<figure>` or written one element a line as a code block."""

from __future__ import annotations

from tests.render.conftest import clean


def _page(listing: str) -> str:
    paragraphs = [
        "The release script reads the token from the environment, so a leaked cache can hand an "
        "attacker everything the nightly workflow is allowed to publish to the registry.",
        "Pinning the cache key to the workflow's own files closes that door, and costs nothing "
        "on a project whose nightly build runs once a day from a clean checkout.",
    ]
    return f"""<!doctype html><html><head><title>Cache poisoning</title></head><body>
    <article><h1>Cache poisoning</h1><p>{paragraphs[0]}</p>{listing}<p>{paragraphs[1]}</p>
    </article></body></html>"""


def test_a_jekyll_highlight_figure_is_a_fenced_block_with_its_language() -> None:
    listing = """<figure class="highlight"><pre><code class="language-ruby" data-lang="ruby">
def publish(token)
  Registry.push(token)
end</code></pre></figure>"""
    content = clean(_page(listing))
    assert "```ruby\ndef publish(token)\n  Registry.push(token)\nend\n```" in content, content
    assert content.index("leaked cache") < content.index("```ruby") < content.index("Pinning")


def test_an_expressive_code_listing_keeps_its_lines_and_drops_their_numbers() -> None:
    lines = "".join(
        f'<div class="ec-line"><div class="gutter"><div class="ln" aria-hidden="true">{n}</div>'
        f'</div><div class="code"><span>{text}</span></div></div>'
        for n, text in enumerate(["const token = process.env.TOKEN;", "publish(token);"], 1)
    )
    listing = f"""<div class="expressive-code"><figure class="frame has-title">
    <figcaption class="header"><span class="title">src/release.js</span></figcaption>
    <pre data-language="javascript"><code>{lines}</code></pre>
    <div class="copy"><button title="Copy to clipboard"></button></div></figure></div>"""
    content = clean(_page(listing))
    assert "```javascript\nconst token = process.env.TOKEN;\npublish(token);\n```" in content, (
        content
    )
    assert "src/release.js" not in content


def test_a_diagrams_source_stays_in_its_figure() -> None:
    listing = """<figure class="mermaid-diagram"><div class="mermaid-container">
    <pre class="mermaid">sequenceDiagram
  actor Attacker
  Attacker->>Cache: poison the nightly key</pre></div></figure>"""
    content = clean(_page(listing))
    assert "Pinning the cache key" in content
    assert "sequenceDiagram" not in content
