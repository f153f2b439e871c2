"""Learning to rank: a run's top re-scored by LightGBM's LambdaMART over features of each query and document, trained
on the judged topics a runs file names (never the ones it ranks); the `ltr` re-ranking step.

The features (FEATURES, then the quality model's two where it is given) do not depend on the steps before the one
that uses them, so a model trained on one ranking's candidates scores another's alike:

- `bm25` and `dirichlet`: the document's BM25 (rank-bm25's defaults) and Dirichlet-smoothed query likelihood over
  the whole index, 0 where it holds no query term;
- `bm25_<field>`: BM25 of the field alone, each term's idf from the index (Lucene's, never negative) and the
  field's average length over the candidates of the query;
- `words`: log(1 + the document's analysed terms); `coverage`: the share of the query's distinct terms it holds;
- `quality`, `argument`: the quality model's expected quality and P(argument) of the document.

Training is deterministic (one thread, LightGBM's deterministic mode, a fixed seed); a judgment below 0 (Touché's
-2 for spam) counts as 0, and an unjudged candidate as 0.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from argrank import lazylibs
from argrank.core.errors import InputError
from argrank.core.params import Range
from argrank.evaluation.in_sample import topics_named
from argrank.formats.topics import read_topics, topic_order
from argrank.index.store import Index
from argrank.quality.rerank import Quality
from argrank.retrieval.registry import make_ranker

FEATURES = ("bm25", "dirichlet", "words", "coverage")
QUALITY_FEATURES = ("quality", "argument")
DEFAULTS = {"trees": 100, "leaves": 15, "learning_rate": 0.1, "min_leaf": 5}
RANGES = {
    "trees": Range(1, 5000, integer=True),
    "leaves": Range(2, 1024, integer=True),
    "learning_rate": Range(0, 1, low_open=True),
    "min_leaf": Range(1, integer=True),
}
SEED = 0
K1, B = 1.2, 0.75  # the per-field BM25's parameters (rank-bm25's defaults)


def check_held_out(training_topics: str | Path, ranked_topics: str | Path) -> None:
    """InputError naming the training topics that the run ranks too: a model learnt from them would be scored on
    them. Made each time a graph is built from the runs file (workflows.graph, `argrank tira`), not in the model's
    stage, whose cached target is named by its training topics alone: a model learnt for a run of other topics
    would be taken from the cache, and the check skipped with it."""
    training = {topic.number for topic in read_topics(training_topics)}
    shared = topic_order(training & {topic.number for topic in read_topics(ranked_topics)})
    if shared:
        problem = f"the ltr step would learn from topics the run ranks: {topics_named(shared)}"
        raise InputError(training_topics, "", problem)


def feature_names(fields: Sequence[str], with_quality: bool) -> list[str]:
    """The features' names, in the columns' order."""
    return [*FEATURES[:2], *(f"bm25_{field}" for field in fields), *FEATURES[2:],
            *(QUALITY_FEATURES if with_quality else ())]  # fmt: skip


def feature_matrix(candidates: pa.Table, query_terms: Mapping[str, Sequence[str]], index: Index,
                   analyze_many: Callable[[list[str]], Any], fields: Sequence[str],
                   quality: Quality | None = None) -> np.ndarray:  # fmt: skip
    """One row of features per candidate (a step's candidates table, retrieval.steps.candidates), in
    feature_names' order; `query_terms` are each topic's analysed query terms, `analyze_many` the analyzer's (a
    list of term lists, or an Arrow list column)."""

    def analyzed(texts: list[Any]) -> list[list[str]]:
        terms = analyze_many([str(text or "") for text in texts])
        return terms.to_pylist() if isinstance(terms, pa.Array) else list(terms)

    topics = candidates.column("topic").to_pylist()
    docs = candidates.column("doc").to_pylist()
    columns = [*_index_scores(index, topics, docs, query_terms)]
    idf = _idf(index)
    for field in fields:
        texts = candidates.column(field).to_pylist() if field in candidates.column_names else [""] * len(docs)
        columns.append(_field_bm25(topics, analyzed(texts), query_terms, idf))
    text_terms = analyzed(candidates.column("text").to_pylist())
    columns.append(np.log1p([len(terms) for terms in text_terms]))
    columns.append(np.array([_coverage(query_terms.get(topic, ()), terms) for topic, terms in zip(topics, text_terms)]))
    if quality is not None:
        columns.append(np.array([quality.expected[doc] for doc in docs]))
        columns.append(np.array([quality.argument[doc] for doc in docs]))
    return np.column_stack(columns) if docs else np.zeros((0, len(columns)))


def train_ranker(features: np.ndarray, labels: Sequence[int], groups: Sequence[int], names: Sequence[str],
                 params: Mapping[str, Any]) -> str:  # fmt: skip
    """A LambdaMART model of the rows' `features` and judgments (`groups`: each topic's number of rows, topics in
    row order), as LightGBM's model text (a format that loads without running code)."""
    settings = {**DEFAULTS, **params}
    lightgbm = lazylibs.lightgbm()
    model = lightgbm.LGBMRanker(
        objective="lambdarank", n_estimators=int(settings["trees"]), num_leaves=int(settings["leaves"]),
        learning_rate=float(settings["learning_rate"]), min_child_samples=int(settings["min_leaf"]),
        deterministic=True, force_row_wise=True, n_jobs=1, random_state=SEED, verbose=-1,
    )  # fmt: skip
    model.fit(features, np.maximum(np.asarray(labels, dtype=np.int64), 0), group=list(groups),
              feature_name=list(names))  # fmt: skip
    return model.booster_.model_to_string()


def ranker_scores(model: str, features: np.ndarray) -> np.ndarray:
    """The model's score of each row of `features` (in the columns' order it was trained on)."""
    if len(features) == 0:
        return np.zeros(0)
    booster = lazylibs.lightgbm().Booster(model_str=model)
    return np.asarray(booster.predict(features, num_threads=1), dtype=np.float64)


def judgments(candidates: pa.Table, qrels: Mapping[str, Mapping[str, int]]) -> tuple[list[int], list[int]]:
    """Each candidate's judgment (0 where unjudged) and each topic's number of candidates, topics in row order."""
    topics, docs = candidates.column("topic").to_pylist(), candidates.column("doc").to_pylist()
    labels = [int(qrels.get(topic, {}).get(doc, 0)) for topic, doc in zip(topics, docs)]
    groups = [len(list(rows)) for _, rows in _runs(topics)]
    return labels, groups


def step_signature(candidates: pa.Table, trees: int = DEFAULTS["trees"], leaves: int = DEFAULTS["leaves"],
                   learning_rate: float = DEFAULTS["learning_rate"],
                   min_leaf: int = DEFAULTS["min_leaf"]) -> None:  # fmt: skip
    """The parameters a run's `{use: ltr}` step takes (its depth is the step's own), for the runs-file checks."""


step_signature.defaults = DEFAULTS
step_signature.ranges = RANGES


def _index_scores(index: Index, topics: list[str], docs: list[str],
                  query_terms: Mapping[str, Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Each candidate's BM25 and Dirichlet score over the whole index (0 where it holds no query term)."""
    column_of = {doc: column for column, doc in enumerate(index.doc_ids.to_pylist())}
    out = (np.zeros(len(docs)), np.zeros(len(docs)))
    for position, method in enumerate(("bm25", "dirichlet")):
        ranker = make_ranker(index, method, {})
        for topic, rows in _runs(topics):
            found, scores = ranker.score(ranker.term_ids(query_terms.get(topic, ())))
            score_of = dict(zip(found.tolist(), scores.tolist()))
            for row in rows:
                out[position][row] = score_of.get(column_of.get(docs[row], -1), 0.0)
    return out


def _idf(index: Index) -> Callable[[str], float]:
    """A term's idf in the index, Lucene's log(1 + (N − df + 0.5) / (df + 0.5)); a term it lacks has df 0."""
    documents = index.num_docs
    frequencies = index.document_frequencies

    def idf(term: str) -> float:
        found = index.vocabulary.ids([term])
        df = int(frequencies[found[0]]) if found else 0
        return math.log(1 + (documents - df + 0.5) / (df + 0.5))

    return idf


def _field_bm25(topics: list[str], field_terms: list[list[str]], query_terms: Mapping[str, Sequence[str]],
                idf: Callable[[str], float]) -> np.ndarray:  # fmt: skip
    """BM25 of each candidate's field for its topic's query, the average length over the topic's candidates."""
    out = np.zeros(len(topics))
    for topic, rows in _runs(topics):
        average = np.mean([len(field_terms[row]) for row in rows]) or 1.0
        weights = {term: idf(term) for term in set(query_terms.get(topic, ()))}
        for row in rows:
            counts, length = Counter(field_terms[row]), len(field_terms[row])
            norm = K1 * (1 - B + B * length / average)
            out[row] = sum(weight * counts[t] * (K1 + 1) / (counts[t] + norm) for t, weight in weights.items()
                           if counts[t])  # fmt: skip
    return out


def _coverage(query: Sequence[str], terms: Sequence[str]) -> float:
    distinct = set(query)
    return len(distinct & set(terms)) / len(distinct) if distinct else 0.0


def _runs(topics: list[str]) -> list[tuple[str, list[int]]]:
    """Each topic with its rows (a topic's rows are together), in row order."""
    runs: list[tuple[str, list[int]]] = []
    for row, topic in enumerate(topics):
        if not runs or runs[-1][0] != topic:
            runs.append((topic, []))
        runs[-1][1].append(row)
    return runs
