"""question mode's ranking: what a sentence is, what counts as a match, how much comes back."""

from __future__ import annotations

from sift_fetch.render import question, render
from sift_fetch.target import Target
from tests.render.conftest import make_doc


def _passages(text: str, asked: str) -> list[str]:
    doc = make_doc(text, "text/plain; charset=utf-8")
    return render(doc, Target(doc.url, question=asked), 10_000).passages


def test_sentences_run_on_past_abbreviations_initials_and_lower_case() -> None:
    line = (
        "Settlers followed the St. Lawrence to the lakes. Dr. Watson met George W. Bush, e.g. "
        "at the fair, approx. twice. Cities (e.g. Paris) grew. The river froze? It did! Then it "
        "thawed."
    )
    assert [s.text for s in question.split_sentences(line, [])] == [
        "Settlers followed the St. Lawrence to the lakes.",
        "Dr. Watson met George W. Bush, e.g. at the fair, approx. twice.",
        "Cities (e.g. Paris) grew.",
        "The river froze?",
        "It did!",
        "Then it thawed.",
    ]


def test_question_words_and_auxiliaries_do_not_match() -> None:
    text = "What they were after, nobody knew what for.\n\nThe bridge was painted red in 1932."
    assert _passages(text, "What were the colours of the bridge?") == [
        "The bridge was painted red in 1932."
    ]


def test_accents_do_not_keep_a_question_from_its_answer() -> None:
    text = "Céloron buried lead plates along the river.\n\nThe traders left in spring."
    assert _passages(text, "Who was Celoron?") == ["Céloron buried lead plates along the river."]
    plain = text.replace("Céloron", "Celoron")
    assert _passages(plain, "Who was Céloron?") == ["Celoron buried lead plates along the river."]


def test_a_lower_cut_keeps_more_of_the_ranking() -> None:
    text = "\n\n".join(
        [
            "Falcons hunt pigeons at dawn over the cliffs.",
            "Owls hunt mice at night.",
            "Gulls steal chips on the pier.",
        ]
    )
    sentences = question.split_sentences(text, [])
    ranked = question.ranked_windows("where do falcons hunt pigeons", sentences)
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
    best = [p.text for p in question.chosen_passages(sentences, ranked, cut=1.0)]
    assert best == ["Falcons hunt pigeons at dawn over the cliffs."]
    every = [p.text for p in question.chosen_passages(sentences, ranked, cut=0.0)]
    assert every == ["Falcons hunt pigeons at dawn over the cliffs.", "Owls hunt mice at night."]


def test_equally_good_windows_are_bounded_by_top_k() -> None:
    text = "\n\n".join(f"Falcon number {n} hunts at dawn." for n in range(10, 60))
    assert len(_passages(text, "when do falcons hunt at dawn")) == question.TOP_K
