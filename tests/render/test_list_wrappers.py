"""Clean mode keeps a short list that a link sits in, the way it keeps one without a link, and
still leaves out a list that is links."""

from __future__ import annotations

from tests.render.conftest import clean

POST = """
<p>These peanut butter balls need no baking: mix the filling, roll it into balls, chill them
for half an hour and dip them in melted chocolate, then let the shell set in the fridge.</p>
<p>Use a creamy peanut butter with nothing but peanuts and salt in it, so that the filling
holds together without crumbling when you roll it between your palms.</p>
"""

INGREDIENTS = """<div class="ingredient-group"><h4>Filling:</h4><ul>
<li>2/3 cup (160 g) <a href="https://shop.example.net/peanut-butter">creamy peanut butter</a>
(see notes)</li>
<li>3 tbsp (60 g) <a href="https://shop.example.net/maple">maple syrup</a></li>
<li>4 tbsp (30 g) coconut flour (see instructions)</li>
<li>1/8 tsp sea salt</li></ul></div>"""


def _page(extra: str) -> str:
    return f"""<!doctype html><html><head><title>Peanut butter balls</title></head><body>
    <nav><a href="/">Home</a> <a href="/recipes">Recipes</a></nav>
    <article><h1>Peanut butter balls</h1><div class="entry-content">{POST}
    <div class="recipe-card"><div class="ingredients"><h3>Ingredients</h3>{extra}</div>
    <h3>Instructions</h3><ol><li>Blend the filling until it holds together when pressed, adding
    a spoon of flour if it is sticky.</li><li>Roll it into twelve balls, chill them for thirty
    minutes, then dip each in melted chocolate.</li></ol></div></div></article>
    <footer><p>About us. Contact. Privacy policy.</p></footer></body></html>"""


def test_a_short_list_with_shop_links_in_its_own_div_is_kept() -> None:
    content = clean(_page(INGREDIENTS))
    assert "2/3 cup (160 g) creamy peanut butter (see notes)" in content
    assert "1/8 tsp sea salt" in content
    assert "Roll it into twelve balls" in content


def test_a_list_of_links_in_its_own_div_is_still_left_out() -> None:
    links = """<div class="more"><ul>
    <li><a href="https://shop.example.net/a">Peanut butter cups</a></li>
    <li><a href="https://shop.example.net/b">Maple fudge squares</a></li>
    <li><a href="https://shop.example.net/c">Coconut macaroons</a></li></ul></div>"""
    content = clean(_page(links))
    assert "Maple fudge squares" not in content
    assert "Roll it into twelve balls" in content
