"""The evaluation's names and defaults, read by the command line without importing the libraries that compute."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from argrank.evaluation import names
from argrank.evaluation.comparison_text import CORRECTION_NAMES, TEST_NAMES
from argrank.evaluation.measures import canonical

REPO = Path(__file__).resolve().parents[3]


def test_reading_the_names_imports_no_numeric_library():
    script = "import sys, argrank.evaluation.names\nprint(sorted({'numpy', 'scipy', 'ir_measures'} & set(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.strip() == "[]", done.stderr


def test_every_test_and_correction_offered_has_a_name_for_the_tables():
    assert set(names.TESTS) == set(TEST_NAMES) and names.T_TEST in names.TESTS
    assert set(names.CORRECTIONS) == set(CORRECTION_NAMES) and names.HOLM in names.CORRECTIONS
    assert 0 < names.ALPHA < 1


def test_every_example_measure_in_the_help_is_a_measure():
    assert [canonical(name) for name in names.EXAMPLES.replace(" or ", ", ").split(", ")] == [
        "nDCG@10", "P@10", "P@10", "AP", "AP", "nDCG@10", "R@1000", "RR", "Judged@5", "ERR@10", "condensed-nDCG@5",
    ]  # fmt: skip
