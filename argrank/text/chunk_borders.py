"""Where spaCy's tokens of a whitespace-delimited chunk may depend on its neighbour, so the analyzer can tokenize
each distinct chunk once and still give exactly what tokenizing whole texts gives."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

import argrank.lazylibs as lazylibs

if TYPE_CHECKING:
    from spacy.tokenizer import Tokenizer


def affix_tokenizer(tokenizer: Tokenizer) -> Tokenizer:
    """`tokenizer` without its special cases: its affix rules alone, which split a special case into the form
    spaCy matches it in."""
    return lazylibs.spacy("tokenizer").Tokenizer(
        tokenizer.vocab,
        prefix_search=tokenizer.prefix_search,
        suffix_search=tokenizer.suffix_search,
        infix_finditer=tokenizer.infix_finditer,
        token_match=tokenizer.token_match,
        url_match=tokenizer.url_match,
    )


class ChunkBorders:
    """Where a whitespace-delimited chunk's tokens may depend on its neighbour: spaCy's one exception to tokenizing
    chunks independently.

    After splitting off affixes, spaCy's tokenizer matches each special case's affix-split form ("'s" as ' and s)
    over the whole text, chunk borders included, and applies the longest match first. Across a border, a match
    makes one token of a special case with a space in it (Russian "и др."); of any other it makes nothing, yet it
    overrides an overlapping match inside a chunk: "[ :]:]" keeps the ":", "]" that ":]:]" alone makes one token.
    Either needs a chunk that ends with the start of some special case's affix-split form (the text "[") and a
    next chunk whose first token continues it (":"). That first token is the one we see, or, where a special case
    rewrote the chunk's start, the first token of that case's affix-split form.
    """

    def __init__(self, tokenizer: Tokenizer):
        ORTH = lazylibs.spacy("attrs").ORTH
        bare = affix_tokenizer(tokenizer)
        continuations: dict[str, set[int]] = {}  # the start of a split form, as text → the tokens that follow it
        seen_as: dict[int, set[int]] = {}  # a special case's first token → the split forms' first tokens it replaces
        for string, substrings in tokenizer.rules.items():
            split = bare(string)
            if len(split) > 1 and any(token.text.isspace() for token in split):
                # a border's whitespace is no token of either chunk, so such a match could not be foreseen
                raise ValueError(f"special case {string!r} has a whitespace token; chunks cannot be tokenized alone")
            for j in range(1, len(split)):
                # as a chunk ends with them: without the spaces of special cases like Spanish "EE. UU."
                continuations.setdefault("".join(token.text for token in split[:j]), set()).add(split[j].orth)
            first = tokenizer.vocab.strings.add(substrings[0][ORTH])
            seen_as.setdefault(first, {first}).add(split[0].orth)
        followers = sorted(set().union(*continuations.values()))
        column = {orth: i for i, orth in enumerate(followers)}
        heads = {orth: seen_as.get(orth, {orth}) & column.keys() for orth in column.keys() | seen_as.keys()}
        heads = {orth: seen for orth, seen in heads.items() if seen}
        # Rows: chunk ends (the longest start of a split form a chunk ends with; code 0: none), columns: tokens
        # that may follow them; a chunk ending with "x:" also ends with ":", so a row unites its suffixes' followers.
        self._tails = {tail: i for i, tail in enumerate(sorted(continuations), start=1)}
        self._tail_lengths = sorted({len(tail) for tail in self._tails}, reverse=True)
        self._heads = {orth: j for j, orth in enumerate(heads, start=1)}
        follows = np.zeros((len(self._tails) + 1, len(followers)), dtype=bool)
        for tail, i in self._tails.items():
            for k in range(1, len(tail) + 1):
                follows[i, [column[orth] for orth in continuations.get(tail[-k:], ())]] = True
        can_start = np.zeros((len(self._heads) + 1, len(followers)), dtype=bool)
        for orth, j in self._heads.items():
            can_start[j, [column[o] for o in heads[orth]]] = True
        self.crossing = (follows.astype(np.int32) @ can_start.T.astype(np.int32)) > 0

    def tails(self, chunks: pa.Array) -> np.ndarray:
        """The row of each chunk's end (the longest start of a split form it ends with; 0: none), for a string
        array: each length of such a start looked up in all chunks' ends at once, longest first."""
        codes = np.zeros(len(chunks), dtype=np.int32)
        open_ = np.ones(len(chunks), dtype=bool)
        lengths = pc.utf8_length(chunks).to_numpy()
        for length in self._tail_lengths:
            known = pa.array([t for t in self._tails if len(t) == length], type=chunks.type)
            found = pc.index_in(pc.utf8_slice_codeunits(chunks, -length), value_set=known).fill_null(-1).to_numpy()
            hit = open_ & (found >= 0) & (lengths >= length)
            codes[hit] = np.array([self._tails[t] for t in known.to_pylist()], dtype=np.int32)[found[hit]]
            open_ &= ~hit
        return codes

    def head(self, orth: int) -> int:
        """The column of a chunk's first token."""
        return self._heads.get(orth, 0)
