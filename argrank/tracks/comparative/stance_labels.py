"""Touché Task 2's stance labels: what a passage says about the two objects of a comparative question.

FIRST and SECOND favour that object, NEUTRAL weighs both without a winner, NO takes no stance. A run without
stance puts `Q0` in column 2 instead (formats.runfile.Q0). The task's stance training set codes the labels as
integers. CompSent-19 labels sentences BETTER, WORSE or NONE; its NONE does not tell NEUTRAL from NO, so training
sets may hold one more label than a run does.
"""

from __future__ import annotations

LABELS = ("FIRST", "SECOND", "NEUTRAL", "NO")

# NEUTRAL or NO, not told apart (CompSent-19's NONE): a training label only, never predicted or submitted.
NONE = "NONE"
TRAINING_LABELS = (*LABELS, NONE)

# `answer_stance` in the task's stance TSV: 0 no stance, 1 neutral, 2 pro first object, 3 pro second object.
TRAINING_CODES = {0: "NO", 1: "NEUTRAL", 2: "FIRST", 3: "SECOND"}

# `most_frequent_label` in CompSent-19: BETTER and WORSE say how object_a compares with object_b.
COMPSENT_LABELS = {"BETTER": "FIRST", "WORSE": "SECOND", "NONE": NONE}
