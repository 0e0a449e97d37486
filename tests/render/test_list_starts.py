"""Clean mode numbers an ordered list from where the page starts it."""

from __future__ import annotations

import lxml.html

from sift_fetch.render.list_starts import start_number
from tests.render.conftest import clean

INTRO = "Check each machine that installed the package in the two days it was on the registry. "


def test_steps_split_by_code_listings_keep_their_numbers() -> None:
    page = f"""<html><head><title>Remediation</title></head><body><article>
    <h1>Remediation</h1><p>{INTRO * 3}</p>
    <ol><li>Pin to the last safe version:</li></ol><pre><code>npm install pkg@1.14.0</code></pre>
    <ol start="2"><li>Remove the dropper from the modules folder:</li></ol>
    <pre><code>rm -rf node_modules/plain-crypto-js</code></pre>
    <ol start="3"><li>Rotate every credential on the machine.</li>
    <li>Audit the build logs for installs of the bad versions.</li></ol>
    <p>{INTRO}</p></article></body></html>"""
    lines = clean(page).split("\n")
    assert "1. Pin to the last safe version:" in lines
    assert "2. Remove the dropper from the modules folder:" in lines
    assert "3. Rotate every credential on the machine." in lines
    assert "4. Audit the build logs for installs of the bad versions." in lines


def test_a_list_without_a_start_counts_from_one() -> None:
    page = f"""<html><head><title>Steps</title></head><body><article><h1>Steps</h1>
    <p>{INTRO * 3}</p><ol start="5"><li>Open the settings of the account.</li></ol>
    <p>{INTRO}</p><ol><li>Open the settings of the project.</li>
    <li>Turn on two-factor sign-in.</li></ol></article></body></html>"""
    lines = clean(page).split("\n")
    assert "5. Open the settings of the account." in lines
    assert "1. Open the settings of the project." in lines
    assert "2. Turn on two-factor sign-in." in lines


def test_a_start_that_is_not_a_number_reads_as_one() -> None:
    for start in ["²", "3a", "", "-2", "0x4", "9" * 5000]:
        ol = lxml.html.fromstring(f'<ol start="{start}"><li>Sow</li></ol>')
        assert start_number(ol) == 1, start
    assert start_number(lxml.html.fromstring('<ol start=" 4 "><li>Sow</li></ol>')) == 4
