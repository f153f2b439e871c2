"""Words that mark a cue as negated, and how cue counters split text into sentences and words.

Both stance models (comparative passages, images) count cue words and flip a cue that a negation shortly precedes.
"""

from __future__ import annotations

import re

NEGATIONS = frozenset("not no never hardly neither nor cannot without nobody nothing".split())
NEGATION_WINDOW = 3  # a negation this many words before a cue negates it: "is not much better than"
SENTENCE_ENDS = ".!?;:\n"
SENTENCE = re.compile(f"[{re.escape(SENTENCE_ENDS)}]+")
WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def is_negation(word: str) -> bool:
    return word in NEGATIONS or word.endswith("n't")
