"""The passage features' text handling: sentence splits, the comparative sentences kept and the words around each
mention."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from argrank.text.cues import SENTENCE
from argrank.tracks.comparative.passage_features import (
    SENTENCES,
    comparative_sentences,
    context_tokens,
    cue_counts,
    sentence_evidence,
    tokenize,
)

# The rule as written plainly; SENTENCES is the same rule in a form the regex engine scans faster.
PLAIN_RULE = re.compile(r"(?<=[.!?])\s+|\n+|\s{3,}")


@given(st.text(alphabet="ab.!?;, \n\t\r", max_size=60))
def test_sentences_split_where_the_plain_rule_does(text):
    assert SENTENCES.split(text) == PLAIN_RULE.split(text)


def test_sentences_end_at_punctuation_before_white_space_line_breaks_and_long_space_runs():
    text = "Version 2.1 is out. objfirst wins!  Really?\nYes   no"
    assert SENTENCES.split(text) == ["Version 2.1 is out.", "objfirst wins!", "Really?", "Yes", "no"]


def test_only_sentences_naming_both_objects_count_as_comparative():
    text = "objfirst is fast. objfirst beats objsecond!\nobjsecond is cheap.   objsecond trails objfirst"
    assert comparative_sentences(text) == ["objfirst beats objsecond!", "objsecond trails objfirst"]
    assert comparative_sentences("objfirst beats everything. objfirst wins.") == []


def test_context_tokens_mark_each_objects_neighbours_and_say_when_none_is_named():
    assert context_tokens("I think objfirst is much faster than objsecond here") == (
        "F_i F_think F_is F_much F_faster S_much S_faster S_than S_here"
    )
    assert context_tokens("ObjFirst rocks") == "F_rocks"
    assert context_tokens("nothing named here") == "NO_MENTION"


# Words that cues count or look back at, a few that they skip, and marks that end a sentence or do not.
_CUE_TEXT_WORDS = "objfirst objsecond objfirst's better worse beats than faster more both not isn't don't it's is the".split()
_CUE_TEXT = st.lists(st.sampled_from(_CUE_TEXT_WORDS + [".", "!", ";", "\n", ",", "(", '"', "'"]), max_size=30)


@given(_CUE_TEXT)
def test_cues_are_counted_sentence_by_sentence(tokens):
    text = " ".join(tokens)
    by_sentence = [cue_counts(sentence) for sentence in SENTENCE.split(text)]
    assert cue_counts(text) == {name: sum(counts[name] for counts in by_sentence) for name in cue_counts("")}


@given(_CUE_TEXT, st.lists(st.tuples(st.integers(0, 30), st.sampled_from([",", "(", '"', "-", "'"]))))
def test_punctuation_inside_a_sentence_is_not_a_word_to_cues(tokens, inserted):
    """A cue looks back over words, not marks: commas and brackets neither shift nor fill its window."""
    marked = list(tokens)
    for at, mark in sorted(inserted, reverse=True):
        marked.insert(min(at, len(marked)), mark)
    assert cue_counts(" ".join(marked)) == cue_counts(" ".join(tokens))


def test_cues_and_contexts_read_a_passage_tokenized_once_as_they_read_its_text():
    text = "ObjFirst isn't better than objsecond, (really)!\nobjsecond's faster; both are fine"
    tokens = tokenize(text)
    assert "\n" in tokens and "," in tokens
    assert cue_counts(text, tokens) == cue_counts(text)
    assert context_tokens(text, tokens) == context_tokens(text) == (
        "F_isn't F_better F_than S_isn't S_better S_than S_, S_( S_really"
    )


def _evidence_of_one(verdicts: np.ndarray) -> list[float]:
    """sentence_evidence's row for one passage, as its docstring reads."""
    if len(verdicts) == 0:
        return [0.0] * 6
    votes = list(verdicts.argmax(axis=1))
    for_first, for_second = np.log1p(votes.count(0)), np.log1p(votes.count(1))
    strongest = verdicts[:, 0].max() - verdicts[:, 1].max()
    votes_balance, votes = for_first - for_second, for_first + for_second
    return [1.0, strongest, verdicts[:, 2].mean(), np.log1p(len(verdicts)), votes_balance, votes]


@given(st.lists(st.integers(0, 12), max_size=8).flatmap(
    lambda counts: st.tuples(st.just(counts), hnp.arrays(float, (sum(counts), 3), elements=st.floats(-5, 5)))))
def test_sentence_evidence_of_all_passages_at_once_is_each_passages_own(counts_and_verdicts):
    counts, verdicts = counts_and_verdicts
    evidence = sentence_evidence(verdicts, counts)
    starts = np.cumsum(counts) - counts
    expected = [_evidence_of_one(verdicts[start : start + n]) for start, n in zip(starts, counts)]
    assert evidence.shape == (len(counts), 6)
    np.testing.assert_allclose(evidence, np.array(expected).reshape(len(counts), 6), rtol=1e-12, atol=1e-12)
