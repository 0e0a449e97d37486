"""Clean mode drops what trafilatura took from outside the article's own element after the
article's last long paragraph, the short lines that close it in another template than its
paragraphs, and the deck above it; it keeps the article's start and end and a recipe's steps."""

from __future__ import annotations

from tests.render.conftest import clean

BODY = """
<p>Alaska Airlines has a new date for when it will be a full member of the Oneworld alliance,
the carrier said on Thursday, about three months later than its executives first planned.</p>
<p>One thing that has not changed are the benefits membership will bring to the airline's
frequent flyers, who will earn and redeem miles on every partner and use their lounges.</p>
<p>In addition, frequent flyers on the other members will have access to the airline's own
network of routes along the West Coast, including several new ones from Los Angeles.</p>
<p>The possibilities are tremendous, the airline's chief executive said.</p>
"""

OFFER = """
<section class="card-feature">
<div class="sub-header">Our featured card</div>
<div class="summary">
<p><strong>WELCOME OFFER:</strong> 80,000 Points</p>
<p><strong>CARD HIGHLIGHTS:</strong> 2X points on all travel and dining</p>
<p>Bonus value is an estimated value calculated by us and not the card issuer.</p>
</div>
</section>
"""


def _page(body: str, after: str, before: str = "") -> str:
    return f"""<!doctype html><html><head><title>Alaska joins Oneworld</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<div class="post-content">
<h1>Alaska joins Oneworld</h1>
<div class="article-wrapper">
{before}
<div class="article-body-content">
{body}
</div>
{after}
</div>
</div>
<footer><p>About us. Contact. Privacy policy.</p></footer></body></html>"""


def test_a_box_after_the_article_outside_its_element_goes() -> None:
    content = clean(_page(BODY, OFFER))
    assert "WELCOME OFFER" not in content
    assert "CARD HIGHLIGHTS" not in content
    assert "Bonus value" not in content
    assert "a new date for when" in content
    assert "The possibilities are tremendous" in content


def test_what_outweighs_the_article_stays() -> None:
    steps = "".join(
        f"<p>Step {n}: stir the porridge over a low heat and add the oats, the milk and the "
        f"cinnamon a little at a time until it is thick and creamy.</p>\n"
        for n in range(1, 6)
    )
    content = clean(_page(BODY, f'<div class="recipe-steps">\n{steps}</div>'))
    assert "Step 1: stir the porridge" in content
    assert "Step 5: stir the porridge" in content


def test_short_closing_lines_of_another_template_go() -> None:
    closing = """<p class="article-source">Source: Reuters, Oneworld press office</p>
<p class="helpful-prompt">Was this article helpful?</p>"""
    content = clean(_page(BODY + closing, ""))
    assert "Source: Reuters" not in content
    assert "Was this article helpful?" not in content
    assert "The possibilities are tremendous" in content


def test_closing_lines_of_the_articles_template_or_longer_ones_stay() -> None:
    note = (
        '<p class="editor-note">Editor\'s note: this story was updated on Friday with the '
        "airline's new date and comments from its chief executive.</p>"
    )
    signoff = "<p>Safe travels, everyone.</p>"
    content = clean(_page(BODY + note + signoff, ""))
    assert "Safe travels, everyone." in content
    content = clean(_page(BODY + note, ""))
    assert "Editor's note: this story was updated" in content


DECK = (
    '<p class="standfirst">Alaska Airlines will join the alliance three months late, and its '
    "frequent flyers lose nothing by the wait.</p>"
)


def test_a_deck_set_apart_above_the_article_goes() -> None:
    for deck in (DECK, DECK.replace("<p ", "<h2 ").replace("</p>", "</h2>")):
        content = clean(_page(BODY, "", before=deck))
        assert "lose nothing by the wait" not in content
        assert "Alaska Airlines has a new date" in content


def test_a_deck_named_so_among_the_articles_paragraphs_goes() -> None:
    deck = DECK.replace("standfirst", "article_excerpt")
    content = clean(_page(deck + BODY, ""))
    assert "lose nothing by the wait" not in content
    assert "Alaska Airlines has a new date" in content


def test_a_first_paragraph_of_its_own_class_among_the_articles_stays() -> None:
    intro = '<p class="story-intro">Alaska Airlines will be a full member of Oneworld in March.</p>'
    content = clean(_page(intro + BODY, ""))
    assert "will be a full member of Oneworld in March" in content


def test_paragraphs_sharing_a_template_above_the_article_stay() -> None:
    steps = "".join(
        f'<p class="step">Step {n}: whisk the eggs with the sugar until pale.</p>' for n in (1, 2)
    )
    content = clean(_page(BODY, "", before=f'<div class="steps">{steps}</div>'))
    assert "Step 1: whisk the eggs" in content
    assert "Step 2: whisk the eggs" in content


def test_a_short_label_above_the_article_stays() -> None:
    content = clean(_page(BODY, "", before='<p class="ingredients-for">For the muffins</p>'))
    assert "For the muffins" in content
