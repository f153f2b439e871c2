"""tracks/perspective/crosslingual.py: the ranker's score from its parts by hand, structured translation terms'
BM25, and build_ranker's wiring."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from argrank.core.params import checked_params
from argrank.index.build import build_index
from argrank.retrieval.models.bm25 import BM25
from argrank.tracks.perspective.crosslingual import (
    DEFAULTS,
    RANGES,
    CrossLingualRanker,
    Matcher,
    Matches,
    StructuredBM25,
    build_matcher,
    build_ranker,
)

TOKENS = {"a": ["tax", "tax", "meat"], "b": ["tax"], "c": ["car", "tax", "road", "road"], "d": ["dam", "dam"]}


class _Words:
    """A plain analyzer: lowercased words split at spaces (build_ranker takes any one-language analyzer)."""

    def analyze(self, text: str) -> list[str]:
        return text.lower().split()


@pytest.fixture(scope="module")
def index():
    return build_index(pa.array(list(TOKENS)), pa.array(list(TOKENS.values()), pa.list_(pa.string())))


def _ranker(index, feedback=0, weights=(0.0, 0.0), penalty=0.0, signatures=None, categories=(0, 0, 0, 0),
            issue_of=(-1, -1, -1, -1)) -> CrossLingualRanker:  # fmt: skip
    bm25 = BM25(index, k1=1.2, b=0.75, epsilon=0.25)
    return CrossLingualRanker(
        matcher=Matcher(bm25, StructuredBM25(index, bm25)),
        signatures=np.zeros((4, 2)) if signatures is None else np.asarray(signatures, dtype=float),
        categories=np.asarray(categories),
        feedback=feedback,
        weights=weights,
        issue_of=np.asarray(issue_of),
        penalty=penalty,
    )


def _bm25(index, terms: list[str]) -> np.ndarray:
    """Every document's BM25 (0 where unmatched), scaled so the best is 1."""
    candidates, scores = BM25(index, k1=1.2, b=0.75, epsilon=0.25).score(index.vocabulary.ids(terms))
    dense = np.zeros(index.num_docs)
    dense[candidates] = scores
    return dense / dense.max()


def test_the_defaults_lie_in_their_ranges():
    assert set(DEFAULTS) == set(RANGES)
    assert checked_params("the perspective ranker", DEFAULTS, DEFAULTS, RANGES) == {
        k: float(v) for k, v in DEFAULTS.items()
    }


def test_without_feedback_the_score_is_bm25_scaled_so_the_best_is_one(index):
    tax = index.vocabulary.ids(["tax"])
    scores = _ranker(index).score(tax)
    assert np.allclose(scores, _bm25(index, ["tax"]))
    assert scores.max() == 1.0 and scores[3] == 0.0  # d has no "tax"
    assert np.count_nonzero(scores) == 3


def test_a_query_that_matches_nothing_scores_zero_but_the_penalty(index):
    assert np.array_equal(_ranker(index).score([]), np.zeros(4))
    ranker = _ranker(index, penalty=2.0, issue_of=(-1, 0, 1, 1))
    assert np.array_equal(ranker.score([]), [0.0, -2.0, -2.0, -2.0])
    assert np.array_equal(ranker.score(index.vocabulary.ids(["nothing"]), issue=1), [0.0, -2.0, 0.0, 0.0])


def test_the_penalty_spares_the_querys_own_issue_and_arguments_of_no_issue(index):
    tax = index.vocabulary.ids(["tax"])
    plain = _ranker(index).score(tax)
    ranker = _ranker(index, penalty=3.0, issue_of=(-1, 0, 1, 1))
    assert np.allclose(plain - ranker.score(tax), [0.0, 3.0, 3.0, 3.0])
    assert np.allclose(plain - ranker.score(tax, issue=0), [0.0, 0.0, 3.0, 3.0])
    assert np.allclose(plain - ranker.score(tax, issue=1), [0.0, 3.0, 0.0, 0.0])


def test_the_category_signal_is_the_feedbacks_share_in_each_arguments_category(index):
    tax = index.vocabulary.ids(["tax"])
    bm25 = _bm25(index, ["tax"])
    top = int(np.argmax(bm25))
    categories = np.array([0, 1, 0, 1])
    scores = _ranker(index, feedback=1, weights=(0.0, 0.5), categories=categories).score(tax)
    assert np.allclose(scores, bm25 + 0.5 * (categories == categories[top]))
    order = np.argsort(-bm25, kind="stable")[:2]  # two feedback arguments: shares of 1/2 each, or 1 for one category
    shares = np.bincount(categories[order], minlength=2) / 2
    scores = _ranker(index, feedback=2, weights=(0.0, 1.0), categories=categories).score(tax)
    assert np.allclose(scores, bm25 + shares[categories])


def test_the_concept_signal_is_each_signatures_cosine_to_the_feedbacks_mean(index):
    tax = index.vocabulary.ids(["tax"])
    bm25 = _bm25(index, ["tax"])
    s = 1 / np.sqrt(2)
    signatures = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [s, s]])
    top = int(np.argmax(bm25))
    scores = _ranker(index, feedback=1, weights=(2.0, 0.0), signatures=signatures).score(tax)
    assert np.allclose(scores, bm25 + 2.0 * signatures @ signatures[top])
    assert np.isclose(scores[3], 2.0 * s * signatures[top].sum())  # d: no BM25, reached through its signature


def test_weights_applied_to_term_ids_scale_their_bm25(index):
    ranker = _ranker(index)
    ids = index.vocabulary.ids(["tax", "road"])
    assert np.allclose(ranker.score(ids), ranker.score(ids, [1.0, 1.0]))
    assert not np.allclose(ranker.score(ids, [1.0, 3.0]), ranker.score(ids))


def test_build_ranker_codes_categories_in_sorted_order_and_numbers_the_issues(index):
    ranker = build_ranker(index, ["de", "fr", "de", "fr"], ["Economy", "Climate", "Economy", "Transport"],
                          [np.array([1]), np.array([2, 3])], {})  # fmt: skip
    assert ranker.categories.tolist() == [1, 0, 1, 2]
    assert ranker.issue_of.tolist() == [-1, 0, 1, 1]
    assert ranker.signatures.shape == (4, 2 + 3)  # a concept per issue and per category
    norms = np.linalg.norm(ranker.signatures, axis=1)
    assert np.all(np.isclose(norms, 1.0) | np.isclose(norms, 0.0))
    assert ranker.feedback == DEFAULTS["feedback"] and ranker.penalty == DEFAULTS["other_issue_penalty"]
    assert ranker.weights == (DEFAULTS["concept_weight"], DEFAULTS["category_weight"])
    assert ranker.translation == DEFAULTS["translation"]
    assert (ranker.matcher.bm25.k1, ranker.matcher.bm25.b) == (DEFAULTS["k1"], DEFAULTS["b"])
    assert ranker.matcher.query_terms is None and ranker.questions == {}


def test_build_ranker_takes_params_over_the_defaults(index):
    params = {"k1": 0.9, "b": 0.3, "feedback": 3.0, "concept_weight": 0.0, "category_weight": 2.0,
              "other_issue_penalty": 0.0}  # fmt: skip
    ranker = build_ranker(index, ["de"] * 4, ["x"] * 4, [], params)
    assert (ranker.matcher.bm25.k1, ranker.matcher.bm25.b, ranker.feedback) == (0.9, 0.3, 3)
    assert isinstance(ranker.feedback, int)
    assert ranker.weights == (0.0, 2.0) and ranker.penalty == 0.0


def test_a_questions_text_is_scored_as_its_words_and_a_training_question_keeps_its_own_answers(index):
    params = {"feedback": 0, "other_issue_penalty": 5.0}
    questions = {"Tax road": 1}
    ranker = build_ranker(
        index, ["en"] * 4, ["x"] * 4, [np.array([1]), np.array([2])], params, _Words(), None, questions
    )
    ids = index.vocabulary.ids(["tax", "road"])
    assert len(ids) == 2
    assert np.allclose(ranker.score_text("Tax road"), ranker.score(ids, [1.0, 1.0], issue=1))
    # The same words, not the training question's text: its issue's known answer (c) is penalised too.
    assert np.allclose(ranker.score_text("Tax road") - ranker.score_text("tax road"), [0.0, 0.0, 5.0, 0.0])


def test_a_structured_term_of_one_term_scores_as_bm25_and_of_several_as_one_word(index):
    bm25 = BM25(index, k1=1.2, b=0.75, epsilon=0.25)
    structured = StructuredBM25(index, bm25)
    (road,), (dam,) = index.vocabulary.ids(["road"]), index.vocabulary.ids(["dam"])
    alone = np.zeros(4)
    candidates, scores = bm25.score([road])
    alone[candidates] = scores
    assert np.allclose(structured.scores([(road,)]), alone)
    # road (c: tf 2) or dam (d: tf 2) as one word: in 2 of 4 documents, so rarer than neither alone is, and each
    # document scores as if it held that word twice.
    both = structured.scores([(road, dam)])
    n, df = 4, 2
    idf = np.log(n - df + 0.5) - np.log(df + 0.5)
    norm = bm25.norm
    expected = [0.0, 0.0, idf * 2 * 2.2 / (2 + norm[2]), idf * 2 * 2.2 / (2 + norm[3])]
    assert np.allclose(both, expected)
    assert np.allclose(structured.scores([(road,), (dam,)]), alone + structured.scores([(dam,)]))  # terms add up


def test_a_very_common_structured_term_gets_bm25s_floor(index):
    bm25 = BM25(index, k1=1.2, b=0.75, epsilon=0.25)
    structured = StructuredBM25(index, bm25)
    everywhere = tuple(index.vocabulary.ids(["tax", "dam"]))  # together in all 4 documents: idf below 0
    assert np.all(structured.scores([everywhere]) > 0)
    frequencies = index.document_frequencies
    floor = 0.25 * np.mean(np.log(4 - frequencies + 0.5) - np.log(frequencies + 0.5))
    assert structured.floor == pytest.approx(floor)


def test_translation_weighs_the_translated_matches_and_feeds_the_first_pass(index):
    ranker = _ranker(index, feedback=1, weights=(0.0, 1.0), categories=(0, 0, 1, 1))
    own, translated = np.array([2.0, 1.0, 0.0, 0.0]), np.array([0.0, 0.0, 0.0, 4.0])
    matches = Matches(own, translated)
    plain = ranker.parts(matches, translation=0.0)
    assert np.allclose(plain.bm25, [1.0, 0.5, 0.0, 0.0]) and np.allclose(plain.category, [1, 1, 0, 0])
    weighted = ranker.parts(matches, translation=1.0)  # d's translation now leads, and its category with it
    assert np.allclose(weighted.bm25, [0.5, 0.25, 0.0, 1.0]) and np.allclose(weighted.category, [0, 0, 1, 1])
    assert np.allclose(ranker.combine(weighted), weighted.bm25 + weighted.category)
    assert np.allclose(ranker.combine(weighted, (0.0, 2.0)), weighted.bm25 + 2 * weighted.category)


def test_score_text_is_the_sum_of_its_parts_with_the_rankers_weights(index):
    matcher = build_matcher(index, {}, _Words())
    ranker = build_ranker(index, ["en"] * 4, ["x", "y", "x", "y"], [np.array([1])], {"translation": 0.5}, _Words(),
                          None, {}, matcher)  # fmt: skip
    assert ranker.matcher is matcher and ranker.translation == 0.5
    parts = ranker.parts(matcher.matches("tax road"))
    assert parts.known.tolist() == [False, True, False, False]
    expected = parts.bm25 + DEFAULTS["concept_weight"] * parts.concept + DEFAULTS["category_weight"] * parts.category
    assert np.allclose(ranker.score_text("tax road"), expected - DEFAULTS["other_issue_penalty"] * parts.known)
