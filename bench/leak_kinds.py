"""What a piece of page text that is not the article looks like, for the failure counts that
bench/article_quality.py and bench/clean_quality.py print: a rough guess from its words (English,
with the commonest German, French and Spanish ones; the tuning corpus is multilingual)."""

from __future__ import annotations

import re

# Checked in this order; the first that matches names the kind.
KINDS = [
    ("comment", r"\b(comments?|repl(y|ies)|says:|thoughts on|kommentar\w*|antworten)\b"),
    ("newsletter", r"\b(newsletter|subscribe|sign up|inbox|mailing list|abonn\w*|anmelden)\b"),
    ("share", r"\b(share|tweet|facebook|twitter|linkedin|whatsapp|email this|teilen|partager)\b"),
    (
        "related",
        r"\b(related|read (more|next|also)|see also|more (from|stories)|recommend\w*|trending"
        r"|popular|you might|(auch|weiter)lesen|ähnliche|lire aussi|le puede interesar)\b",
    ),
    ("caption", r"\b(photo(graph)?|image|getty|courtesy|credit|illustration|reuters|foto|bild)\b"),
    ("copyright", r"©|\b(copyright|all rights reserved|alle rechte)\b"),
    ("promo", r"\b(advertisement|anzeige|werbung|donate|support us|spenden)\b"),
    ("byline", r"^(by |von |par |written by|posted|published|updated)|\b(19|20)\d\d\b|\b[AP]M\b"),
    ("tags", r"\b(tags?|tagged|filed under|categor(y|ies)|schlagw\w*|kategorie\w*)\b"),
]
_PATTERNS = [(name, re.compile(pattern, re.I)) for name, pattern in KINDS]


def kind(text: str) -> str:
    return next((name for name, pattern in _PATTERNS if pattern.search(text)), "other")
