"""Retrieval across German, French and Italian without translation models: BM25 over the question's words and
their dictionary translations (`translation`), then evidence that crosses languages, learned from the training
queries' judgments and the corpus's own labels.

A query finds its own language's arguments well with BM25, but its issue's arguments in the other two languages
share almost no words with it; a French or Italian question's dictionary translations into the languages with more
arguments reach some of them (cross-validated on the real release's training issues, the Italian questions'
nDCG@4 rises from 0.79 to 0.93: docs/tracks/perspective.md). Two signals bridge the rest, each computed from the
first pass's top `feedback` arguments (pseudo-relevance feedback), so they describe the issue rather than the
short question:

- concepts: explicit semantic analysis across languages (Potthast et al., 2008). A concept is a set of arguments
  known to be about one thing in every language: each training issue (all arguments judged relevant to its
  queries) and each of the corpus's topic categories. Its centroid is computed per language, and an argument's
  signature is its similarity to every concept's centroid in the argument's own language, centred per language.
  Arguments on one issue get similar signatures whatever their language, so the cosine of an argument's signature
  to the feedback's crosses languages;
- category: the share of the feedback arguments in the argument's topic category (a language-independent
  label of every argument).

The score is BM25 over the query's best, plus each signal times its weight, minus `other_issue_penalty` for every
argument judged relevant to a training question other than the query's own: each argument of the release answers
one question, so an argument known to answer another one is not an answer to a new question (cross-validated on
the real release's training issues, it lifts nDCG@4 from 0.874 to 0.948: docs/tracks/perspective.md; a corpus
whose arguments may answer several questions wants it at 0). Ties go by document id. (Rocchio
expansion with the feedback's own words was tried too: it crosses languages only through shared names, numbers
and acronyms, and on the embedded dev queries it lowered nDCG@20, so it is not part of the score.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from argrank.index.store import Index
from argrank.retrieval.models.bm25 import BM25
from argrank.retrieval.top_k import top_k
from argrank.text.analyzer import Analyzer
from argrank.text.multilingual import MultilingualAnalyzer
from argrank.tracks.perspective.concepts import concept_signatures, tfidf_documents
from argrank.tracks.perspective.settings import DEFAULTS, RANGES  # noqa: F401 (RANGES: where its importers look)
from argrank.tracks.perspective.translation import Lexicon, QueryTerms

Terms = Callable[[str], tuple[list[int], list[float]]]  # a question's text → term ids and their weights


@dataclass
class CrossLingualRanker:
    """BM25 plus the two feedback signals, less the penalty for other questions' known answers; build it once per
    index with `build_ranker`."""

    bm25: BM25
    signatures: np.ndarray  # documents × concepts, centred per language, L2-normalised rows
    categories: np.ndarray  # each document's category code
    feedback: int
    weights: tuple[float, float]  # concept, category
    issue_of: np.ndarray  # each document's training issue (the last, were it judged for several), -1 for none
    penalty: float
    query_terms: Terms | None = None  # how a question's text becomes weighted term ids (score_text)
    questions: Mapping[str, int] = field(default_factory=dict)  # training questions' texts → their issues

    def score_text(self, text: str) -> np.ndarray:
        """Every document's score for a question's text (translated where dictionaries were given); a training
        question keeps its own issue's known answers."""
        return self.score(*self.query_terms(text), issue=self.questions.get(text))

    def score(self, term_ids: list[int], weights: list[float] | None = None, issue: int | None = None) -> np.ndarray:
        """Every document's score for a query given as term ids (with their weights, 1 where None; 0 everywhere for
        a query that matches nothing, but the penalty); `issue` is the query's own training issue, if it is a
        training question."""
        total = np.zeros(len(self.categories))
        if self.penalty:
            total -= self.penalty * ((self.issue_of >= 0) & (self.issue_of != (-1 if issue is None else issue)))
        candidates, bm25 = self.bm25.score(term_ids, weights)
        if not len(candidates):
            return total
        total[candidates] += bm25 / bm25.max() if bm25.max() > 0 else 0.0
        if self.feedback < 1:  # no feedback arguments: BM25 alone
            return total
        top, _ = top_k(candidates, bm25, self.feedback)
        concept_weight, category_weight = self.weights
        if concept_weight:
            centroid = self.signatures[top].mean(axis=0)
            total += concept_weight * (self.signatures @ centroid) / max(np.linalg.norm(centroid), 1e-12)
        if category_weight:
            shares = np.bincount(self.categories[top], minlength=self.categories.max() + 1) / len(top)
            total += category_weight * shares[self.categories]
        return total


def build_ranker(
    index: Index,
    languages: Sequence[str],
    categories: Sequence[str],
    issues: Sequence[np.ndarray],
    params: dict[str, float],
    analyzer: Analyzer | MultilingualAnalyzer | None = None,
    lexicon: Lexicon | None = None,
    questions: Mapping[str, int] | None = None,
) -> CrossLingualRanker:
    """The ranker for `index`, given each document's language and category (in the index's document order) and the
    training issues as arrays of document positions. `params` override DEFAULTS. With `analyzer` it scores texts
    (score_text): a multilingual analyzer's questions translated with `lexicon`'s dictionaries, if any; `questions`
    maps training questions to their issues."""
    settings = {**DEFAULTS, **params}
    languages = np.asarray(languages)
    category_codes = np.unique(np.asarray(categories), return_inverse=True)[1]
    concepts = [*issues, *(np.flatnonzero(category_codes == code) for code in np.unique(category_codes))]
    issue_of = np.full(len(languages), -1)
    for number, members in enumerate(issues):
        issue_of[members] = number
    return CrossLingualRanker(
        bm25=BM25(index, k1=settings["k1"], b=settings["b"], epsilon=0.25),
        signatures=concept_signatures(tfidf_documents(index), languages, concepts),
        categories=category_codes,
        feedback=int(settings["feedback"]),
        weights=(settings["concept_weight"], settings["category_weight"]),
        issue_of=issue_of,
        penalty=settings["other_issue_penalty"],
        query_terms=query_terms(index, analyzer, lexicon, settings) if analyzer is not None else None,
        questions=questions or {},
    )


def query_terms(
    index: Index, analyzer: Analyzer | MultilingualAnalyzer, lexicon: Lexicon | None, settings: Mapping[str, float]
) -> Terms:
    """A question's text → weighted term ids: translated where the analyzer knows several languages and there are
    dictionaries; otherwise its analysed terms, each weight 1."""
    if isinstance(analyzer, MultilingualAnalyzer):
        limit = int(settings["translations"])
        return QueryTerms(analyzer, index.vocabulary, lexicon, settings["translation"], limit)

    def unweighted(text: str) -> tuple[list[int], list[float]]:
        ids = index.vocabulary.ids(analyzer.analyze(text))
        return ids, [1.0] * len(ids)

    return unweighted
