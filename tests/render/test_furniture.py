"""Clean mode trims what frames an article, in the places it sits, and never the article."""

from __future__ import annotations

from sift_fetch.render.furniture import title_words, trim_furniture

PROSE = (
    "Balcony tomatoes need a pot of at least twenty litres, a sunny wall and water every "
    "morning; a cherry variety ripens first and keeps cropping until the first frost comes."
)


def _trim(*blocks: str) -> list[str]:
    return trim_furniture("\n\n".join(blocks)).split("\n\n")


def test_a_leading_date_byline_or_repost_note_goes() -> None:
    assert _trim("March 3, 2024", "By Jane Doe", PROSE) == [PROSE]
    assert _trim("Written by: Jane Doe", PROSE) == [PROSE]
    assert _trim("By Jane Doe", "Medically reviewed by John Roe, MD", PROSE) == [PROSE]
    assert _trim("This article originally appeared on Example News.", PROSE) == [PROSE]
    # Past the first blocks, or long enough to be prose, it stays.
    assert _trim(PROSE, PROSE, PROSE, "By the end of May") == [PROSE] * 3 + ["By the end of May"]


def test_a_leading_date_with_its_time_or_a_bare_date_label_goes() -> None:
    assert _trim("Posted: Thursday, April 21, 2022. 10:11 pm CST.", PROSE) == [PROSE]
    assert _trim("19.10.2019 07:49 Uhr", PROSE) == [PROSE]
    # The label alone, its date left in an element the extraction dropped.
    assert _trim("Posted on", PROSE) == [PROSE]
    assert _trim("Issued on: Modified:", PROSE) == [PROSE]
    assert _trim("Posted on the roof", PROSE) == ["Posted on the roof", PROSE]
    assert _trim("4th March 2026", PROSE) == [PROSE]
    assert _trim("18 July 2013 Last updated at 10:23 GMT", PROSE) == [PROSE]
    assert _trim("Thursday, July 18, 2013, 11:01 am PT (02:01 pm ET)", PROSE) == [PROSE]
    assert _trim("Last modified on Wed 4 Mar 2020 10.11 GMT", PROSE) == [PROSE]
    assert _trim("January 22, 2026 - 9 min", PROSE) == [PROSE]
    assert _trim("14 hours ago", PROSE) == [PROSE]


def test_a_leading_byline_set_as_a_heading_goes_and_a_sections_heading_stays() -> None:
    assert _trim("### By Maria Popova", PROSE) == [PROSE]
    assert _trim("## By the numbers", PROSE) == ["## By the numbers", PROSE]


def test_an_ads_or_embeds_label_goes_and_a_sentence_about_ads_stays() -> None:
    assert _trim(PROSE, "Advertisement", PROSE, "###### Werbung", PROSE) == [PROSE] * 3
    assert _trim(PROSE, "Loading...", PROSE, "View on Instagram", PROSE) == [PROSE] * 3
    reaction = "What\u2019s Your Reaction?Share this reaction with your friends!"
    assert _trim(PROSE, "Loading Photo Gallery", PROSE, reaction, PROSE) == [PROSE] * 3
    assert _trim(PROSE, "> View this post on Instagram", PROSE) == [PROSE] * 2
    # Placeholders left unfilled: an embed's, a CMS template's.
    assert _trim(PROSE, "## \\[Embed\\]", PROSE, "{{cta}}", PROSE) == [PROSE] * 3
    for label in ["### Share This", "## Now Playing", "Tags:", "(Source)", "Image 1 of 8"]:
        assert _trim(PROSE, label, PROSE) == [PROSE, PROSE]
    for button in ["Prev", "Next", "Pause", "Play Video - 2:46", "Skip to main content"]:
        assert _trim(PROSE, button, PROSE) == [PROSE, PROSE]
    template = "Write {{ name }} where the name goes."
    assert _trim(PROSE, template, PROSE) == [PROSE, template, PROSE]
    sentence = "Advertisement spending on gardening shows doubled."
    assert _trim(PROSE, sentence, PROSE) == [PROSE, sentence, PROSE]


def test_captions_and_credit_lines_go() -> None:
    assert _trim(PROSE, "Photo: a Sungold truss in July", PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Video: watering in hot weather") == [PROSE]
    assert _trim(PROSE, "(Credit: Jane Doe / Example News)", PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Photo source: Jane Doe from Pexels.", PROSE) == [PROSE, PROSE]
    # A wire's or the paper's own credit alone on its line.
    for credit in ["Reuters", "### Associated Press", "From The Tribune staff reports"]:
        assert _trim(PROSE, credit, PROSE) == [PROSE, PROSE]
    sentence = "Reuters reported the vote first."
    assert _trim(PROSE, sentence, PROSE) == [PROSE, sentence, PROSE]


def test_a_numbered_figures_caption_and_an_image_credit_go() -> None:
    assert _trim(PROSE, "Figure 1: Yield per plant by variety.", PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Fig. 2. Roots after six weeks", PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Featured image by Jane Doe/Example News.", PROSE) == [PROSE, PROSE]
    for credit in ["Featured image: Jane Doe via Unsplash", "Titelbild: Flickr, CC BY 2.0"]:
        assert _trim(PROSE, credit, PROSE) == [PROSE, PROSE]
    for credit in ["Bildquelle: Peter Ferstl", "Crédits photos : Bestimage"]:
        assert _trim(PROSE, credit, PROSE) == [PROSE, PROSE]
    # A sentence about a figure is the article's.
    about = "Figure 1 shows that the cherry varieties cropped first."
    assert _trim(PROSE, about, PROSE) == [PROSE, about, PROSE]


def test_an_affiliate_disclosure_goes() -> None:
    disclosure = "This post contains affiliate links: we may earn a commission at no cost to you."
    assert _trim(disclosure, PROSE, PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Anzeige, enthält Affiliate Links", PROSE) == [PROSE, PROSE]
    sponsored = "\u2013 Anzeige: Dieser Beitrag ist in Zusammenarbeit mit Barbour entstanden \u2013"
    assert _trim(PROSE, sponsored, PROSE) == [PROSE, PROSE]
    assert _trim("This post is sponsored by Seedco.", PROSE, PROSE) == [PROSE, PROSE]
    retailers = "Garden Weekly has affiliate relationships with retailers and may earn a share."
    assert _trim(retailers, PROSE, PROSE) == [PROSE, PROSE]
    owner = "* Seedco is a minority investor in Leaf Media, which owns this site."
    assert _trim(PROSE, PROSE, owner) == [PROSE, PROSE]
    # An article's paragraph about affiliate links is long enough to be prose.
    about = PROSE + " " + PROSE + " Affiliate links pay for the seeds we test each spring."
    assert _trim(PROSE, about) == [PROSE, about]


def test_end_matter_goes_up_to_the_last_paragraph_of_the_article() -> None:
    end = [
        "Follow us on Mastodon for more gardening news.",
        "This project was supported by a local grant.",
        "Questions? Write to garden@example.org",
    ]
    assert _trim(PROSE, PROSE, *end) == [PROSE, PROSE]
    press_office = (
        "Garden Society, Press Office, 1 High Street, Leeds. Phone 0113 555, Fax 0113 556"
    )
    permalink = "Permalink: https://example.org/news/2021/balcony-tomatoes"
    assert _trim(PROSE, PROSE, press_office, permalink) == [PROSE, PROSE]


def test_a_posts_closing_date_and_a_wire_storys_links_and_credits_are_end_matter() -> None:
    assert _trim(PROSE, PROSE, "—", "Published March 4, 2026", "—") == [PROSE, PROSE]
    ap = ["___", "Follow Alicia Chang at: http://twitter.com/SciWriAlicia", "___", "Online:"]
    assert _trim(PROSE, PROSE, *ap, "Science: http://www.sciencemag.org") == [PROSE, PROSE]
    assert _trim(PROSE, PROSE, "___", "Daraghmeh reported from Ramallah, West Bank.") == [
        PROSE,
        PROSE,
    ]
    policy = (
        "Example News moderates all comments. Comments that are abusive or off-topic will not "
        "be posted to the site."
    )
    contact = "To contact the editor responsible for this story: Jane Doe at jdoe@example.org"
    assert _trim(PROSE, PROSE, contact, policy) == [PROSE, PROSE]
    # A bare address may be the last thing the post points to.
    link = "https://www.emacswiki.org/emacs/LocateFilesAnywhere"
    assert _trim(PROSE, PROSE, link) == [PROSE, PROSE, link]


def test_a_storys_appeal_for_information_is_not_the_sites_contact_line() -> None:
    appeals = [
        "Those with information on the robbery are asked to contact the police tip line at"
        " 555-0100 or e-mail tips@example.gov.",
        "Anyone with information should call detectives at 555-0199.",
    ]
    for appeal in appeals:
        assert _trim(PROSE, PROSE, appeal) == [PROSE, PROSE, appeal]
    assert _trim(PROSE, PROSE, "To contact the reporter: jdoe@example.org") == [PROSE, PROSE]


def test_handles_mail_us_lines_and_contributors_credits_are_end_matter() -> None:
    assert _trim(PROSE, PROSE, "Follow Jane Doe on Twitter.") == [PROSE, PROSE]
    assert _trim(PROSE, PROSE, "Connect with me @JaneDoe1") == [PROSE, PROSE]
    end = ["-- By Jane Doe Follow @janedoe", "Questions? Comments? Email us at"]
    assert _trim(PROSE, PROSE, *end) == [PROSE, PROSE]
    credit = "The Associated Press contributed to this report."
    assert _trim(PROSE, PROSE, credit) == [PROSE, PROSE]
    assert _trim(PROSE, PROSE, "Contributing: Jane Doe, Associated Press.") == [PROSE, PROSE]
    assert _trim(PROSE, PROSE, "Additional reporting by Jane Doe.") == [PROSE, PROSE]
    prompt = "Have something to say? Let us know in the comments section or email the author."
    assert _trim(PROSE, PROSE, prompt) == [PROSE, PROSE]
    help_line = "Need my help? You can get in touch with me here."
    assert _trim(PROSE, PROSE, help_line) == [PROSE, PROSE]
    assert _trim(PROSE, PROSE, "With files from The Canadian Press") == [PROSE, PROSE]
    wire = "Reporting by Jane Doe in Leeds; Editing by John Roe"
    assert _trim(PROSE, PROSE, wire) == [PROSE, PROSE]
    # Only at the end: between paragraphs the same line is someone else's account.
    assert _trim(PROSE, "Follow Jane Doe on Twitter.", PROSE)[1] == "Follow Jane Doe on Twitter."
    # A closing line that follows something other than an account stays.
    story = "Follow the vote count on our live page."
    assert _trim(PROSE, PROSE, story)[-1] == story
    story = "Connect with the garden society at its spring fair."
    assert _trim(PROSE, PROSE, story)[-1] == story


def test_a_closing_paragraph_that_mentions_a_cue_stays() -> None:
    closing = PROSE + " Contact your local allotment society to swap seeds and stories."
    assert _trim(PROSE, closing) == [PROSE, closing]
    code = "```python\nprint('subscribe')\n\nprint('contact')\n```"
    markdown = f"{PROSE}\n\n{code}"
    assert trim_furniture(markdown) == markdown  # a code block is never end matter


def test_a_page_that_is_all_furniture_keeps_its_text() -> None:
    assert trim_furniture("Subscribe to our newsletter") == "Subscribe to our newsletter"
    assert trim_furniture("Photo: a tomato") == "Photo: a tomato"


def test_a_leading_heading_that_says_a_title_goes() -> None:
    titles = frozenset(
        {title_words("Balcony Tomatoes: A Guide"), title_words("The Urban Gardener")}
    )
    assert _trim_titled(titles, "# Balcony tomatoes — a guide", PROSE) == [PROSE]
    assert _trim_titled(titles, "March 3, 2024", "## Balcony Tomatoes: A Guide", PROSE) == [PROSE]
    # Another heading, a title that is not a heading, or a heading past the lead, stays.
    assert _trim_titled(titles, "# Sowing", PROSE) == ["# Sowing", PROSE]
    assert (
        _trim_titled(titles, "Balcony tomatoes: a guide", PROSE)[0] == "Balcony tomatoes: a guide"
    )
    later = [PROSE, PROSE, PROSE, "## The Urban Gardener", PROSE]
    assert _trim_titled(titles, *later) == later
    # A page that is only its headline keeps it.
    assert _trim_titled(titles, "# Balcony Tomatoes: A Guide") == ["# Balcony Tomatoes: A Guide"]


def test_a_heading_that_is_a_sentence_above_the_first_paragraph_goes() -> None:
    deck = "## Small pots and a sunny wall are all a balcony crop needs."
    assert _trim(deck, PROSE, PROSE) == [PROSE, PROSE]
    assert _trim("# Balcony tomatoes", deck, PROSE) == ["# Balcony tomatoes", PROSE]
    # A section's heading, short or without a stop, or a sentence heading after the first
    # paragraph, stays.
    for heading in ("## Why small pots work best for tomatoes", "## Sow early."):
        assert _trim(heading, PROSE) == [heading, PROSE]
    assert _trim(PROSE, deck, PROSE) == [PROSE, deck, PROSE]


def _trim_titled(titles: frozenset[str], *blocks: str) -> list[str]:
    return trim_furniture("\n\n".join(blocks), titles).split("\n\n")


def test_links_to_related_articles_go() -> None:
    related = "- Ten peppers for a windowsill\n- Why my courgettes rot\n- Compost in a flat"
    assert _trim(PROSE, "#### Editors\u2019 Recommendations:", related, PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Related", "Ten peppers for a windowsill", PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Read more: Ten peppers for a windowsill", PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Lesen Sie auch: Tomaten im Topf", PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Check out: 12 tips on watering", PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "À lire aussi » Tomates en pot", PROSE) == [PROSE, PROSE]
    dont_miss = "Don\u2019t miss: How a 172-year-old nursery survived two floods"
    assert _trim(PROSE, dont_miss, PROSE) == [PROSE, PROSE]
    advice = "Don\u2019t miss the last frost date: plant out a week after it."
    assert _trim(PROSE, advice, PROSE) == [PROSE, advice, PROSE]
    # A list that is not after a cue, a long item, or prose after the cue, stays.
    assert _trim(PROSE, related, PROSE) == [PROSE, related, PROSE]
    long_item = "- " + PROSE
    assert _trim(PROSE, "Related", long_item) == [PROSE, long_item]
    assert _trim("## Related reading", PROSE) == [PROSE]
    # A heading that only starts like a cue is the article's own.
    assert _trim(PROSE, "## Read more about soil", PROSE) == [
        PROSE,
        "## Read more about soil",
        PROSE,
    ]


def test_a_bracketed_link_to_another_story_goes_and_a_parenthesis_of_the_text_stays() -> None:
    promo = "(MORE: Brain Aging May Depend on Childhood Intelligence)"
    assert _trim(PROSE, promo, PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "[See also: Ten balcony herbs]", PROSE) == [PROSE, PROSE]
    aside = "(The council, asked twice, did not answer.)"
    assert _trim(PROSE, aside, PROSE) == [PROSE, aside, PROSE]


def test_a_note_on_where_the_story_ran_in_print_goes_wherever_it_sits() -> None:
    notes = [
        "This story appears in the January 2017 issue of Garden Monthly magazine.",
        "A version of this article appears in print on Dec. 5, 2016, on Page A1 of the New "
        "York edition with the headline: Tomatoes on the Balcony.",
    ]
    for note in notes:
        assert _trim(note, PROSE, PROSE) == [PROSE, PROSE]
        assert _trim(PROSE, note, PROSE) == [PROSE, PROSE]
    # The same words about something other than this article are the article's own.
    story = "The variety appeared in the 1962 edition of the seed catalogue, and sold out."
    assert _trim(PROSE, story, PROSE) == [PROSE, story, PROSE]


def test_a_layout_tables_short_single_row_goes_and_a_data_table_stays() -> None:
    assert _trim(PROSE, "|  | News > Mideast News |", PROSE, "| Send to friend |  |") == [PROSE] * 2
    table = "| Variety | Days |\n| --- | --- |\n| Cherry | 60 |"
    assert _trim(PROSE, table, PROSE) == [PROSE, table, PROSE]
    row = "| Cherry tomatoes ripen first and keep cropping until the frost |"
    assert _trim(PROSE, row, PROSE) == [PROSE, row, PROSE]


def test_other_stories_headlines_in_a_row_go() -> None:
    headlines = [
        "## Kathie Lee and Hoda look back at their year",
        "## Denzel Washington made me nervous, admits co-star",
        "## Jim Parsons on the role he found hardest to accept",
    ]
    assert _trim(PROSE, *headlines, PROSE) == [PROSE, PROSE]
    # Two in a row, headings of other levels between them, short ones or lines of text: the
    # article's own sections and figures.
    assert _trim(PROSE, *headlines[:2], PROSE) == [PROSE, *headlines[:2], PROSE]
    mixed = [headlines[0], "### " + headlines[1][3:], headlines[2]]
    assert _trim(PROSE, *mixed, PROSE) == [PROSE, *mixed, PROSE]
    figures = ["### Raised since 2016", "### 2 875 510 euros", "### Paid to the strikers"]
    assert _trim(PROSE, *figures, PROSE) == [PROSE, *figures, PROSE]
    sections = [headlines[0], PROSE, headlines[1], PROSE, headlines[2], PROSE]
    assert _trim(PROSE, *sections) == [PROSE, *sections]
    # A how-to's steps, numbered one after another over their screenshots, are the article's;
    # numbers out of order are headlines still.
    steps = [
        "## 3. Click the three dots in the bottom corner",
        "## 4. Click the embed button below it",
        "## 5. Paste the embed code into your post",
    ]
    assert _trim(PROSE, *steps, PROSE) == [PROSE, *steps, PROSE]
    ranked = [steps[0], steps[2], steps[1]]
    assert _trim(PROSE, *ranked, PROSE) == [PROSE, PROSE]


def test_related_cues_in_other_words_go() -> None:
    related = "- Ten peppers for a windowsill\n- Why my courgettes rot"
    assert _trim(PROSE, "## See also", related, PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Auch interessant:", related) == [PROSE]
    assert _trim(PROSE, "VEA TAMBIÉN: Tomates en maceta", PROSE) == [PROSE, PROSE]
    # A cue that names what follows, up to a colon, and the list after it.
    assert _trim(PROSE, "Lesen Sie auch die folgenden Beiträge:", related, PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Read also these stories from our garden desk:", related) == [PROSE]
    # Without the colon, or past a few words, it is the article's own line.
    heading = "## Read also what the seed packet says"
    assert _trim(PROSE, heading, PROSE) == [PROSE, heading, PROSE]
    long_cue = "See also the long list of varieties that grow well in a pot on a balcony:"
    assert _trim(PROSE, long_cue, related) == [PROSE, long_cue, related]
    assert _trim(PROSE, "Weiterlesen: Tomaten auf dem Balkon", PROSE) == [PROSE, PROSE]
    # A list whose first item is the cue goes whole; a list that only mentions one stays.
    cued = "- Mehr zum Thema Garten:\n" + related
    assert _trim(PROSE, cued, PROSE) == [PROSE, PROSE]
    steps = "- Read more about soil\n- Sow in March"
    assert _trim(PROSE, steps, PROSE) == [PROSE, steps, PROSE]
    assert _trim(PROSE, "Now read: Ten peppers for a windowsill", PROSE) == [PROSE, PROSE]
    learn_more = "Learn More: Seven Tips for Repotting Peppers"
    assert _trim(PROSE, learn_more, PROSE) == [PROSE, PROSE]
    for cue in ["#### RELATED TOPICS", "## Related Categories", "#### Trending Stories"]:
        assert _trim(PROSE, cue, PROSE) == [PROSE, PROSE]
    # A cue set as a heading over the story's headline, set as one too: both go. Under a
    # plain cue, or after the first, a heading opens the article's next section.
    headline = "## Seven Tips for Repotting Peppers"
    assert _trim(PROSE, "## Related Story", headline, PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Related", headline, PROSE) == [PROSE, headline, PROSE]
    section = "## Watering"
    assert _trim(PROSE, "## Related Story", headline, section, PROSE) == [PROSE, section, PROSE]


def test_a_tag_list_after_its_label_goes() -> None:
    for tags in ["Topics: gardening, tomatoes, balconies", "- Filed under: - tomatoes - pots"]:
        assert _trim(PROSE, tags, PROSE) == [PROSE, PROSE]
    sentence = "Topics: the council discussed three of them before noon."
    assert _trim(PROSE, sentence, PROSE) == [PROSE, sentence, PROSE]


def test_a_newsletter_prompt_in_the_body_goes() -> None:
    prompt = "Get The Daily Gardener by email and never miss our top stories. Free Sign Up"
    assert _trim(PROSE, prompt, PROSE, PROSE) == [PROSE, PROSE, PROSE]
    subscribe = "WANT MORE RECIPES? Subscribe to our newsletter for all of the latest updates."
    assert _trim(PROSE, subscribe, PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "## The Gardener Newsletter", PROSE, PROSE) == [PROSE] * 3
    # A sentence about a newsletter with no call to sign up, or a long paragraph, is article.
    about = "The club's newsletter printed the first report of the blight in 1998."
    assert _trim(PROSE, about, PROSE) == [PROSE, about, PROSE]
    long = PROSE + " Readers who sign up for the newsletter get the planting calendar."
    assert _trim(PROSE, long, PROSE) == [PROSE, long, PROSE]
    # A how-to's step that names a newsletter, and the heading over such steps, are article.
    heading = "### Newsletter Subscriptions via Email"
    step = "4\\. Open the signup page of the newsletter you wish to subscribe to."
    blocks = [PROSE, heading, "1\\. Copy your address from the settings.", step, PROSE]
    assert _trim(*blocks) == blocks


def test_a_newsletter_prompt_still_opens_the_end_matter() -> None:
    # The prompt is found as end matter first, so the short lines after it go with it.
    prompt = "Then sign up for our email newsletter to get the latest updates."
    blocks = [PROSE, PROSE, "Curious about soil?", prompt, "Posted by Jane Doe"]
    assert _trim(*blocks) == blocks[:3]


def test_a_cookie_consent_notice_goes_and_a_sentence_about_cookies_stays() -> None:
    notice = "Please accept YouTube cookies to play this video. By accepting you will be "
    notice += "accessing content from YouTube, a service provided by an external third party."
    assert _trim(PROSE, notice, PROSE) == [PROSE, PROSE]
    german = 'Wir verwenden Cookies. Über den Button "Alle zulassen" stimmst Du der Verwendung zu.'
    assert _trim(PROSE, german, PROSE) == [PROSE, PROSE]
    news = "The regulator said sites must let users refuse cookies as easily as accept them."
    assert _trim(PROSE, news, PROSE) == [PROSE, news, PROSE]


def test_a_byline_that_names_its_author_goes_wherever_it_sits() -> None:
    byline = "By Nada Tawfik, BBC News, New York"
    assert _trim(PROSE, PROSE, PROSE, byline, PROSE) == [PROSE] * 4
    assert _trim(PROSE, PROSE, PROSE, "Von Georg Kasch", PROSE) == [PROSE] * 4
    # Past the first blocks, a short line that starts with "By" and names no one stays.
    assert _trim(PROSE, PROSE, PROSE, "By the end of May", PROSE)[3] == "By the end of May"


def test_a_prompt_to_follow_the_site_on_a_social_network_goes() -> None:
    follow = "Follow The Daily Gardener on Twitter and Instagram @DailyGardener. Send us a tip."
    assert _trim(PROSE, follow, PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, PROSE, "Folgen Sie uns auf Twitter") == [PROSE, PROSE]
    assert _trim(PROSE, "Síguenos en Telegram, Instagram y Facebook", PROSE) == [PROSE, PROSE]
    # Someone else's accounts, a listicle's handle line without a call, a quoted post, stay.
    them = "Want to know more about Jane? Follow them on GitHub or Twitter."
    assert _trim(PROSE, them, PROSE) == [PROSE, them, PROSE]
    handle = "Gardener and author of three books on pots. Twitter: @janedoe"
    assert _trim(PROSE, handle, PROSE) == [PROSE, handle, PROSE]
    quoted = "> Follow us on Instagram for the first tomatoes of the year! @club"
    assert _trim(PROSE, quoted, PROSE) == [PROSE, quoted, PROSE]


def test_a_paywall_notice_goes_and_the_pitch_after_it() -> None:
    notice = "To view the full story, please subscribe to The Daily Gardener."
    pitch = "When you join, you get unlimited digital access to our journalism. Join now to get:"
    perks = "- Every story in full\n- A seed calendar"
    assert _trim(PROSE, PROSE, notice, pitch, perks) == [PROSE, PROSE]
    assert _trim(PROSE, PROSE, "## Sie möchten gerne weiterlesen?", "Registrieren") == [PROSE] * 2
    assert _trim(PROSE, PROSE, "To view the full story, log in.", "Forgot your password?") == [
        PROSE,
        PROSE,
    ]
    # Above a story shown in full the notice goes and the story stays.
    assert _trim(notice, PROSE, PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, notice, PROSE, PROSE) == [PROSE, PROSE, PROSE]
    # In the middle of a long story shown in full, the rest is more than a pitch: it stays.
    assert _trim(*[PROSE] * 12, notice, *[PROSE] * 8) == [PROSE] * 20
    # A sentence about a subscription is the article's.
    about = "The paper had 40,000 readers who paid for its weekly edition."
    assert _trim(PROSE, about, PROSE) == [PROSE, about, PROSE]


def test_the_authors_biography_at_the_end_goes() -> None:
    bio = "Jane Doe is the founder of The Balcony Garden and writes about growing food in flats."
    assert _trim(PROSE, PROSE, bio) == [PROSE, PROSE]
    german = "Dr. Erika Muster ist seit 2018 Redakteurin im Ressort Garten."
    assert _trim(PROSE, PROSE, german) == [PROSE, PROSE]
    assert _trim(PROSE, PROSE, "Die Autorin ist Gärtnerin in Wien.") == [PROSE, PROSE]
    about = ["## About the author", "She has grown tomatoes on balconies for twenty years."]
    assert _trim(PROSE, PROSE, *about) == [PROSE, PROSE]
    # The story's own closing line about someone it names, an institution, or a bio-like
    # paragraph before the end, stays.
    story = "Levy said the case was the unit's 16th since it was formed."
    assert _trim(PROSE, PROSE, story) == [PROSE, PROSE, story]
    house = "The White House is expected to name a new director next week."
    assert _trim(PROSE, PROSE, house) == [PROSE, PROSE, house]
    shop = "Best Buy is where you can find the Founders Edition of the card."
    assert _trim(PROSE, PROSE, shop) == [PROSE, PROSE, shop]
    early = [bio, PROSE, PROSE, PROSE, PROSE]
    assert _trim(*early) == early


def test_a_longer_copyright_notice_at_the_end_goes() -> None:
    notice = (
        "© 2024, Example News. This article is the copyrighted property of Example News. "
        "Written permission must be obtained before reprint in online or print media. "
        "Reprinting content without permission is theft."
    )
    assert _trim(PROSE, PROSE, notice) == [PROSE, PROSE]
    # In the body it is left to the shorter credit rule.
    assert _trim(PROSE, notice, PROSE) == [PROSE, notice, PROSE]


def test_a_caption_that_ends_with_its_credit_goes() -> None:
    caption = "The first tomatoes of the year at the market on Saturday. Photo: Jane Doe/AFP"
    assert _trim(PROSE, caption, PROSE) == [PROSE, PROSE]
    german = "Tomaten auf dem Balkon in Freiburg (Foto: picture alliance/dpa)"
    assert _trim(PROSE, german, PROSE) == [PROSE, PROSE]
    assert _trim(PROSE, "Jane Doe in her garden. (Picture by John Roe)", PROSE) == [PROSE] * 2
    # A longer paragraph that names its picture's source, or a sentence about a photo, stays.
    long = PROSE + " (Foto: Stadt Freiburg)"
    assert _trim(PROSE, long, PROSE) == [PROSE, long, PROSE]
    about = "She sold the photo to a local paper for ten pounds."
    assert _trim(PROSE, about, PROSE) == [PROSE, about, PROSE]
