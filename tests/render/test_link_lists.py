"""Clean mode leaves out lists of links to the site's other pages, and keeps the article's own
lists: sources on other sites, items that say more than their link, a long roundup."""

from __future__ import annotations

from sift_fetch.render.html import THOROUGH_MAX_ELEMENTS
from tests.render.conftest import clean

ARTICLE = """
<p>Tomatoes want six to eight hours of direct sun a day, and a bed that drains well after
rain; a raised bed in the sunniest corner of the garden is the easiest way to give them both.</p>
<p>Water them deeply twice a week rather than a little every day, so that the roots grow down
into the cooler soil instead of staying near the surface where it dries out fast.</p>
<p>Feed them every two weeks once the first fruits set, with a fertilizer that is low in
nitrogen, or the plants grow leaves at the expense of the fruit you planted them for.</p>
"""


def _page(extra: str, padding: str = "") -> str:
    return f"""<!doctype html><html><head><title>Growing tomatoes</title></head><body>
    <nav><a href="/">Home</a> <a href="/guides">Guides</a></nav>
    <article><h1>Growing tomatoes</h1><div class="entry-content">{ARTICLE}{extra}
    <p>Pick the fruits when they are fully colored and give slightly to a gentle squeeze.</p>
    </div></article>
    <footer><p>About us. Contact. Privacy policy.</p>{padding}</footer></body></html>"""


def test_a_list_of_links_to_the_sites_other_pages_is_left_out() -> None:
    more = """<div class="heading">More from the garden</div><ul>
    <li>Peppers: <a href="/guides/peppers">how to grow sweet peppers in pots</a></li>
    <li><a href="https://www.example.com/guides/basil">Basil that lasts all summer long</a></li>
    <li><a href="https://garden.example.com/guides/compost">A compost heap in a weekend</a></li>
    <li>What a small plot teaches about <a href="/guides/rotation">rotating your crops</a></li>
    </ul>"""
    content = clean(_page(more))
    assert "sweet peppers" not in content
    assert "Basil that lasts" not in content
    assert "compost heap" not in content
    assert "rotating your crops" not in content
    assert "six to eight hours" in content
    assert "Pick the fruits" in content


def test_a_very_large_page_loses_such_a_list_too() -> None:
    # Past THOROUGH_MAX_ELEMENTS clean mode runs one extraction without fallbacks; the rules on
    # the tree still apply.
    more = """<div class="heading">More from the garden</div><ul>
    <li>Peppers: <a href="/guides/peppers">how to grow sweet peppers in pots</a></li>
    <li>What a small plot teaches about <a href="/guides/rotation">rotating your crops</a></li>
    </ul>"""
    content = clean(_page(more, padding="<i></i>" * THOROUGH_MAX_ELEMENTS))
    assert "sweet peppers" not in content
    assert "rotating your crops" not in content
    assert "six to eight hours" in content


def test_a_list_of_links_to_other_sites_stays() -> None:
    sources = """<div class="heading">Sources</div><ul>
    <li>Extension: <a href="https://extension.university.edu/tomatoes">
    growing tomatoes at home</a></li>
    <li><a href="https://seeds.example.org/varieties">A catalogue of heirloom varieties</a></li>
    <li><a href="https://www.gardening.org.uk/blight">How to tell early from late blight</a></li>
    </ul>"""
    content = clean(_page(sources))
    assert "Extension: growing tomatoes at home" in content
    assert "heirloom varieties" in content
    assert "late blight" in content


def test_items_that_say_more_than_their_link_stay() -> None:
    varieties = """<ul>
    <li><a href="/guides/brandywine">Brandywine</a>, a large pink beefsteak that splits in rain</li>
    <li><a href="/guides/sungold">Sungold</a>, an orange cherry tomato, the sweetest we grew</li>
    </ul>"""
    content = clean(_page(varieties))
    assert "large pink beefsteak" in content
    assert "orange cherry tomato" in content


def test_a_long_list_of_the_sites_links_stays() -> None:
    items = "".join(
        f'<li>Variety {n}: <a href="/guides/variety-{n}">a tomato for small gardens</a></li>'
        for n in range(12)
    )
    content = clean(_page(f"<ul>{items}</ul>"))
    assert "Variety 0: a tomato for small gardens" in content
    assert "Variety 11: a tomato for small gardens" in content


def test_a_labelled_link_to_another_page_of_the_site_is_left_out() -> None:
    """USA Today's in-body "**RIVALS:** [Knicks raise heat on Nets with counter]" lines."""
    lines = """<p><b>PEPPERS: </b><a href="/guides/peppers">How to grow sweet peppers</a></p>
    <p><b>Tip:</b> <a href="/guides/basil">basil</a> planted beside them keeps pests away,
    gardeners say.</p>"""
    content = clean(_page(lines))
    assert "sweet peppers" not in content
    assert "keeps pests away" in content  # more than its link
