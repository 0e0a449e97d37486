"""Clean mode keeps a post's section headings and lists where trafilatura found no container."""

from __future__ import annotations

from tests.render.conftest import ARTICLE_URL, clean

SECTIONS = [
    (
        "Sowing",
        "Sow the seeds indoors in March, a few millimetres deep, in a tray kept warm and moist "
        "until the first leaves show, which takes about a week in a warm room.",
    ),
    (
        "Planting out",
        "Plant them out after the last frost, deep enough to bury the lower stem, a metre apart, "
        "and water them well for the first few days while the roots settle in.",
    ),
    (
        "Feeding",
        "Feed them every week once the first fruit sets, with a liquid feed rich in potash, and "
        "pinch out the side shoots so that the plant puts its strength into the fruit.",
    ),
]
OPENING = (
    "Tomatoes are the easiest crop there is for a first garden, and these notes say what I do "
    "each year, from the seed to the last green fruit ripening on the windowsill in October."
)


def _page(sections: str) -> str:
    # No <article>, <main> or content-classed container: trafilatura's fallback reads the page.
    return f"""<!doctype html><html><head><title>Growing tomatoes</title></head><body>
    <strong>Growing tomatoes</strong><p>{OPENING}</p>{sections}</body></html>"""


def test_section_headings_between_kept_paragraphs_are_written_back() -> None:
    content = clean(_page("".join(f"<h4>{title}</h4><p>{text}</p>" for title, text in SECTIONS)))
    for title, text in SECTIONS:
        assert f"#### {title}\n\n{text}" in content, content


def test_a_pull_quote_and_another_storys_headline_are_not() -> None:
    quote = "<h2>“I put a tomato on every windowsill.”</h2>"
    teaser = f'<h3><a href="{ARTICLE_URL}-2">Why my courgettes rot every summer</a></h3>'
    (_, first), (_, second), (_, third) = SECTIONS
    content = clean(_page(f"<p>{first}</p>{quote}<p>{second}</p>{teaser}<p>{third}</p>"))
    assert all(text in content for _, text in SECTIONS), content
    assert "windowsill.”" not in content and "courgettes" not in content, content


def test_a_list_between_kept_paragraphs_is_written_back() -> None:
    items = [
        "TechCrunch: a gardening startup raises five million for its planting calendar",
        "The Daily Gardener: the calendar that tells you when to sow",
        "Allotment Weekly: why the calendar's makers started with tomatoes",
    ]
    coverage = "".join(
        f'<li><a href="https://news{i}.example/story">{item}</a></li>'
        for i, item in enumerate(items)
    )
    (_, first), (_, second), _ = SECTIONS
    content = clean(_page(f"<p>{first}</p><ul>{coverage}</ul><p>{second}</p>"))
    assert "\n".join(f"- {item}" for item in items) in content, content


def test_a_list_of_the_sites_own_stories_or_of_labels_is_not() -> None:
    own = "".join(
        f'<li><a href="{ARTICLE_URL}-{i}">{title}</a></li>'
        for i, title in enumerate(["Ten peppers for a windowsill", "Why my courgettes rot"])
    )
    labels = "<ol><li>WFCECSB</li><li>MFCECSB</li></ol>"
    (_, first), (_, second), (_, third) = SECTIONS
    content = clean(_page(f"<p>{first}</p><ul>{own}</ul><p>{second}</p>{labels}<p>{third}</p>"))
    assert all(text in content for _, text in SECTIONS), content
    assert "Ten peppers" not in content and "WFCECSB" not in content, content


def test_an_ordered_list_is_written_back_numbered_from_its_start() -> None:
    steps = "".join(f"<li>{text}</li>" for _, text in SECTIONS[1:])
    (_, first), _, _ = SECTIONS
    for start, number in [("4", 4), ("²", 1)]:
        ordered = f'<ol start="{start}">{steps}</ol>'
        content = clean(_page(f"<p>{first}</p>{ordered}<p>{OPENING}</p>"))
        assert f"{number}. {SECTIONS[1][1]}\n{number + 1}. {SECTIONS[2][1]}" in content, content
