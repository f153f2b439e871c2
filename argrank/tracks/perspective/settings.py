"""The perspective section's defaults that live with the ranker's code: the cross-lingual ranker's settings and
their ranges (crosslingual.py) and where the FreeDict dictionaries are (translation.py). Apart from that code, so
that the runs-file reader, and every `argrank` command (it lists the tracks' commands), reads them without loading
the ranker's BM25, the analyzer and their compiled kernels."""

from __future__ import annotations

from argrank.core.params import Range

SCENARIOS = ("baseline", "explicit", "implicit")  # the release's: no perspective, one stated, one to infer
# translation, concept_weight and category_weight: what `argrank perspective-cv` chooses in the inner folds of the
# real release's 27 cross-validation issues (its lockbox's choice); the others are fixed there. other_issue_penalty
# is more than the other signals can add at any setting it chooses from (1 + 0.5 + 4), so a known answer to
# another question stays below every other argument.
DEFAULTS = {
    "k1": 1.2, "b": 0.75, "feedback": 10, "concept_weight": 0.1, "category_weight": 4.0, "other_issue_penalty": 10.0,
    "translation": 1.5, "translations": 5, "specificity": 1.0,
}  # fmt: skip
RANGES = {
    "k1": Range(),
    "b": Range(0, 1),
    "feedback": Range(integer=True),  # a count of arguments; 0 is BM25 alone
    "concept_weight": Range(),
    "category_weight": Range(),
    "other_issue_penalty": Range(),  # 0: training issues' arguments compete as any other
    "translation": Range(),  # what one query word's dictionary translations weigh together; 0: no translation
    "translations": Range(integer=True),  # how many of a word's translations per language
    "specificity": Range(),  # a translated word weighs (its own-language idf / the question's highest) ** this
}
DICTIONARIES = "/usr/share/dictd"  # where Debian's dict-freedict-* packages put them
