"""The chunk-memoised analyzer gives exactly what spaCy's tokenizer gives on each whole lowercased text.

The reference below is the plain way: tokenize the whole lowercased text, analyse every token's surface form. It
is compared on every text the repository embeds and on strings built to break the chunking.
"""

from __future__ import annotations

import csv
import gzip
import json
import random
from functools import lru_cache
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from spacy.attrs import ORTH
from spacy.tokenizer import Tokenizer
from spacy.vocab import Vocab

import argrank.text.analyzer
from argrank.kernels.chunk_memo import ChunkMemo
from argrank.text.analyzer import DROPPED, Analyzer
from argrank.text.chunk_borders import ChunkBorders, affix_tokenizer

# Exhaustive: every embedded text and thousands of built strings in four languages (about 30 s).
pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parents[3] / "data"
LANGUAGES = ("en", "de", "fr", "it")


def reference(analyzer: Analyzer, texts: list[str]) -> list[list[str]]:
    """Each text tokenized whole, every token analysed on its own."""
    out = []
    for text in texts:
        codes = (analyzer._term_id(int(orth)) for orth in analyzer._tokenizer(text.lower()).to_array(ORTH))
        out.append([analyzer.terms[code] for code in codes if code != DROPPED])
    return out


class EveryToken(Analyzer):
    """Keeps every token that is not whitespace, punctuation included, so that the comparison sees the tokenization
    itself and not only the terms that survive stop-word and punctuation filtering."""

    def _term_id(self, orth: int, word: str | None = None) -> int:
        text = self._vocab[orth].text if word is None else word
        if text.isspace():
            return DROPPED
        term = self._term_ids.setdefault(text, len(self._term_ids))
        if term == len(self.terms):
            self.terms.append(text)
        return term


@pytest.fixture(scope="module", params=LANGUAGES)
def language(request) -> str:
    return request.param


@lru_cache(maxsize=None)
def analyzers(language: str, analyzer_class: type[Analyzer]) -> tuple[Analyzer, Analyzer]:
    """One analyzer under test and one for the reference per language and class (lemma tables load slowly)."""
    return analyzer_class(language), analyzer_class(language)


def assert_same(language: str, texts: list[str], analyzer_class: type[Analyzer] = Analyzer, batch: int = 500) -> None:
    fast, slow = analyzers(language, analyzer_class)
    got = []
    for start in range(0, len(texts), batch):  # several batches: the chunk memo carries over
        got += fast.analyze_many(texts[start : start + batch]).to_pylist()
    expected = reference(slow, texts)
    mismatches = [(text, g, e) for text, g, e in zip(texts, got, expected) if g != e]
    assert not mismatches, mismatches[:3]


def args_texts() -> list[str]:
    texts = []
    for path in sorted((DATA / "args" / "corpus").glob("*.json")):
        for argument in json.loads(path.read_text(encoding="utf-8"))["arguments"]:
            texts.append(argument["conclusion"])
            texts += [premise["text"] for premise in argument["premises"]]
            texts += [sentence["sent_text"] for sentence in argument.get("sentences", [])]
            texts.append(argument["conclusion"] + "\n" + " ".join(premise["text"] for premise in argument["premises"]))
    return texts


def english_texts() -> list[str]:
    with gzip.open(DATA / "comparative" / "passages.jsonl.gz", "rt", encoding="utf-8") as handle:
        passages = [json.loads(line)["contents"] for line in handle]
    with open(DATA / "comparative-stance" / "stance-train.tsv", encoding="utf-8", newline="") as handle:
        stance = [row[field] for row in csv.DictReader(handle, delimiter="\t") for field in ("question", "answer")]
    return args_texts() + passages + stance


def perspective_texts() -> list[str]:
    lines = (DATA / "perspective" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["argument"] for line in lines if line.strip()]


TRICKY = [
    "",
    " ",
    "   ",
    "\n\n\t",
    "word",
    "  leading and trailing  ",
    "many    spaces\t\ttabs\n\nnewlines\r\nwindows\x0bvertical\x0cfeed",
    "non\u00a0breaking\u00a0space and\u00a0 mixed \u00a0runs\u00a0",
    "thin\u2009space, ideographic\u3000space\u3000and\u2028line\u2029separators",
    "file\x1cgroup\x1drecord\x1eunit\x1fseparators and next\x85line",
    "zero\u200bwidth\u200bspace is no whitespace\ufeff",
    "Emoji 😀 in🎉text 👍🏽 and flags 🇩🇪🇫🇷",
    "See https://www.example.com/path?q=1&r=2 or http://x.org. Mail me@example.com!",
    "Hyphenated well-being, e-cigarettes, state-of-the-art and --dashes-- — too – here.",
    "Don't, can't, won't, I'm, you're, it's, they've, we'd, y'all, ain't, 'cause, gov't.",
    "Don’t can’t it’s the teachers’ students’ skills, the government's own.",
    "The U.S. and U.K. e.g. i.e. etc. vs. Mr. Dr. a.m. p.m. 10a.m. Jan. Feb.",
    "Numbers 1,000.5 and 3.5% cost $12, €30, 1/2, 2019-04-17, 10:35, #1, @user.",
    "Emoticons :) :-( ;) :P :D <3 (: ): :'( ^_^ (^_^) ¯\\_(ツ)_/¯ xD =)",
    "[ :]:] somethin 'coz(._.) goin 'em nothin' 'bout doin' (-_-) :))) :( q",
    "Brackets (like this), [that], {those}, <these>, «quotes», „Anführung“, “curly” and 'single'.",
    "ΟΔΟΣ ΟΔΟΣ. ΣΊΣΥΦΟΣ Σ ΑΣ-ΣΑ İstanbul ẞTRASSE Straße ǅ ﬁne",
    "Die Renten müssen steigen! Die AHV-Renten, z.B. für Rentner:innen, u.a. bzw. usw.",
    "Les carburants synthétiques, l'innovation, aujourd'hui, qu'il, c'est-à-dire, n'est-ce pas ?",
    "L'aumento dell'AVS, all'ospedale, c.d. ecc. perché l'Italia è più bella.",
    "tab\tinside\tword and CR\rreturns, form\x0cfeed",
    "a\u00a0 b \u00a0c\u00a0\u00a0d  \u00a0 e",
    "... !!! ??? ,,, ;;; --- ''' \"\"\"",
]


def test_tricky_strings(language):
    assert_same(language, TRICKY, batch=7)
    assert_same(language, TRICKY, EveryToken, batch=7)


def test_english_corpora():
    texts = english_texts()
    assert len(texts) > 1000
    assert_same("en", texts)


def test_english_corpora_token_for_token():
    assert_same("en", english_texts(), EveryToken)


def test_perspective_corpus(language):
    texts = perspective_texts()
    assert len(texts) > 100
    assert_same(language, texts)
    assert_same(language, texts, EveryToken)


def affix_splits(language: str) -> list[list[str]]:
    """Each special case (lowercased) as spaCy's affix rules alone split it: the token sequence whose match across
    chunks is the one thing that makes a chunk's tokens depend on its neighbour."""
    tokenizer = analyzers(language, Analyzer)[1]._tokenizer
    bare = affix_tokenizer(tokenizer)
    return [[token.text for token in bare(string.lower())] for string in tokenizer.rules]


def test_random_special_case_mixtures(language):
    """Special cases and their pieces glued with and without whitespace, half of them split across a space right
    where a match would cross chunks, followed by more pieces that a match inside the next chunk may take."""
    rng = random.Random(language)
    splits = affix_splits(language)
    pieces = sorted({"".join(split) for split in splits} | {p for split in splits for p in split} | {"x", "word"})
    pieces += sorted({c for piece in pieces for c in piece})
    glue = ["", "", " ", " ", "  ", "\n", "\u00a0", " \u00a0"]

    def mixture() -> str:
        return "".join(rng.choice(pieces) + rng.choice(glue) for _ in range(rng.randint(1, 6)))

    def split_across() -> str:
        split = rng.choice([split for split in splits if len(split) > 1])
        j = rng.randrange(1, len(split))
        return mixture().rstrip() + "".join(split[:j]) + " " + "".join(split[j:]) + mixture()

    texts = [split_across() if i % 2 else mixture() for i in range(6000)]
    assert_same(language, texts, EveryToken, batch=300)
    assert_same(language, texts, batch=300)


def test_known_cross_chunk_matches_fall_back_to_whole_texts():
    analyzer = EveryToken("en")
    # Alone, ":]:]" is two emoticons; after "[ ", spaCy matches "[ :" first and keeps ":", "]" apart.
    assert analyzer.analyze_many(["[ :]:]", ":]:]"]).to_pylist() == [["[", ":", "]", ":]"], [":]", ":]"]]
    assert analyzer.analyze("somethin 'coz(._.)") == reference(EveryToken("en"), ["somethin 'coz(._.)"])[0]


def test_special_cases_spanning_a_space():
    """Russian special cases contain a space ("и др." is one token): a match across chunks that applies."""
    texts = ["и др. в т.ч. вед. науч. сотр.", "и др", "др. и др.", "вед. науч.\nсотр. и\u00a0др."]
    assert analyzers("ru", EveryToken)[0].analyze("и др.") == ["и др."]
    assert_same("ru", texts, EveryToken)


def test_a_special_case_with_a_whitespace_token_is_refused():
    """spaCy has one such case, Malay "M" before a newline, and no Malay lemma table, so no analyzer meets one."""
    with pytest.raises(ValueError, match="whitespace token"):
        ChunkBorders(Tokenizer(Vocab(), rules={"ok\n": [{ORTH: "ok\n"}]}))


def test_only_whitespace_splits_chunks():
    """The memo splits where spaCy sees whitespace, never elsewhere (spaCy's own splitting covers the rest), and
    exactly where Arrow's ascii_split_whitespace does."""
    codes = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    texts = pa.array(["a" + chr(c) + "b" for c in codes], type=pa.large_string())
    _, chunk_counts, _ = ChunkMemo().find(texts)
    split = chunk_counts > 1
    assert all(chr(c).isspace() for c in np.asarray(codes)[split])
    assert split.sum() == 6  # space, \t, \n, \v, \f, \r
    assert (split == (pc.list_value_length(pc.ascii_split_whitespace(texts)).to_numpy() > 1)).all()


@pytest.mark.parametrize("language", ["en", "fr", "ru"])
def test_chunk_ends_found_at_once_are_the_longest_start_of_a_split_form(language):
    """ChunkBorders.tails against the rule read directly: the longest of the known starts a chunk ends with."""
    import spacy

    borders = ChunkBorders(spacy.blank(language).tokenizer)
    starts = list(borders._tails)
    rng = random.Random(0)
    chunks = ["", "a", "x" * 9] + [rng.choice(["", "ab", "é"]) + rng.choice(starts) for _ in range(300)]
    chunks += [start[1:] for start in starts] + starts
    expected = [
        max((borders._tails[s] for s in starts if c.endswith(s)), key=lambda code: len(starts[code - 1]), default=0)
        for c in chunks
    ]
    assert borders.tails(pa.array(chunks)).tolist() == expected


def test_a_full_memo_starts_afresh(monkeypatch):
    monkeypatch.setattr(argrank.text.analyzer, "CHUNK_MEMO_SIZE", 200)
    texts = args_texts()[:400]
    analyzer = Analyzer("en")
    got, largest_batch = [], 0
    for start in range(0, len(texts), 20):
        got += analyzer.analyze_many(texts[start : start + 20]).to_pylist()
        chunks = pc.ascii_split_whitespace(pa.array([text.lower() for text in texts[start : start + 20]]))
        largest_batch = max(largest_batch, len(pc.unique(chunks.flatten())))
        assert len(analyzer._memo) <= max(200, largest_batch)
    assert got == reference(Analyzer("en"), texts)
