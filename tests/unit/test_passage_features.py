"""The passage features' text handling: sentence splits, the comparative sentences kept and the words around each
mention."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from argrank.tracks.comparative.passage_features import SENTENCES, comparative_sentences, context_tokens

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
