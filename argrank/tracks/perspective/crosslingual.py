"""Retrieval across German, French and Italian without translation models: BM25 over the question's words and
their dictionary translations (`translation`), then evidence that crosses languages, learned from the training
queries' judgments and the corpus's own labels.

A query finds its own language's arguments well with BM25, but its issue's arguments in the other two languages
share almost no words with it; a French or Italian question's dictionary translations into the languages with more
arguments reach some of them: each translated word is one structured term (translation.py), scored by BM25 as one
word whose frequency is its translations' summed and whose document frequency is that of any of them, weighted
`translation` times its specificity (translation.py) against the question's own words. Two signals bridge the rest, each computed from the first pass's
top `feedback` arguments (pseudo-relevance feedback), so they describe the issue rather than the short question:

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
one question, so an argument known to answer another one is not an answer to a new question (a corpus whose
arguments may answer several questions wants it at 0). Ties go by document id.

The score is computed in steps so that the cross-validation can try several weights on one first pass:
`Matcher.matches` (BM25 of the question's own and translated terms, which reads no training judgment), then
`CrossLingualRanker.parts` (the first pass, its feedback and the penalised arguments for one translation weight),
then `combine` adds them with the concept and category weights and the penalty. (Rocchio expansion with the
feedback's own words was tried too: it crosses languages only through shared names, numbers and acronyms, and on
the embedded dev queries it lowered nDCG@20, so it is not part of the score.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from argrank.index.store import Index
from argrank.retrieval.models.bm25 import BM25
from argrank.retrieval.top_k import top_k
from argrank.text.analyzer import Analyzer
from argrank.text.multilingual import MultilingualAnalyzer
from argrank.tracks.perspective.concepts import concept_signatures, tfidf_documents
from argrank.tracks.perspective.settings import DEFAULTS, RANGES  # noqa: F401 (RANGES: where its importers look)
from argrank.tracks.perspective.translation import Lexicon, Question, QueryTerms

EPSILON = 0.25  # BM25's floor for a very common term: this share of the average idf


@dataclass(frozen=True)
class Matches:
    """A question's BM25 over every document (0 where unmatched): of its own terms and of its translations
    (each structured term weighing 1)."""

    own: np.ndarray
    translated: np.ndarray


class StructuredBM25:
    """BM25 of structured terms: a set of terms scored as one, its frequency in a document the sum of its terms'
    and its document frequency the number of documents holding any of them, with the idf and length
    normalisation of `bm25`."""

    def __init__(self, index: Index, bm25: BM25):
        postings = index.postings
        self.indptr, self.indices, self.data = postings.indptr, postings.indices, postings.data
        self.norm, self.k1 = bm25.norm, bm25.k1
        self.num_docs = bm25.statistics.num_docs
        frequencies = bm25.statistics.document_frequencies
        idf = np.log(self.num_docs - frequencies + 0.5) - np.log(frequencies + 0.5)
        self.floor = EPSILON * float(idf.mean()) if len(idf) else 0.0

    def scores(self, term_sets: Sequence[Sequence[int]], weights: Sequence[float] | None = None) -> np.ndarray:
        """Every document's summed BM25 of the structured terms, each times its weight (1 where None; 0 where none
        matches)."""
        total = np.zeros(len(self.norm))
        for terms, weight in zip(term_sets, [1.0] * len(term_sets) if weights is None else weights):
            spans = [slice(self.indptr[t], self.indptr[t + 1]) for t in terms]
            docs = np.concatenate([self.indices[span] for span in spans]).astype(np.int64)
            tf = np.concatenate([self.data[span] for span in spans]).astype(np.float64)
            if len(spans) > 1:
                docs, inverse = np.unique(docs, return_inverse=True)
                tf = np.bincount(inverse, weights=tf, minlength=len(docs))
            if not len(docs):
                continue
            found = len(docs)
            idf = np.log(self.num_docs - found + 0.5) - np.log(found + 0.5)
            idf = idf if idf >= 0 else self.floor
            total[docs] += weight * idf * (tf * (self.k1 + 1) / (tf + self.norm[docs]))
        return total


@dataclass
class Matcher:
    """What a question's first pass reads of the index alone (no training judgment): BM25 and the question's
    terms. Shared by the rankers of several trainings, since its `matches` depend on none."""

    bm25: BM25
    structured: StructuredBM25
    query_terms: QueryTerms | None = None  # a multilingual analyzer's questions, translated where it has a lexicon
    analyzer: Analyzer | None = None  # a one-language analyzer's questions: their terms, untranslated

    def question(self, text: str) -> Question:
        if self.query_terms is not None:
            return self.query_terms(text)
        ids = self.bm25.index.vocabulary.ids(self.analyzer.analyze(text))
        return Question("", ids, [1.0] * len(ids), [])

    def matches(self, text: str) -> Matches:
        question = self.question(text)
        weights = question.translation_weights or None
        return Matches(self.own(question.ids, question.weights), self.structured.scores(question.translations, weights))

    def own(self, term_ids: list[int], weights: list[float] | None = None) -> np.ndarray:
        """Every document's BM25 of the term ids (weighted: 1 where None), 0 where unmatched."""
        scores = np.zeros(len(self.structured.norm))
        if term_ids:
            candidates, bm25 = self.bm25.score(term_ids, weights)
            scores[candidates] = bm25
        return scores


@dataclass(frozen=True)
class Parts:
    """A question's score before weighting: its first pass scaled so the best is 1 (0 where unmatched), the
    concept and category signals of its feedback (None without feedback or a match) and which arguments answer
    another training question (None without any)."""

    bm25: np.ndarray
    concept: np.ndarray | None
    category: np.ndarray | None
    known: np.ndarray | None


@dataclass
class CrossLingualRanker:
    """BM25 plus the two feedback signals, less the penalty for other questions' known answers; build it once per
    training with `build_ranker`."""

    matcher: Matcher
    signatures: np.ndarray  # documents × concepts, centred per language, L2-normalised rows
    categories: np.ndarray  # each document's category code
    feedback: int
    weights: tuple[float, float]  # concept, category
    issue_of: np.ndarray  # each document's training issue (the last, were it judged for several), -1 for none
    penalty: float
    translation: float = 1.0  # what a translated word weighs against one of the question's own
    questions: Mapping[str, int] = field(default_factory=dict)  # training questions' texts → their issues

    def score_text(self, text: str) -> np.ndarray:
        """Every document's score for a question's text (translated where the matcher has dictionaries); a training
        question keeps its own issue's known answers."""
        return self.combine(self.parts(self.matcher.matches(text), self.questions.get(text)))

    def score(self, term_ids: list[int], weights: list[float] | None = None, issue: int | None = None) -> np.ndarray:
        """Every document's score for a query given as term ids (with their weights, 1 where None; 0 everywhere for
        a query that matches nothing, but the penalty); `issue` is the query's own training issue, if it is a
        training question."""
        own = self.matcher.own(term_ids, weights)
        return self.combine(self.parts(Matches(own, np.zeros_like(own)), issue))

    def parts(self, matches: Matches, issue: int | None = None, translation: float | None = None) -> Parts:
        """The parts of a question's score from its matches, with `translation` (the ranker's where None)."""
        weight = self.translation if translation is None else translation
        first = matches.own + weight * matches.translated if weight else matches.own
        known = None
        if self.penalty and (self.issue_of >= 0).any():
            known = (self.issue_of >= 0) & (self.issue_of != (-1 if issue is None else issue))
        candidates = np.flatnonzero(first > 0)
        if not len(candidates):
            return Parts(np.zeros(len(first)), None, None, known)
        best = first[candidates].max()
        scaled = np.zeros(len(first))
        scaled[candidates] = first[candidates] / best
        if self.feedback < 1:  # no feedback arguments: BM25 alone
            return Parts(scaled, None, None, known)
        top, _ = top_k(candidates, first[candidates], self.feedback)
        centroid = self.signatures[top].mean(axis=0)
        concept = (self.signatures @ centroid) / max(np.linalg.norm(centroid), 1e-12)
        shares = np.bincount(self.categories[top], minlength=self.categories.max() + 1) / len(top)
        return Parts(scaled, concept, shares[self.categories], known)

    def combine(
        self, parts: Parts, weights: tuple[float, float] | None = None, penalty: float | None = None
    ) -> np.ndarray:
        """The score from its parts: BM25 + concept weight × concept + category weight × category − penalty × known
        (the ranker's weights and penalty where None)."""
        concept_weight, category_weight = self.weights if weights is None else weights
        penalty = self.penalty if penalty is None else penalty
        total = np.zeros(len(parts.bm25))
        if penalty and parts.known is not None:
            total -= penalty * parts.known
        total += parts.bm25
        if concept_weight and parts.concept is not None:
            total += concept_weight * parts.concept
        if category_weight and parts.category is not None:
            total += category_weight * parts.category
        return total


def build_matcher(
    index: Index,
    params: Mapping[str, float],
    analyzer: Analyzer | MultilingualAnalyzer | None = None,
    lexicon: Lexicon | None = None,
    languages: Sequence[str] | None = None,
) -> Matcher:
    """The first pass's matcher for `index` with `params`' k1, b, translations and specificity (DEFAULTS where
    missing); `languages`, each document's, give the specificity its per-language document frequencies."""
    settings = {**DEFAULTS, **params}
    bm25 = BM25(index, k1=settings["k1"], b=settings["b"], epsilon=EPSILON)
    terms = None
    if isinstance(analyzer, MultilingualAnalyzer):
        frequencies = language_frequencies(index, languages) if languages is not None else None
        terms = QueryTerms(analyzer, index.vocabulary, lexicon, int(settings["translations"]), frequencies,
                           settings["specificity"])  # fmt: skip
    return Matcher(bm25, StructuredBM25(index, bm25), terms, None if terms else analyzer)


def language_frequencies(index: Index, languages: Sequence[str]) -> dict[str, tuple[np.ndarray, int]]:
    """Per document language, each term's document frequency among that language's documents and their count."""
    codes, inverse = np.unique(np.asarray(languages), return_inverse=True)
    postings = index.postings
    term_of = np.repeat(np.arange(len(postings.indptr) - 1), np.diff(postings.indptr))
    language_of = inverse[np.asarray(postings.indices, dtype=np.int64)]
    return {
        str(code): (np.bincount(term_of[language_of == number], minlength=len(postings.indptr) - 1),
                    int((inverse == number).sum()))
        for number, code in enumerate(codes)
    }  # fmt: skip


def build_ranker(
    index: Index,
    languages: Sequence[str],
    categories: Sequence[str],
    issues: Sequence[np.ndarray],
    params: Mapping[str, float],
    analyzer: Analyzer | MultilingualAnalyzer | None = None,
    lexicon: Lexicon | None = None,
    questions: Mapping[str, int] | None = None,
    matcher: Matcher | None = None,
) -> CrossLingualRanker:
    """The ranker for `index`, given each document's language and category (in the index's document order) and the
    training issues as arrays of document positions. `params` override DEFAULTS. With `analyzer` it scores texts
    (score_text): a multilingual analyzer's questions translated with `lexicon`'s dictionaries, if any; `questions`
    maps training questions to their issues. `matcher` (built with the same k1, b and translations) shares one
    between rankers."""
    settings = {**DEFAULTS, **params}
    languages = np.asarray(languages)
    category_codes = np.unique(np.asarray(categories), return_inverse=True)[1]
    concepts = [*issues, *(np.flatnonzero(category_codes == code) for code in np.unique(category_codes))]
    issue_of = np.full(len(languages), -1)
    for number, members in enumerate(issues):
        issue_of[members] = number
    return CrossLingualRanker(
        matcher=matcher or build_matcher(index, settings, analyzer, lexicon, languages),
        signatures=concept_signatures(tfidf_documents(index), languages, concepts),
        categories=category_codes,
        feedback=int(settings["feedback"]),
        weights=(settings["concept_weight"], settings["category_weight"]),
        issue_of=issue_of,
        penalty=settings["other_issue_penalty"],
        translation=settings["translation"],
        questions=questions or {},
    )
