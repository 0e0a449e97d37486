"""Clean mode keeps a link roundup's item headings, and still drops teasers of the site's own."""

from __future__ import annotations

from tests.render.conftest import ARTICLE_URL, clean

INTRO = "There is quite a bit of news this week, from the big code hosts and from the kernel too."
ITEMS = [
    (
        "https://isbgpsafeyet.example/",
        "Is BGP safe yet? No.",
        "Did you know the internet is held together with duct tape? Route signing helps, slowly.",
    ),
    (
        "https://github.example/blog/free-teams",
        "GitHub is now free for teams",
        "A pretty big move on their part: teams and unlimited private repositories at no cost.",
    ),
    (
        "https://lwn.example/articles/81",
        "The kernel drops an old architecture",
        "Nobody has booted it in years, and the maintainers would rather spend the time elsewhere.",
    ),
]


def _item(href: str, title: str, comment: str) -> str:
    return f'<h2><a href="{href}">{title}</a></h2><p>{comment}</p>'


def test_a_roundups_headings_linking_off_the_site_are_kept() -> None:
    body = "".join(_item(*item) for item in ITEMS)
    page = f"""<!doctype html><html><head><title>Issue 130</title></head><body><main>
    <div class="content"><p>{INTRO}</p>{body}</div></main></body></html>"""
    content = clean(page)
    for _, title, comment in ITEMS:
        assert f"## {title}\n\n{comment}" in content, content


def test_headings_linking_to_the_sites_own_pages_are_not_unwrapped() -> None:
    own = ARTICLE_URL.rsplit("/", 1)[0]
    body = "".join(
        _item(f"{own}/{i}", title, comment) for i, (_, title, comment) in enumerate(ITEMS)
    )
    page = f"""<!doctype html><html><head><title>Issue 130</title></head><body><main>
    <div class="content"><p>{INTRO}</p>{body}</div></main></body></html>"""
    content = clean(page)
    assert all(f"## {title}" not in content for _, title, _ in ITEMS), content
