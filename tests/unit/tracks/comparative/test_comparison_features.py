"""tracks/comparative/comparison_features.py: a masked sentence's tokens by hand, and `degree`."""

from __future__ import annotations

import pytest

from argrank.tracks.comparative.comparison_features import WINDOW, comparison_tokens, degree


def _tokens(masked: str) -> list[str]:
    return comparison_tokens(masked).split(" ")


def test_a_plain_comparison_gives_every_token_in_order():
    assert _tokens("objfirst is much faster than objsecond.") == [
        "ORDER_objfirst_objsecond", "GAP_4", "LENGTH_1",  # 7 words (the full stop is one)
        "M_is", "M_much", "M_faster", "M_JJR", "M_JJR_fast", "M_than",  # between the objects, with degrees
        "A_.",  # after the second object
        "M2_is_much", "M2_much_faster", "M2_faster_than",  # bigrams between
        "M_OPENS_is", "M_CLOSES_than",
        "P_is", "P_much", "P_faster", "P_JJR_fast", "P_than",  # not negated
        "M_fast_THAN_True",  # the comparative's base, with a "than" in the middle
        "D_JJR",  # every degree of the sentence
    ]  # fmt: skip


def test_the_order_of_the_objects_is_a_token_and_the_rest_is_alike():
    forward, backward = _tokens("objfirst is faster than objsecond"), _tokens("objsecond is faster than objfirst")
    assert forward[0] == "ORDER_objfirst_objsecond" and backward[0] == "ORDER_objsecond_objfirst"
    assert forward[1:] == backward[1:]


def test_the_closest_pair_of_different_objects_splits_the_sentence():
    tokens = _tokens("objfirst said objfirst is better than objsecond")  # objfirst twice: the second is closer
    assert "GAP_3" in tokens and "M_OPENS_is" in tokens and "B_said" in tokens and "B_objfirst" in tokens
    tokens = _tokens("objsecond , objfirst is cheaper than objsecond")  # the pair around the comma is closest
    assert tokens[:2] == ["ORDER_objsecond_objfirst", "GAP_1"]
    assert [t for t in tokens if t.startswith("A_")] == ["A_is", "A_cheaper", "A_JJR", "A_JJR_cheap", "A_than"]


def test_only_the_window_of_words_before_and_after_is_kept():
    tokens = _tokens("one two three four five objfirst beats objsecond six seven eight nine")
    assert [t for t in tokens if t.startswith("B_")] == ["B_three", "B_four", "B_five"]
    assert [t for t in tokens if t.startswith("A_")] == ["A_six", "A_seven", "A_eight"]
    assert WINDOW == 3


def test_a_negation_scopes_the_middle_until_the_clause_ends():
    tokens = _tokens("objfirst is not cheap, but better than objsecond")
    scoped = [t for t in tokens if t[:2] in ("P_", "N_")]
    assert scoped == ["P_is", "N_cheap", "P_,", "P_but", "P_better", "P_JJR_good", "P_than"]
    assert "M_NEG" in tokens  # the negation is a middle word of its own
    tokens = _tokens("objfirst is not better than objsecond")
    assert [t for t in tokens if t[:2] in ("P_", "N_")] == ["P_is", "N_better", "N_JJR_good", "N_than"]


def test_a_negation_before_the_objects_is_marked_once():
    tokens = _tokens("it isn't true that objfirst is easier than objsecond")
    assert "B_isn't" in tokens and "B_NEG" in tokens
    assert tokens.count("NEG_BEFORE") == 1
    assert "NEG_BEFORE" not in _tokens("it is true that objfirst is easier than objsecond")


def test_a_question_is_marked_by_its_mark_and_by_its_first_word():
    tokens = _tokens("Which is better, objfirst or objsecond?  ")
    assert "QUESTION" in tokens and "STARTS_which" in tokens
    assert "QUESTION" not in _tokens("Which is better is clear: objfirst, not objsecond.")
    assert not any(t.startswith("STARTS_") for t in _tokens("I asked: is objfirst better than objsecond?"))


def test_a_comparative_without_than_in_the_middle_says_so():
    tokens = _tokens("objfirst is faster , objsecond is slower")
    assert "M_fast_THAN_False" in tokens and "M_fast_THAN_True" not in tokens
    assert tokens.count("D_JJR") == 2  # "faster" between, "slower" after: every degree of the sentence counts


def test_gap_and_length_are_capped():
    long_middle = "objfirst " + "very " * 15 + "objsecond"
    assert _tokens(long_middle)[1:3] == ["GAP_10", "LENGTH_3"]  # 17 words
    long_sentence = "objfirst beats objsecond " + "word " * 60
    assert _tokens(long_sentence)[2] == "LENGTH_8"


def test_without_both_objects_there_is_no_middle():
    for masked in ("nothing here at all", "objfirst alone is fastest", "objsecond and objsecond", ""):
        tokens = _tokens(masked)
        assert tokens[:2] == ["ORDER_none", "GAP_0"]
        assert not any(t.startswith(("M_", "M2_", "A_", "P_", "N_")) for t in tokens)
    assert "D_JJS" in _tokens("objfirst alone is fastest")


def test_case_does_not_matter_and_the_same_sentence_gives_the_same_tokens():
    assert comparison_tokens("OBJFIRST Is Faster Than OBJSECOND") == comparison_tokens(
        "objfirst is faster than objsecond"
    )


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("better", ("JJR", "good")), ("worse", ("JJR", "bad")), ("best", ("JJS", "good")), ("worst", ("JJS", "bad")),
        ("more", ("JJR", "more")), ("least", ("JJS", "least")),
        ("faster", ("JJR", "fast")), ("fastest", ("JJS", "fast")),  # -er, -est
        ("nicer", ("JJR", "nice")), ("finest", ("JJS", "fine")),  # after e
        ("bigger", ("JJR", "big")), ("hotter", ("JJR", "hot")),  # a doubled consonant
        ("easier", ("JJR", "easy")), ("lovelier", ("JJR", "lovely")),  # y → i
        ("water", None), ("paper", None), ("never", None), ("her", None), ("tree", None), ("est", None),
        ("fast", None), ("", None),
    ],
)  # fmt: skip
def test_degree_of_regular_and_irregular_forms_and_of_words_that_only_end_like_one(word, expected):
    assert degree(word) == expected
