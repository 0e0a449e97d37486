"""A recipe's nutrition facts, taken out of the tree before extraction.

A recipe card's nutrition table (calories, fat, "% Daily Value", exchanges) is data about the
dish, not the post: article benchmarks leave it out with the card's times and servings, and
trafilatura kept it as a list of numbers. Recipe plugins and sites mark it in their classes or
ids (`wprm-recipe-nutrition-container`, `recipeNutrition`, `nutrition-facts`) or with schema.org
microdata (`itemprop="nutrition"`); the outermost element so marked goes, unless it holds
prose (an article about nutrition in a container named for it).
"""

from __future__ import annotations

from lxml import etree
from lxml.html import HtmlElement

from sift_fetch.render.text import word_count

# A nutrition panel is a few dozen numbers and labels; past this it is prose.
NUTRITION_MAX_WORDS = 200
# "utrition" matches "nutrition" and "Nutrition" alike (recipeNutrition, NutritionFacts).
_MARK = "utrition"
_MARKED = etree.XPath(
    "//*[contains(@class, 'utrition') or contains(@id, 'utrition') or @itemprop = 'nutrition']"
    "[not(ancestor::*[contains(@class, 'utrition') or contains(@id, 'utrition')"
    " or @itemprop = 'nutrition'])][not(self::body or self::html)]"
)


def drop_nutrition(tree: HtmlElement, html: str) -> None:
    """Take out the nutrition facts of a page whose HTML (HTML, the page's source) names them."""
    if _MARK not in html:
        return  # the XPath visits every element; ~1 page in 100 has the word in its source
    for marked in _MARKED(tree):
        if word_count(marked.text_content()) <= NUTRITION_MAX_WORDS:
            marked.drop_tree()
