"""tracks/comparative/stance_labels.py: the labels, and the codes checked against the training sets."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

from argrank.formats.runfile import Q0
from argrank.tracks.comparative.stance_labels import COMPSENT_LABELS, LABELS, NONE, TRAINING_CODES, TRAINING_LABELS

EMBEDDED = Path(__file__).resolve().parents[4] / "data" / "comparative-stance" / "stance-train.tsv"


def test_a_run_says_one_of_four_labels_in_a_fixed_order_and_never_none_or_q0():
    assert LABELS == ("FIRST", "SECOND", "NEUTRAL", "NO")
    assert NONE not in LABELS and Q0 not in LABELS


def test_training_labels_are_the_run_labels_and_none_after_them():
    assert TRAINING_LABELS == (*LABELS, "NONE")
    assert NONE == "NONE"


def test_the_training_codes_are_0_to_3_and_each_run_label_has_exactly_one():
    assert sorted(TRAINING_CODES) == [0, 1, 2, 3]
    assert sorted(TRAINING_CODES.values()) == sorted(LABELS)
    assert TRAINING_CODES == {0: "NO", 1: "NEUTRAL", 2: "FIRST", 3: "SECOND"}


def test_compsent_labels_say_how_the_first_object_compares_and_only_none_is_training_only():
    assert COMPSENT_LABELS == {"BETTER": "FIRST", "WORSE": "SECOND", "NONE": NONE}
    assert set(COMPSENT_LABELS.values()) <= set(TRAINING_LABELS)
    assert set(COMPSENT_LABELS.values()) - set(LABELS) == {NONE}


def _favoured(path: Path) -> Counter:
    """(label of the row's answer_stance, which object its answer_stance_object column names) over the rows."""
    counts: Counter = Counter()
    with path.open(encoding="utf-8", newline="") as file:
        for row in csv.DictReader(file, delimiter="\t", quoting=csv.QUOTE_NONE):
            named = row["answer_stance_object"].strip().lower()
            first, second = row["object_1"].strip().lower(), row["object_2"].strip().lower()
            which = "first" if named and named == first else "second" if named and named == second else "neither"
            counts[TRAINING_CODES[int(row["answer_stance"])], which] += 1
    return counts


def _check_codes_name_the_favoured_object(counts: Counter) -> None:
    assert counts["FIRST", "first"] > 0 and counts["SECOND", "second"] > 0
    assert counts["FIRST", "second"] == counts["FIRST", "neither"] == 0
    assert counts["SECOND", "first"] == counts["SECOND", "neither"] == 0
    assert counts["NO", "first"] == counts["NO", "second"] == 0
    assert counts["NEUTRAL", "first"] == counts["NEUTRAL", "second"] == 0


def test_the_embedded_training_set_favours_object_1_with_code_2_and_object_2_with_code_3():
    counts = _favoured(EMBEDDED)
    _check_codes_name_the_favoured_object(counts)
    assert {label for label, _ in counts} == set(LABELS)


def test_the_real_training_set_favours_object_1_with_code_2_and_object_2_with_code_3(shared_data):
    _check_codes_name_the_favoured_object(_favoured(shared_data / "comparative-stance" / "touche-stance-train.tsv"))
