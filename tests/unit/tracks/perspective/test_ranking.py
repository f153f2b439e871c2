"""The perspective track's ranking: scenario rules and the cross-lingual signals (the graph: integration/)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from argrank.index.build import build_index
from argrank.retrieval.top_k import top_k
from argrank.text.language import LanguageDetector
from argrank.text.multilingual import make_analyzer
from argrank.tracks.perspective.crosslingual import DEFAULTS, build_ranker
from argrank.tracks.perspective.data import (
    PROFILE_COLUMNS,
    Query,
    query_file,
    read_corpus,
    read_queries,
)
from argrank.tracks.perspective.evaluation import evaluate_perspective
from argrank.tracks.perspective.ingest import SCHEMA, ingest_perspective
from argrank.tracks.perspective.ranking import (
    SCENARIO_COLUMNS,
    PropertyEvidence,
    check_columns,
    diversify,
    property_mask,
    rank_scenario,
    training_from_queries,
)
from argrank.tracks.perspective.training import Training

REPO = Path(__file__).resolve().parents[4]
DATA = REPO / "data" / "perspective"


@pytest.mark.parametrize("scenario", ["baseline", "implicit"])
def test_baseline_and_implicit_rankings_cannot_see_the_profiles(scenario, tmp_path):
    ingest_perspective(DATA, tmp_path / "docs.parquet", ["de", "fr", "it"])
    everything = pq.read_table(tmp_path / "docs.parquet")
    assert set(PROFILE_COLUMNS) <= set(everything.column_names)
    assert not set(PROFILE_COLUMNS) & set(SCENARIO_COLUMNS[scenario])
    with pytest.raises(ValueError, match=f"the {scenario} scenario may not read .*gender"):
        PropertyEvidence(scenario, everything, Training([], {}))
    # What the scenario is given has no profile, so nothing downstream can read one.
    allowed = pq.read_table(tmp_path / "docs.parquet", columns=list(SCENARIO_COLUMNS[scenario]))
    check_columns(allowed, scenario)
    with pytest.raises(KeyError):
        allowed.column("political_spectrum")


def test_explicit_moves_authors_with_the_property_ahead_over_the_whole_list():
    documents = pa.table({"id": ["a", "b", "c"], "language": ["de"] * 3, "topic": ["x"] * 3, "stance": ["FAVOR"] * 3,
                          **{name: [[], [], []] if name == "important_political_issues" else ["u", "v", "v"]
                             for name in PROFILE_COLUMNS}})  # fmt: skip
    evidence = PropertyEvidence("explicit", documents, Training([], {}))
    query = Query("1", "q", None, {"gender": "v"})
    adjusted = evidence.adjust(np.array([3.0, 2.0, 1.0]), query)
    assert list(np.argsort(-adjusted)) == [1, 2, 0]
    assert np.array_equal(evidence.adjust(np.array([3.0, 2.0, 1.0]), Query("2", "q", None, None)), [3.0, 2.0, 1.0])


def test_queries_are_scored_with_blas_on_one_thread_and_the_limit_is_lifted_after():
    documents = pa.table({"id": ["a", "b"], "language": ["de"] * 2, "topic": ["x"] * 2})
    evidence = PropertyEvidence("baseline", documents, Training([], {}))
    during = []

    def score(text: str) -> np.ndarray:
        during.append(blas_threads())
        return np.array([1.0, 2.0])

    with threadpool_limits(limits=2, user_api="blas"):
        callers = blas_threads()
        ranked = rank_scenario([Query("1", "q", None, None)], score, evidence, pa.array([10, 11]), 2)
        assert blas_threads() == callers
    assert ranked == {"1": [11, 10]} and during and set(during[0]) == {1}


def blas_threads() -> list[int]:
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_diversify_spreads_the_top_over_values_and_keeps_the_rest_below():
    scores = np.array([1.0, 0.99, 0.98, 0.1])
    gender = np.array(["m", "m", "f", "f"])
    # Off: unchanged. On: after the best (m), the f argument's novelty beats the second m's slightly higher score.
    assert np.array_equal(diversify(scores, [gender], 0.0), scores)
    order = list(np.argsort(-diversify(scores, [gender], 0.5), kind="stable"))
    assert order == [0, 2, 1, 3]
    # A weight near 0 keeps the score order.
    assert list(np.argsort(-diversify(scores, [gender], 0.01), kind="stable")) == [0, 1, 2, 3]


def test_language_detection_on_the_embedded_corpus_matches_how_it_was_written():
    corpus = read_corpus(DATA)
    detected = LanguageDetector(["de", "fr", "it"]).detect_many(corpus.texts)
    # data/perspective/README.md: 177 German, 97 French and 40 Italian arguments.
    assert {language: detected.count(language) for language in ("de", "fr", "it")} == {"de": 177, "fr": 97, "it": 40}


def test_concept_signatures_find_an_issue_across_languages():
    """Dev issues are not among the concepts; their other-language arguments are found only through signatures."""
    corpus = read_corpus(DATA)
    languages = LanguageDetector(["de", "fr", "it"]).detect_many(corpus.texts)
    analyzer = make_analyzer("de,fr,it")
    index = build_index(pa.array([str(i) for i in corpus.ids]), analyzer.analyze_many(corpus.texts, languages))
    order = corpus.positions([int(doc) for doc in index.doc_ids.to_pylist()])
    issues = sorted({tuple(sorted(q.relevant_candidates)) for q in read_queries(query_file(DATA, "baseline", "train"))})
    positions = {int(doc): i for i, doc in enumerate(index.doc_ids.to_pylist())}
    concepts = [np.array([positions[i] for i in issue]) for issue in issues]
    queries = read_queries(query_file(DATA, "baseline", "dev"))

    def ndcg20(params: dict) -> float:
        ranker = build_ranker(index, np.array(languages)[order], corpus.topic[order], concepts, params, analyzer)
        predictions = {}
        for query in queries:
            scores = ranker.score_text(query.text)
            docs, _ = top_k(np.arange(len(scores)), scores, 1000)
            predictions[query.query_id] = [int(d) for d in index.doc_ids.take(pa.array(docs)).to_pylist()]
        return evaluate_perspective(corpus, queries, predictions, "baseline").means["nDCG@20"]

    bm25 = ndcg20({"concept_weight": 0.0, "category_weight": 0.0})
    crossing = ndcg20({})
    assert crossing > bm25 + 0.1, (bm25, crossing)
    assert ndcg20({"feedback": 0}) == bm25  # no feedback arguments: no signals to add (it used to crash)


def test_ingested_table_has_the_scenario_columns(tmp_path):
    stats = ingest_perspective(DATA, tmp_path / "docs.parquet", ["de", "fr", "it"])
    table = pq.read_table(tmp_path / "docs.parquet")
    assert stats.rows == table.num_rows == 314 and table.schema == SCHEMA
    assert all(set(columns) <= set(SCHEMA.names) for columns in SCENARIO_COLUMNS.values())
    assert Path(DATA / "corpus.jsonl").is_file()


def test_known_answers_to_other_questions_are_demoted_but_not_a_training_questions_own():
    """Each argument answers one question: one judged for a training question is moved down for any other question,
    never for that question itself (so ranking the training split still finds its own issue)."""
    corpus = read_corpus(DATA)
    languages = LanguageDetector(["de", "fr", "it"]).detect_many(corpus.texts)
    analyzer = make_analyzer("de,fr,it")
    index = build_index(pa.array([str(i) for i in corpus.ids]), analyzer.analyze_many(corpus.texts, languages))
    order = corpus.positions([int(doc) for doc in index.doc_ids.to_pylist()])
    positions = {int(doc): i for i, doc in enumerate(index.doc_ids.to_pylist())}
    training = training_from_queries(
        read_queries(query_file(DATA, "baseline", "train")), read_queries(query_file(DATA, "explicit", "train")),
        lambda argument: positions.get(argument, -1),
    )  # fmt: skip
    assert len(training.questions) == 3 * len(training.issues)  # every training question, in its three languages
    known = np.zeros(index.num_docs, dtype=bool)
    known[np.concatenate(training.issues)] = True

    def scores(params: dict, text: str) -> np.ndarray:
        topics, questions = corpus.topic[order], training.questions
        ranker = build_ranker(index, np.array(languages)[order], topics, training.issues, params, analyzer, None, questions)
        return ranker.score_text(text)

    def top(params: dict, text: str) -> np.ndarray:  # as many as no training question judged
        return np.argsort(-scores(params, text), kind="stable")[: int((~known).sum())]

    dev = read_queries(query_file(DATA, "baseline", "dev"))[0].text
    assert known[top({"other_issue_penalty": 0.0}, dev)].any()  # without it, other questions' answers come up
    assert not known[top({}, dev)].any()
    penalty = DEFAULTS["other_issue_penalty"]
    assert np.allclose(scores({"other_issue_penalty": 0.0}, dev) - scores({}, dev), penalty * known)
    question, issue = next(iter(training.questions.items()))
    others = known & ~np.isin(np.arange(index.num_docs), training.issues[issue])
    assert np.allclose(scores({"other_issue_penalty": 0.0}, question) - scores({}, question), penalty * others)


def test_property_mask_says_which_authors_have_a_value_and_a_missing_profile_has_none():
    genders = ["Weiblich", None, "Männlich", "Weiblich", "weiblich"]
    issues = [["Law & Order", "Liberale Gesellschaft"], None, [None, "Law & Order"], [], ["Law & Order x"]]
    schema = pa.schema([("gender", pa.string()), ("important_political_issues", pa.list_(pa.string()))])
    table = pa.Table.from_pydict({"gender": genders, "important_political_issues": issues}, schema=schema)
    chunked = pa.concat_tables([table.slice(0, 2), table.slice(2)])  # two chunks, the second one sliced
    for documents in (table, chunked):
        assert property_mask(documents, "gender", "Weiblich").tolist() == [True, False, False, True, False]
        have = property_mask(documents, "important_political_issue", "Law & Order")
        assert have.dtype == bool and have.tolist() == [True, False, True, False, False]
        assert not property_mask(documents, "important_political_issue", "none such").any()
