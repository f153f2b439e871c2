"""Text analysis shared by documents and queries: spaCy's rule-based tokenizer plus lookup lemmas, no model download.

Each distinct surface form is analysed once (lowercased, lemma looked up, stop words, punctuation and
symbols dropped) and memoised by spaCy's orth hash. Each distinct whitespace-delimited chunk of text is tokenized
once and memoised as its terms (kernels/chunk_memo.py), so most of a batch is analysed by compiled loops over its bytes
without calling spaCy; of the chunks not seen before, a plain word with at most a closing mark needs no spaCy either.
"""

from __future__ import annotations

import logging
from typing import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

import argrank.lazylibs as lazylibs
from argrank.kernels.chunk_memo import ChunkMemo
from argrank.text.chunk_borders import ChunkBorders

# The rules below have a version, which names the token lists they made: analysis_fingerprint.RULES_VERSION.
DROPPED = -1
_CAPITALISED_NOUNS = {"de"}  # languages whose lemma tables key nouns with a capital letter
# Distinct whitespace-delimited chunks an Analyzer remembers (about 150 bytes each) before it starts afresh.
CHUNK_MEMO_SIZE = 1 << 20
# Joins chunks for one tokenizer call (a private-use character: one token, no special case starts or continues with it).
SEPARATOR = "\ue000"
# A lowercase ASCII word, maybe with one of these marks after it: most chunks not seen before (see Analyzer._plain).
MARKS = ".,?!;:"
PLAIN = f"^[a-z]+[{MARKS}]?$"
# Bounds on what one text brings (a 100 MB "word" took many times its size in memory and became one index term):
# a text is cut after MAX_TEXT characters, and a whitespace-delimited chunk longer than MAX_WORD characters is no
# word and gives no term, each counted in a warning.
MAX_TEXT = 10_000_000
MAX_WORD = 10_000
log = logging.getLogger(__name__)


def lowercase(texts: pa.Array) -> pa.Array:
    """Python's str.lower of each text: Arrow's ASCII lowercasing, the same as str.lower on ASCII text, and str.lower
    itself for the texts that are not ASCII (Arrow's utf8_lower maps some characters otherwise: final sigma,
    dotted capital I)."""
    lowered = pc.ascii_lower(texts)
    ascii_texts = pc.string_is_ascii(texts)
    if pc.all(ascii_texts).as_py() is not False:
        return lowered
    others = pc.invert(ascii_texts)
    fixed = pa.array([text.lower() for text in texts.filter(others).to_pylist()], type=texts.type)
    return pc.replace_with_mask(lowered, others, fixed)


class Analyzer:
    """Turns texts into lists of index terms; the same instance must serve documents and queries."""

    def __init__(self, language: str = "en"):
        attrs = lazylibs.spacy("attrs")
        IS_PUNCT, IS_SPACE = attrs.IS_PUNCT, attrs.IS_SPACE
        nlp = lazylibs.spacy().blank(language)
        # Lookup mode reads spacy-lookups-data's table; it needs no trained pipeline.
        lemmatizer = nlp.add_pipe("lemmatizer", config={"mode": "lookup"})
        nlp.initialize()
        # spaCy computes some twenty attributes (shape, norm, like_num, …) of each new surface form; the analysis
        # reads two and the tokenizer none. The others (dropped once the lemma tables, which read the language, are
        # loaded) were a fifth of the time spent on chunks not seen before.
        getters = nlp.vocab.lex_attr_getters
        nlp.vocab.lex_attr_getters = {attr: getters[attr] for attr in (IS_SPACE, IS_PUNCT)}
        self.language = language
        self._tokenizer = nlp.tokenizer
        self._vocab = nlp.vocab
        self._lemmas = lemmatizer.lookups.get_table("lemma_lookup")
        self._stop_words = nlp.Defaults.stop_words
        self._term_of_orth: dict[int, int] = {}
        self._term_ids: dict[str, int] = {}
        self.terms: list[str] = []
        self._terms_arrow = pa.array([], type=pa.string())
        self._borders = ChunkBorders(nlp.tokenizer)
        self._separator = nlp.vocab.strings.add(SEPARATOR)
        alone = self._borders.tails(pa.array([SEPARATOR]))[0] == 0 and self._borders.head(self._separator) == 0
        if not alone or len(self._orths(SEPARATOR)) != 1:
            raise ValueError(f"{language}: the chunk separator {SEPARATOR!r} takes part in spaCy's special cases")
        if any(mark in nlp.tokenizer.rules for mark in MARKS):
            raise ValueError(f"{language}: a special case for one of the marks {MARKS!r}: plain chunks need spaCy")
        self._special_cases = pa.array(list(nlp.tokenizer.rules), type=pa.large_string())  # for _plain, per batch
        self._memo = ChunkMemo()

    def _term_id(self, orth: int, word: str | None = None) -> int:
        """Analyse one surface form (already lowercased) into a term id, or DROPPED. `word`: its text, where that is
        a run of ASCII letters (neither space nor punctuation: its lexeme need not be made)."""
        term = self._term_of_orth.get(orth)
        if term is not None:
            return term
        lexeme = self._vocab[orth] if word is None else None
        text = word if lexeme is None else lexeme.text
        punctuation = lexeme is not None and (lexeme.is_space or lexeme.is_punct)
        if punctuation or text in self._stop_words or not any(c.isalnum() for c in text):
            term = DROPPED
        else:
            lemma = self._lemma(text)
            if lemma in self._stop_words:
                term = DROPPED
            else:
                term = self._term_ids.setdefault(lemma, len(self._term_ids))
                if term == len(self.terms):
                    self.terms.append(lemma)
        self._term_of_orth[orth] = term
        return term

    def knows(self, word: str) -> bool:
        """Whether the lemma table lists a lowercased word form (German's also capitalised: it keys nouns so)."""
        return word in self._lemmas or (self.language in _CAPITALISED_NOUNS and word.capitalize() in self._lemmas)

    def _lemma(self, text: str) -> str:
        """The lemma of a lowercased form. Some tables give a list (French: its first entry is taken); German keys
        nouns capitalised, so there a form the table lacks in lower case is looked up capitalised, and the lemma
        lowercased ("renten" → "Rente" → "rente")."""
        lemma = self._lemmas.get(text)
        if lemma is None and self.language in _CAPITALISED_NOUNS:
            lemma = self._lemmas.get(text.capitalize())
        if isinstance(lemma, list):
            lemma = lemma[0] if lemma else None
        return text if lemma is None else lemma.lower() if self.language in _CAPITALISED_NOUNS else lemma

    def _term_codes(self, texts: pa.Array) -> tuple[np.ndarray, np.ndarray]:
        """Term ids of all texts, concatenated, and each text's count of kept terms.

        spaCy tokenizes each whitespace-delimited chunk of a text on its own, so a text's terms are its chunks'
        terms in order: each distinct chunk is tokenized once and remembered (ChunkMemo), and a text becomes a
        gather of its chunks' terms. The one exception, a special case matched across chunks (see ChunkBorders),
        sends the few texts where it could happen through spaCy whole.
        """
        lowered = lowercase(_bounded(texts))
        # ASCII whitespace only: every such character is whitespace to spaCy (str.isspace); other whitespace stays
        # inside a chunk, where spaCy splits it as it would in the whole text.
        rows, chunk_counts, new = self._memo.find(lowered)
        if len(self._memo) > CHUNK_MEMO_SIZE:  # frequent chunks come back within a batch: start afresh with it
            self._memo.clear()
            rows, chunk_counts, new = self._memo.find(lowered)
        if len(new):
            self._learn_chunks(new)
        codes, lengths, crossed = self._memo.gather(rows, chunk_counts, self._borders.crossing)
        if crossed.size == 0:
            return codes, lengths
        # Splice in the crossed texts' terms, tokenized whole, in place of what their chunks gave.
        term_offsets = np.concatenate([[0], np.cumsum(lengths)])
        whole = [self._orths(lowered[int(i)].as_py()) for i in crossed]
        whole_codes, whole_lengths = self._kept_terms(np.concatenate(whole), [len(o) for o in whole])
        whole_offsets = np.concatenate([[0], np.cumsum(whole_lengths)])
        pieces, start = [], 0
        for k, text in enumerate(crossed):
            pieces += [codes[start : term_offsets[text]], whole_codes[whole_offsets[k] : whole_offsets[k + 1]]]
            start = term_offsets[text + 1]
        pieces.append(codes[start:])
        lengths[crossed] = whole_lengths
        return np.concatenate(pieces), lengths

    def _learn_chunks(self, chunks: pa.Array) -> None:
        """Tokenize and analyse the chunks the memo has just added, in their row order; one longer than MAX_WORD
        characters is no word, and is learned as none (counted in a warning), never given to spaCy."""
        long_chunks = pc.greater(pc.utf8_length(chunks), MAX_WORD)
        if pc.any(long_chunks).as_py():
            log.warning("analysis: %d chunk(s) of more than %s characters without white space dropped (not words)",
                        pc.sum(long_chunks).as_py(), f"{MAX_WORD:,}")  # fmt: skip
            chunks = pc.if_else(long_chunks, pa.scalar("", chunks.type), chunks)
        orths, counts, words = self._token_orths(chunks)
        terms, kept = self._kept_terms(orths, counts, words)
        padded = np.zeros(len(orths) + 1, dtype=np.uint64)  # uint64 throughout: a float loses an orth's low bits
        padded[:-1] = orths
        first = np.where(counts > 0, padded[np.cumsum(counts) - counts], np.uint64(0))
        heads = [self._borders.head(orth) for orth in first.tolist()]
        self._memo.learn(terms, kept, self._borders.tails(chunks), heads)

    def _token_orths(self, chunks: pa.Array) -> tuple[np.ndarray, np.ndarray, dict[int, str]]:
        """The orth ids of each chunk's tokens as tokenizing it alone gives them, concatenated in row order, and each
        chunk's count of them: plain chunks' (see _plain) made here, the others' by the tokenizer. Also the plain
        chunks' words, by orth."""
        plain = self._plain(chunks)
        spacy_orths = self._chunk_orths(chunks.filter(pa.array(~plain)).to_pylist())
        words = chunks.filter(pa.array(plain))
        mark_set = pa.array(list(MARKS), type=words.type)
        found = pc.index_in(pc.utf8_slice_codeunits(words, -1), value_set=mark_set)
        marked, marks = pc.is_valid(found).to_numpy(zero_copy_only=False), found.fill_null(0).to_numpy()
        words = pc.if_else(pa.array(marked), pc.utf8_slice_codeunits(words, 0, -1), words).to_pylist()
        add = self._vocab.strings.add
        word_orths = np.fromiter((add(word) for word in words), dtype=np.uint64, count=len(words))
        mark_orths = np.array([add(mark) for mark in MARKS], dtype=np.uint64)[marks]
        counts = np.empty(len(chunks), dtype=np.int64)
        counts[plain] = 1 + marked
        counts[~plain] = [len(o) for o in spacy_orths]
        orths = np.empty(int(counts.sum()), dtype=np.uint64)
        from_plain = np.repeat(plain, counts)  # a plain chunk's word, then its mark where it has one
        orths[from_plain] = np.column_stack([word_orths, mark_orths])[np.column_stack([np.ones_like(marked), marked])]
        orths[~from_plain] = np.concatenate([np.empty(0, dtype=np.uint64), *spacy_orths])
        return orths, counts, dict(zip(word_orths.tolist(), words))

    def _plain(self, chunks: pa.Array) -> np.ndarray:
        """Which chunks need no tokenizer: a lowercase ASCII word, maybe with a closing mark after it (PLAIN), that
        no special case or token match concerns. spaCy gives such a chunk as the word, then the mark if it has one.

        spaCy's affix rules (the languages we analyse) split punctuation, quotes, units after digits and the like,
        never a run of ASCII letters, and split off a closing mark after a letter alone: the word and the mark are
        each one token. Only a special case (of the chunk, its word or the mark) or a token match (French keeps
        some words whole) changes that. tests/unit/text/test_analyzer_plain_chunks.py checks this against spaCy on
        the words of the languages' lemma tables, each with each mark. On chunks not seen before, the tokenizer is
        most of the tokenize stage's work, so every chunk spared it counts."""
        special = self._special_cases.cast(chunks.type)
        words = pc.utf8_rtrim(chunks, characters=MARKS)
        plain = pc.and_(
            pc.match_substring_regex(chunks, PLAIN),
            pc.invert(pc.or_(pc.is_in(chunks, value_set=special), pc.is_in(words, value_set=special))),
        ).to_numpy(zero_copy_only=False)
        match = self._tokenizer.token_match
        if match is not None:
            at = np.flatnonzero(plain)
            for i, chunk, word in zip(at.tolist(), chunks.take(at).to_pylist(), words.take(at).to_pylist()):
                plain[i] = not (match(chunk) or match(word))
        return plain

    def _orths(self, text: str) -> np.ndarray:
        """The orth ids of spaCy's tokens of `text`."""
        return self._tokenizer(text).to_array(lazylibs.spacy("attrs").ORTH)

    def _chunk_orths(self, chunks: list[str]) -> list[np.ndarray]:
        """The orth ids of each chunk's tokens, as tokenizing it alone gives them.

        A call of spaCy's tokenizer per chunk costs more than the tokenizing, so the chunks are tokenized in one
        call, with a SEPARATOR chunk between each two: it starts no special case and continues none (its
        ChunkBorders codes are 0), so no match reaches across it, and its tokens mark the borders. A chunk that
        holds the separator, or whitespace at either end (which would join the separating spaces), is tokenized
        alone."""
        ORTH = lazylibs.spacy("attrs").ORTH
        joined = [i for i, c in enumerate(chunks) if c and not (c[0].isspace() or c[-1].isspace() or SEPARATOR in c)]
        orths: list[np.ndarray | None] = [None] * len(chunks)
        if joined:
            tokens = self._tokenizer(f" {SEPARATOR} ".join(chunks[i] for i in joined)).to_array(ORTH)
            borders = np.flatnonzero(tokens == self._separator)
            starts, ends = np.concatenate([[0], borders + 1]), np.concatenate([borders, [len(tokens)]])
            if len(starts) != len(joined) or np.any(ends <= starts):
                raise AssertionError(f"{len(joined)} chunks gave {len(starts)} pieces of tokens")  # never a wrong memo
            for i, start, end in zip(joined, starts.tolist(), ends.tolist()):
                orths[i] = tokens[start:end]
        return [self._orths(c) if o is None else o for c, o in zip(chunks, orths)]

    def _kept_terms(
        self, orths: np.ndarray, counts: np.ndarray, words: dict[int, str] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Term ids of the kept tokens of texts whose orths are `orths` (concatenated; `counts` each text's), and how
        many each text kept. `words`: orths whose text is a run of ASCII letters, which needs no lexeme."""
        words = words or {}
        unique, inverse = np.unique(orths, return_inverse=True)
        codes = np.fromiter(
            (self._term_id(o, words.get(o)) for o in unique.tolist()), dtype=np.int64, count=len(unique)
        )[inverse]  # fmt: skip
        kept = codes != DROPPED
        owner = np.repeat(np.arange(len(counts)), counts)
        return codes[kept], np.bincount(owner[kept], minlength=len(counts))

    def analyze(self, text: str) -> list[str]:
        """Index terms of one text, in text order."""
        codes, _ = self._term_codes(pa.array([text], type=pa.large_string()))
        return [self.terms[c] for c in codes]

    def analyze_many(self, texts: Iterable[str] | pa.Array) -> pa.ListArray:
        """Index terms of a batch of texts (strings, or an Arrow string column: its text never becomes Python
        strings, but for chunks not seen before) as an Arrow list<string> column; a missing text has none."""
        codes, lengths = self.analyze_codes(texts)
        offsets = np.zeros(len(lengths) + 1, dtype=np.int32)
        np.cumsum(lengths, out=offsets[1:])
        return pa.ListArray.from_arrays(pa.array(offsets), self._term_array().take(pa.array(codes)))

    def analyze_codes(self, texts: Iterable[str] | pa.Array) -> tuple[np.ndarray, np.ndarray]:
        """Index terms of a batch of texts as ids into `terms` (which this call may extend), concatenated, and each
        text's count of them: analyze_many without making the terms' strings."""
        texts = texts if isinstance(texts, pa.Array) else pa.array(list(texts), type=pa.large_string())
        return self._term_codes(pc.fill_null(texts.cast(pa.large_string()), ""))

    def _term_array(self) -> pa.Array:
        """self.terms as an Arrow array, extended by the terms added since the last batch rather than rebuilt."""
        if len(self._terms_arrow) < len(self.terms):
            added = pa.array(self.terms[len(self._terms_arrow) :], type=pa.string())
            self._terms_arrow = pa.concat_arrays([self._terms_arrow, added])
        return self._terms_arrow


def _bounded(texts: pa.Array) -> pa.Array:
    """The texts cut after MAX_TEXT characters, with a warning that counts them; the same array where none is that
    long."""
    long_rows = np.flatnonzero(pc.binary_length(texts).to_numpy(zero_copy_only=False) > MAX_TEXT)
    replaced = {row: text[:MAX_TEXT] for row in long_rows.tolist() if len(text := texts[row].as_py()) > MAX_TEXT}
    if not replaced:
        return texts
    log.warning("analysis: %d text(s) cut after %s characters", len(replaced), f"{MAX_TEXT:,}")
    mask = np.zeros(len(texts), dtype=bool)
    mask[list(replaced)] = True
    values = pa.array([replaced[row] for row in sorted(replaced)], type=texts.type)
    return pc.replace_with_mask(texts, pa.array(mask), values)
