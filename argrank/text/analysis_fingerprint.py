"""What decides an analyzer's token lists besides the text, as the stages that analyse text name it in their caches.

Apart from analyzer.py, which imports pyarrow.compute and the chunk borders' tables: a run that only ranks (its
queries analysed by an earlier stage) asks for the fingerprint to know its cached inputs are current, and analyses
nothing.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import version

# Bump when the analysis rules (analyzer.py, chunk_borders.py) change, so cached token lists made by the old rules
# are not reused.
RULES_VERSION = 2  # 2: texts cut after MAX_TEXT characters, chunks over MAX_WORD dropped


@cache
def analysis_fingerprint(language: str) -> str:
    """Our rules' version, the language, spaCy's and the tables' versions. Kept per process: each stage that
    analyses text asks for it, and each read of the versions' metadata searches the installed distributions."""
    return f"rules {RULES_VERSION}, {language}, spacy {version('spacy')}, lookups {version('spacy-lookups-data')}"
