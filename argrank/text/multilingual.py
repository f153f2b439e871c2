"""Analyzers for a `language` setting: one spaCy language, or several for a corpus that mixes them, each text
analysed by its own language's rules; one Analyzer per language and process."""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

import numpy as np
import pyarrow as pa

from argrank.core.collector import fewer_collections
from argrank.text.analyzer import Analyzer
from argrank.text.language import LanguageDetector, words


class MultilingualAnalyzer:
    """Analyses each text with the Analyzer of its language: given (a document's detected language, stored at
    ingest) or detected here (a query). Terms of different languages share one index; a word spelled alike in
    two of them ("cannabis", "AHV") is one term, which is what lets some evidence cross languages."""

    def __init__(self, languages: Sequence[str]):
        self.detector = LanguageDetector(languages)

    def analyzer(self, language: str) -> Analyzer:
        if language not in self.detector.languages:
            raise ValueError(f"language {language!r} is not one of {', '.join(self.detector.languages)}")
        return shared_analyzer(language)

    def detect(self, text: str) -> str:
        """A question's language: the one with the most stop words in it; a tie goes to the language whose lemma
        table knows the most of its words (a short Italian question may hold as many stop words that French lists
        too, "i", "si", "l'", as Italian ones: 1 of the release's 105 training questions), then the earlier one."""
        counts = self.detector.counts(text)
        tied = np.flatnonzero(counts == counts.max())
        if len(tied) > 1:
            found = words(text)
            known = [sum(map(self.analyzer(self.detector.languages[i]).knows, found)) for i in tied]
            tied = tied[[int(np.argmax(known))]]
        return self.detector.languages[int(tied[0])]

    def analyze(self, text: str, language: str | None = None) -> list[str]:
        return self.analyzer(language or self.detect(text)).analyze(text)

    def analyze_many(self, texts: Iterable[str] | pa.Array, languages: Sequence[str] | None = None) -> pa.ListArray:
        """Like Analyzer.analyze_many, each text analysed by its language (detected where not given)."""
        texts = [text or "" for text in (texts.to_pylist() if isinstance(texts, pa.Array) else texts)]
        languages = list(languages) if languages is not None else self.detector.detect_many(texts)
        groups = {language: [i for i, lang in enumerate(languages) if lang == language] for language in set(languages)}
        parts, rows = [], []
        for language in sorted(groups):
            parts.append(self.analyzer(language).analyze_many([texts[i] for i in groups[language]]))
            rows.extend(groups[language])
        if not parts:
            return pa.array([], type=pa.list_(pa.string()))
        combined = pa.concat_arrays(parts)
        return combined.take(pa.array(np.argsort(np.asarray(rows, dtype=np.int64), kind="stable")))


@lru_cache(maxsize=None)
def shared_analyzer(language: str) -> Analyzer:
    """One Analyzer per language and process: loading a lemma table is costly (French's most), and a multilingual
    graph's every ranking stage needs all of them. Sharing is safe: an Analyzer's output depends only on the text.
    Built with fewer collector passes: spaCy's import and the tables make objects that all live on, and the default
    threshold's passes over them, which free nothing, would be a good part of building one."""
    with fewer_collections():
        return Analyzer(language)


def make_analyzer(language: str) -> Analyzer | MultilingualAnalyzer:
    """The analyzer a `language` setting names: one spaCy code ("en"), or several separated by commas ("de,fr,it")
    for a corpus that mixes them."""
    languages = [code.strip() for code in language.split(",") if code.strip()]
    return (
        MultilingualAnalyzer(languages)
        if len(languages) > 1
        else shared_analyzer(languages[0] if languages else language)
    )
