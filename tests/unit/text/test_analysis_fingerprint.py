"""The fingerprint of what decides an analyzer's output besides the text: rules, language, spaCy and its tables."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from argrank.text.analysis_fingerprint import RULES_VERSION, analysis_fingerprint

REPO = Path(__file__).resolve().parents[3]


def test_the_fingerprint_names_the_rules_the_language_and_the_versions():
    assert analysis_fingerprint("de") == (
        f"rules {RULES_VERSION}, de, spacy {version('spacy')}, lookups {version('spacy-lookups-data')}"
    )
    assert analysis_fingerprint("de") != analysis_fingerprint("fr")


def test_asking_for_it_loads_no_analyzer():
    script = (
        "import sys\nfrom argrank.text.analysis_fingerprint import analysis_fingerprint\nanalysis_fingerprint('en')\n"
        "print(sorted({'spacy', 'pyarrow.compute', 'argrank.text.analyzer'} & set(sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stdout.strip() == "[]", done.stderr
