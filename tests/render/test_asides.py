"""Clean mode drops the blocks a page marks as asides by their ARIA role, as it does `<aside>`s."""

from __future__ import annotations

from tests.render.conftest import clean

PARAGRAPHS = [
    "The company's new owner moved quickly after the deal closed, firing several of its top "
    "executives and telling the board that he would now run the business himself.",
    "Employees learned of the changes from news reports, and many of them spent the weekend "
    "wondering whether the teams they worked on would still exist on Monday morning.",
    "Advertisers paused their spending while they waited to see what the platform's rules on "
    "content would become, and several large brands said so publicly.",
]

CARDS = [
    "The owner has moved quickly to revamp the company since he completed his buyout of the "
    "social media business in October, warning of a bleak financial picture ahead.",
    "As part of the acquisition he is delisting the company's stock and taking it out of the "
    "hands of public shareholders, which spares it quarterly financial disclosures.",
    "Just over a week after closing the deal he eliminated nearly half of the work force, and "
    "the cuts hit engineering, content moderation and the advertising departments.",
]
# An NYT story's carousel of cards on its topic, set between the story's paragraphs.
CAROUSEL = (
    '<section role="complementary" aria-label="Changes at the company"><div><h2>Changes at the'
    ' company</h2></div><div id="storyline-context-container"><span>Card 1 of 3</span>'
    + "".join(
        f"<div><div><div><p><strong>Card {number}. </strong><span>{text[:40]}"
        f'<a href="/story-{number}">{text[40:60]}</a>{text[60:]}</span></p></div></div></div>'
        for number, text in enumerate(CARDS, 1)
    )
    + "</div></section>"
)


def _page(middle: str) -> str:
    first, second, third = (f"<div><div><p>{text}</p></div></div>" for text in PARAGRAPHS)
    return f"""<!doctype html><html><head><title>The takeover</title></head><body>
    <main><article><h1>The takeover, explained</h1>
    <section name="articleBody">{first}{second}{middle}{third}</section>
    </article></main></body></html>"""


def test_a_section_marked_complementary_inside_the_story_is_dropped() -> None:
    content = clean(_page(CAROUSEL))
    for text in PARAGRAPHS:
        assert text[:40] in content, content
    assert "Changes at the company" not in content, content
    for text in CARDS:
        assert text[60:100] not in content, content


def test_a_complementary_section_holding_the_story_stays() -> None:
    html = f"""<!doctype html><html><head><title>The takeover</title></head><body>
    <section role="complementary"><article><h1>The takeover, explained</h1>
    {"".join(f"<p>{text}</p>" for text in PARAGRAPHS)}</article></section></body></html>"""
    content = clean(html)
    for text in PARAGRAPHS:
        assert text[:40] in content, content
