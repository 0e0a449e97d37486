"""Clean mode leaves out a recipe card's nutrition facts and keeps the recipe."""

from __future__ import annotations

from tests.render.conftest import clean

POST = """
<p>This pineapple upside-down cake is the one my grandmother baked every summer, with a brown
sugar glaze that soaks into the crumb and caramelizes around the edges of the pan.</p>
<p>Use canned pineapple rings in juice, not syrup, and pat them dry so that the glaze sets
instead of turning watery while the cake bakes in a hot oven.</p>
<h2>Ingredients</h2>
<ul><li>1 can (20 oz) pineapple slices in juice, drained</li><li>1/4 cup butter, melted</li>
<li>2/3 cup packed brown sugar</li><li>1 box yellow cake mix</li></ul>
<h2>Steps</h2>
<ol><li>Heat the oven to 350 degrees and butter a 13x9-inch pan generously.</li>
<li>Pour the melted butter into the pan, sprinkle the brown sugar over it evenly, and arrange
the pineapple slices on top.</li>
<li>Bake for 45 minutes, until a toothpick inserted in the center comes out clean, then turn
the cake out onto a plate at once.</li></ol>
"""

NUTRITION = """
<div class="{cls}"{attrs}><h3>Nutrition Information</h3>
<dl><dt>Calories</dt><dd>390</dd><dt>Calories from Fat</dt><dd>140</dd>
<dt>Total Fat</dt><dd>16g</dd><dt>Saturated Fat</dt><dd>5g</dd><dt>Sodium</dt><dd>310mg</dd>
<dt>Total Carbohydrate</dt><dd>60g</dd><dt>Dietary Fiber</dt><dd>1g</dd></dl>
<h5>% Daily Value</h5><ul><li>Vitamin A 10%</li><li>Calcium 10%</li><li>Iron 4%</li></ul></div>
"""


def _page(nutrition: str) -> str:
    return f"""<!doctype html><html><head><title>Pineapple upside-down cake</title></head>
    <body><nav><a href="/">Home</a> <a href="/recipes">Recipes</a></nav>
    <article><h1>Pineapple upside-down cake</h1><div class="entry-content">{POST}{nutrition}
    </div></article><footer><p>About us. Contact. Privacy policy.</p></footer></body></html>"""


def test_a_recipes_nutrition_facts_go_and_the_recipe_stays() -> None:
    for cls, attrs in [("recipeNutrition primary", ""), ("card", ' itemprop="nutrition"')]:
        content = clean(_page(NUTRITION.format(cls=cls, attrs=attrs)))
        assert "Calories from Fat" not in content, cls
        assert "Total Carbohydrate" not in content, cls
        assert "grandmother baked" in content
        assert "2/3 cup packed brown sugar" in content
        assert "turn the cake out onto a plate" in content


def test_prose_in_a_container_named_for_nutrition_stays() -> None:
    essay = " ".join(["Fiber keeps you full for longer and steadies your blood sugar."] * 25)
    content = clean(_page(f'<div class="nutrition-essay"><p>{essay}</p></div>'))
    assert "steadies your blood sugar" in content
