"""Query translation with bilingual dictionaries, so a French or Italian question also finds the German majority
of the corpus (57 % German, 39 % French, 4 % Italian arguments in the real release) by its own words.

The dictionaries are FreeDict's, as Debian installs them (`make run` installs the packages where it may; see the
README): `freedict-SRC-TGT.index` + `.dict.dz` under one folder. A pair is read in both directions (a German–Italian
dictionary read backwards is an Italian–German one), and where a word has no entry for a pair it is translated
through French, the pivot: FreeDict's Italian–German pair has 2,924 headwords, its French–Italian one 52,964.

A question's words are translated into each language listed before its own, one word at a time: only words its
own analyzer keeps (a stop word such as "della" or "in" has entries too, "von 2." and "daheim" among them, which
matched other questions' arguments), by their surface form and their lemma, up to `limit` translations per form.
A word's translations, analysed by the target language's analyzer, are one *structured* term (Pirkola, 1998): the
ranker scores them as if they were one word, their frequencies summed and their document frequency that of any
of them, so a word with a rare wrong sense (Italian "appoggiare" → German "Säule", pillar) counts no more than a
word with one translation, and a common sense dilutes a rare one. A query is translated from its own text alone:
the rankings of a question do not depend on which other questions are ranked with it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from argrank.formats.dictd import read_dictd
from argrank.index.vocabulary import Vocabulary
from argrank.text.multilingual import MultilingualAnalyzer
from argrank.tracks.perspective.settings import DICTIONARIES  # noqa: F401 (where its importers look)

FREEDICT_CODES = {"de": "deu", "fr": "fra", "it": "ita"}
PIVOT = "fr"
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


@dataclass(frozen=True)
class Lexicon:
    """word → translations, per (source, target) language pair, and the dictionary files they were read from."""

    pairs: dict[tuple[str, str], dict[str, list[str]]]
    files: tuple[Path, ...]

    def translate(self, word: str, source: str, target: str) -> list[str]:
        """`word`'s translations from `source` into `target`, direct entries first, else through PIVOT."""
        direct = self.pairs.get((source, target), {}).get(word)
        if direct or PIVOT in (source, target):
            return direct or []
        through = self.pairs.get((PIVOT, target), {})
        return _distinct(t for middle in self.translate(word, source, PIVOT) for t in through.get(middle.lower(), ()))


def dictionary_files(folder: str | Path, languages: Sequence[str]) -> list[Path]:
    """The FreeDict indexes under `folder` between two of `languages`, sorted (none where the folder is missing)."""
    codes = [FREEDICT_CODES[language] for language in languages if language in FREEDICT_CODES]
    names = [f"freedict-{a}-{b}.index" for a in codes for b in codes if a != b]
    return sorted(path for path in (Path(folder) / name for name in names) if path.exists())


def read_lexicon(folder: str | Path, languages: Sequence[str]) -> Lexicon:
    """Every pair of `languages` from the FreeDict dictionaries found under `folder`: each file's own direction
    first, then the reverse direction's dictionary read backwards.

    Read once per process while the files stay as they are (size and modification time): reading them took about 4
    CPU-seconds, which every ranking of the track paid again (six in `make run`)."""
    files = dictionary_files(folder, languages)
    return _read_lexicon(tuple(files), tuple((path.stat().st_size, path.stat().st_mtime_ns) for path in files))


@lru_cache(maxsize=2)
def _read_lexicon(files: tuple[Path, ...], stamps: tuple[tuple[int, int], ...]) -> Lexicon:
    language_of = {code: language for language, code in FREEDICT_CODES.items()}
    direct: dict[tuple[str, str], dict[str, list[str]]] = {}
    for path in files:
        source, target = (language_of[code] for code in path.name.removesuffix(".index").split("-")[1:])
        direct[source, target] = read_dictd(path)
    backward: dict[tuple[str, str], dict[str, list[str]]] = {}
    for (source, target), entries in sorted(direct.items()):
        reverse = backward.setdefault((target, source), {})
        for word, translations in entries.items():
            for translation in translations:
                reverse.setdefault(translation.lower(), []).append(word)
    pairs = {}
    for pair in sorted({*direct, *backward}):
        own, read_back = direct.get(pair, {}), backward.get(pair, {})
        pairs[pair] = {  # a pair's own dictionary's translations before those read backwards
            word: _distinct([*own.get(word, ()), *read_back.get(word, ())]) for word in sorted({*own, *read_back})
        }
    return Lexicon(pairs, files)


@dataclass(frozen=True)
class Question:
    """A question as the ranker reads it: its language, its own terms (ids, each weighted by its count) and, per
    word translated, the ids its translations analyse to in one other language (a structured term)."""

    language: str
    ids: list[int]
    weights: list[float]
    translations: list[tuple[int, ...]]
    translation_weights: list[float] = field(default_factory=list)  # each translated word's specificity (1 if none)


@dataclass(frozen=True)
class QueryTerms:
    """Turns a question's text into a `Question`: its words analysed in its own language, and each word its
    analyzer keeps translated into the languages listed before its own, up to `limit` translations per form.

    With `frequencies` (per language, each term's document frequency among that language's documents and their
    count) a translated word weighs its specificity: its idf among its own language's documents over the question's
    most specific word's, to the power `specificity`. A question's generic words ("dovere", the lemma of
    "dovrebbe", should: German "Gebühr", "schulden") then bring less of the other languages than its subject does;
    the question's own words need no such weight, BM25's idf gives it."""

    analyzer: MultilingualAnalyzer
    vocabulary: Vocabulary
    lexicon: Lexicon | None
    limit: int
    frequencies: Mapping[str, tuple[np.ndarray, int]] | None = None
    specificity: float = 0.0

    def __call__(self, text: str) -> Question:
        language = self.analyzer.detect(text)
        weights: dict[int, float] = {}
        for term in self.vocabulary.ids(self.analyzer.analyze(text, language)):
            weights[term] = weights.get(term, 0.0) + 1.0
        ids = sorted(weights)
        translations: list[tuple[int, ...]] = []
        specific: list[float] = []
        if self.lexicon and self.limit > 0:
            own = self.analyzer.analyzer(language)
            found = ((word, own.analyze(word)) for word in sorted(set(_WORD.findall(text.lower()))))
            words = [(word, lemmas) for word, lemmas in found if lemmas]  # stop words are left out
            weight = self._specificity(words, language)
            languages = self.analyzer.detector.languages
            for target in languages[: languages.index(language)]:
                for (word, lemmas), share in zip(words, weight):
                    terms = self._translation(word, lemmas, language, target)
                    if terms:
                        translations.append(terms)
                        specific.append(share)
        return Question(language, ids, [weights[term] for term in ids], translations, specific)

    def _translation(self, word: str, lemmas: list[str], source: str, target: str) -> tuple[int, ...]:
        """The sorted ids of the terms `word`'s translations (by its form and its lemmas) analyse to in `target`."""
        analyzer, translate = self.analyzer.analyzer(target), self.lexicon.translate
        forms = _distinct([word, *lemmas])
        translations = _distinct(t for form in forms for t in translate(form, source, target)[: self.limit])
        return tuple(sorted({term for t in translations for term in self.vocabulary.ids(analyzer.analyze(t))}))

    def _specificity(self, words: list[tuple[str, list[str]]], language: str) -> list[float]:
        """Each word's idf among `language`'s documents (a lemma unseen there: as rare as can be) over the most
        specific word's, to the power `specificity`; all 1 without frequencies or specificity."""
        if not self.frequencies or not self.specificity or language not in self.frequencies or not words:
            return [1.0] * len(words)
        frequencies, documents = self.frequencies[language]
        found = [max((frequencies[i] for i in self.vocabulary.ids(lemmas)), default=0) for _, lemmas in words]
        idf = np.log((documents + 1) / (np.asarray(found, dtype=np.float64) + 1))
        best = idf.max()
        return [float(share) for share in (idf / best if best > 0 else np.ones(len(idf))) ** self.specificity]


def _distinct(items) -> list[str]:
    return list(dict.fromkeys(items))
