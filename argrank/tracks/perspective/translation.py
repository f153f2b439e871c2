"""Query translation with bilingual dictionaries, so a French or Italian question also finds the German majority
of the corpus (57 % German, 39 % French, 4 % Italian arguments in the real release) by its own words.

The dictionaries are FreeDict's, as Debian installs them (`make run` installs the packages where it may; see the
README): `freedict-SRC-TGT.index` + `.dict.dz` under one folder. A pair is read in both directions (a German–Italian
dictionary read backwards is an Italian–German one), and where a word has no entry for a pair it is translated
through French, the pivot: FreeDict's Italian–German pair has 2,924 headwords, its French–Italian one 52,964.

Each query word (surface form and lemma) with an entry adds up to `limit` of its translations into each other
language, analysed by that language's analyzer; the word's translation terms share `weight`, so a word with many
senses adds as much as one with a single translation. A query is translated from its own text alone: the rankings
of a question do not depend on which other questions are ranked with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

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
class QueryTerms:
    """A question as weighted term ids: its words analysed in its own language (each occurrence weight 1), plus
    their dictionary translations into the other languages (`weight` shared per word and language)."""

    analyzer: MultilingualAnalyzer
    vocabulary: Vocabulary
    lexicon: Lexicon | None
    weight: float
    limit: int

    def __call__(self, text: str) -> tuple[list[int], list[float]]:
        language = self.analyzer.detect(text)
        terms = self.analyzer.analyze(text, language)
        weights: dict[int, float] = {}
        for term in self.vocabulary.ids(terms):
            weights[term] = weights.get(term, 0.0) + 1.0
        if self.lexicon and self.weight > 0 and self.limit > 0:
            words = sorted(set(_WORD.findall(text.lower())) | set(terms))
            languages = self.analyzer.detector.languages
            for target in languages[: languages.index(language)]:
                self._add_translations(weights, words, language, target)
        ids = sorted(weights)
        return ids, [weights[term] for term in ids]

    def _add_translations(self, weights: dict[int, float], words: list[str], source: str, target: str) -> None:
        analyzer = self.analyzer.analyzer(target)
        for word in words:
            translations = self.lexicon.translate(word, source, target)[: self.limit]
            found = sorted({term for text in translations for term in self.vocabulary.ids(analyzer.analyze(text))})
            for term in found:
                weights[term] = weights.get(term, 0.0) + self.weight / len(found)


def _distinct(items) -> list[str]:
    return list(dict.fromkeys(items))
