"""Learning to rank: a run's top re-scored by LightGBM's LambdaMART over features of each query and document, trained
on the judged topics a runs file names (never the ones it ranks); the `ltr` re-ranking step. A ridge-regularised
linear ranker over the same features is the other model `argrank steps-benchmark` chooses from.

The features (feature_names' order; the quality model's two last, where it is given) read each candidate's text and
its topic's query, and the per-topic ones its topic's other candidates, never the scores or order that the steps
before gave them, so a model trained on one ranking's candidates scores another's alike:

- first-stage scores: `bm25` and `dirichlet`, the document's BM25 (rank-bm25's defaults) and Dirichlet-smoothed
  query likelihood over the whole index, 0 where it holds no query term; `bm25_<field>`, BM25 of each indexed
  field alone, each term's idf from the index (Lucene's, never negative) and the field's average length over the
  candidates of the query;
- per-query normalised: `bm25_share`, BM25 over the largest BM25 among the topic's candidates; `bm25_rank`,
  1 / log2(1 + its rank by BM25 among them, ties sharing the best), the discount nDCG gives that place;
  `dirichlet_share`, the query likelihood scaled from the topic's lowest (0) to its highest (1) among the
  candidates holding a query term (0 for the others);
- query terms: `coverage`, the share of the query's distinct terms the text holds; `window`, for a text holding
  m ≥ 2 of them, m over the length of the smallest stretch of its terms that holds all m (1 when they stand
  together), else 0; `pairs`, the share of pairs of the query's distinct terms that occur within PAIR_SPAN terms of
  each other somewhere in the text (proximity: a text about the query keeps its words together);
- argumentativeness, each per word of the text, from small word lists of our own: `markers` (discourse markers:
  because, therefore, however …), `claims` (words that take a stance: should, must, wrong …) and `first_person`
  (I, my, we …, an author arguing in person); `words`, log(1 + the text's analysed terms);
- quality: `quality` and `argument`, the quality model's expected quality and P(argument) of the document.

Positions (`window`, `pairs`) count analysed terms, the words the index holds. LambdaMART's gain is the label
itself (trec_eval's nDCG), and its training deterministic (one thread, LightGBM's deterministic mode, a fixed
seed). The linear ranker (train_ranker given RIDGE, a penalty above 0) standardises each feature over the training
rows and fits the labels by ridge regression, a closed form: few parameters to learn where few topics are judged.
A judgment below 0 (Touché's -2 for spam) counts as 0, and an unjudged candidate as 0.
"""

from __future__ import annotations

import json
import math
import re
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

# The features before the per-field BM25s (`bm25_<field>`), and those after them.
BEFORE_FIELDS = ("bm25", "dirichlet")
AFTER_FIELDS = ("words", "coverage", "bm25_share", "bm25_rank", "dirichlet_share", "window", "pairs", "markers",
                "claims", "first_person")  # fmt: skip
QUALITY_FEATURES = ("quality", "argument")
DEFAULTS = {"trees": 100, "leaves": 15, "learning_rate": 0.1, "min_leaf": 5}  # the step's: LambdaMART's
RANGES = {
    "trees": Range(1, 5000, integer=True),
    "leaves": Range(2, 1024, integer=True),
    "learning_rate": Range(0, 1, low_open=True),
    "min_leaf": Range(1, integer=True),
}
MAX_GRADE = 30  # the highest judgment LambdaMART learns from (LightGBM's own table of gains ends there)
RIDGE = "ridge"  # train_ranker's parameter for the linear ranker: its penalty (not a runs-file parameter)
SEED = 0
K1, B = 1.2, 0.75  # the per-field BM25's parameters (rank-bm25's defaults)
PAIR_SPAN = 8  # `pairs`: two query terms this many analysed terms apart, or fewer, are near each other
LINEAR = "linear"  # the kind a linear ranker's model text names
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
MARKERS = frozenset(("because", "therefore", "thus", "hence", "however", "since", "consequently", "although",
                     "moreover", "furthermore", "whereas", "instead", "otherwise", "so"))  # fmt: skip
CLAIMS = frozenset(("should", "shouldn't", "must", "ought", "need", "needs", "cannot", "can't", "wrong", "right",
                    "better", "worse", "unfair", "fair"))  # fmt: skip
FIRST_PERSON = frozenset(("i", "i'm", "i've", "me", "my", "mine", "we", "us", "our", "ours"))


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
    return [*BEFORE_FIELDS, *(f"bm25_{field}" for field in fields), *AFTER_FIELDS,
            *(QUALITY_FEATURES if with_quality else ())]  # fmt: skip


def feature_matrix(candidates: pa.Table, query_terms: Mapping[str, Sequence[str]], index: Index,
                   analyze_many: Callable[[list[str]], Any], fields: Sequence[str],
                   quality: Quality | None = None) -> np.ndarray:  # fmt: skip
    """One row of features per candidate (a step's candidates table, retrieval.steps.candidates; a topic's rows
    together), in feature_names' order; `query_terms` are each topic's analysed query terms, `analyze_many` the
    analyzer's (a list of term lists, or an Arrow list column)."""

    def analyzed(texts: list[Any]) -> list[list[str]]:
        terms = analyze_many([str(text or "") for text in texts])
        return terms.to_pylist() if isinstance(terms, pa.Array) else list(terms)

    topics = candidates.column("topic").to_pylist()
    docs = candidates.column("doc").to_pylist()
    bm25, dirichlet, matched = _index_scores(index, topics, docs, query_terms)
    columns = [bm25, dirichlet]
    idf = _idf(index)
    for field in fields:
        texts = candidates.column(field).to_pylist() if field in candidates.column_names else [""] * len(docs)
        columns.append(_field_bm25(topics, analyzed(texts), query_terms, idf))
    texts = [str(text or "") for text in candidates.column("text").to_pylist()]
    text_terms = analyzed(texts)
    queries = [list(dict.fromkeys(query_terms.get(topic, ()))) for topic in topics]
    columns.append(np.log1p([len(terms) for terms in text_terms]))
    columns.append(np.array([_coverage(query, terms) for query, terms in zip(queries, text_terms)]))
    columns += [*_per_topic(topics, bm25, dirichlet, matched)]
    columns += [*np.array([_proximity(query, terms) for query, terms in zip(queries, text_terms)]).reshape(-1, 2).T]
    columns += [*np.array([_cues(text) for text in texts]).reshape(-1, 3).T]
    if quality is not None:
        columns.append(np.array([quality.expected[doc] for doc in docs]))
        columns.append(np.array([quality.argument[doc] for doc in docs]))
    return np.column_stack(columns) if docs else np.zeros((0, len(columns)))


def train_ranker(features: np.ndarray, labels: Sequence[int], groups: Sequence[int], names: Sequence[str],
                 params: Mapping[str, Any]) -> str:  # fmt: skip
    """A model of the rows' `features` and judgments (`groups`: each topic's number of rows, topics in row order)
    as text that loads without running code: given RIDGE (a penalty above 0), the linear ranker's (JSON), else
    LambdaMART's with `params` over DEFAULTS (LightGBM's model text)."""
    gains = np.maximum(np.asarray(labels, dtype=np.int64), 0)
    if RIDGE in params:
        return _linear(features, gains, float(params[RIDGE]), names)
    settings = {**DEFAULTS, **params}
    lightgbm = lazylibs.lightgbm()
    model = lightgbm.LGBMRanker(
        objective="lambdarank", n_estimators=int(settings["trees"]), num_leaves=int(settings["leaves"]),
        learning_rate=float(settings["learning_rate"]), min_child_samples=int(settings["min_leaf"]),
        label_gain=list(range(int(gains.max(initial=0)) + 1)), deterministic=True, force_row_wise=True, n_jobs=1,
        random_state=SEED, verbose=-1,
    )  # fmt: skip
    model.fit(features, gains, group=list(groups), feature_name=list(names))
    return model.booster_.model_to_string()


def ranker_scores(model: str, features: np.ndarray) -> np.ndarray:
    """The model's score of each row of `features` (in the columns' order it was trained on)."""
    if len(features) == 0:
        return np.zeros(0)
    if model.startswith("{"):
        linear = json.loads(model)
        standardised = (features - np.asarray(linear["means"])) / np.asarray(linear["scales"])
        return standardised @ np.asarray(linear["weights"], dtype=np.float64) + float(linear["intercept"])
    booster = lazylibs.lightgbm().Booster(model_str=model)
    return np.asarray(booster.predict(features, num_threads=1), dtype=np.float64)


def grade_problem(qrels: Mapping[str, Mapping[str, int]]) -> str | None:
    """What is wrong with judgments the ltr step learns from (a grade above MAX_GRADE: its gain, 2**grade or the
    grade itself, would dwarf every other), or None."""
    for topic, by_doc in qrels.items():
        for doc, grade in by_doc.items():
            if int(grade) > MAX_GRADE:
                return (f"topic {topic}, document {doc}: grade {int(grade):,}: the ltr step learns from grades up to "
                        f"{MAX_GRADE}")  # fmt: skip
    return None


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


def _linear(features: np.ndarray, gains: np.ndarray, ridge: float, names: Sequence[str]) -> str:
    """The linear ranker (module docstring) as JSON: each feature's mean and scale over the rows, its weight, and
    the intercept. A feature constant over the rows has scale 1 and weight 0."""
    means = features.mean(axis=0) if len(features) else np.zeros(features.shape[1])
    scales = features.std(axis=0) if len(features) else np.ones(features.shape[1])
    scales = np.where(scales > 0, scales, 1.0)
    standardised = (features - means) / scales
    intercept = float(gains.mean()) if len(gains) else 0.0
    penalised = standardised.T @ standardised + ridge * np.eye(features.shape[1])
    weights = np.linalg.solve(penalised, standardised.T @ (gains - intercept))
    return json.dumps({"kind": LINEAR, "features": list(names), "means": means.tolist(), "scales": scales.tolist(),
                       "weights": weights.tolist(), "intercept": intercept})


def _index_scores(index: Index, topics: list[str], docs: list[str],
                  query_terms: Mapping[str, Sequence[str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Each candidate's BM25 and Dirichlet score over the whole index (0 where it holds no query term), and whether
    it holds one."""
    column_of = {doc: column for column, doc in enumerate(index.doc_ids.to_pylist())}
    out = (np.zeros(len(docs)), np.zeros(len(docs)))
    matched = np.zeros(len(docs), dtype=bool)
    for position, method in enumerate(("bm25", "dirichlet")):
        ranker = make_ranker(index, method, {})
        for topic, rows in _runs(topics):
            found, scores = ranker.score(ranker.term_ids(query_terms.get(topic, ())))
            score_of = dict(zip(found.tolist(), scores.tolist()))
            for row in rows:
                column = column_of.get(docs[row], -1)
                out[position][row] = score_of.get(column, 0.0)
                matched[row] = column in score_of
    return (*out, matched)


def _per_topic(topics: list[str], bm25: np.ndarray, dirichlet: np.ndarray,
               matched: np.ndarray) -> tuple[np.ndarray, ...]:  # fmt: skip
    """`bm25_share`, `bm25_rank` and `dirichlet_share` (module docstring) of each candidate among its topic's; the
    likelihood is scaled over the candidates holding a query term (`matched`), the others' 0."""
    share, rank, scaled = np.zeros(len(topics)), np.zeros(len(topics)), np.zeros(len(topics))
    for _, rows in _runs(topics):
        scores = bm25[rows]
        best = scores.max()
        share[rows] = scores / best if best > 0 else 0.0
        places = 1 + (scores[None, :] > scores[:, None]).sum(axis=1)  # 1 + the candidates scoring higher
        rank[rows] = 1 / np.log2(1 + places)
        held = np.asarray(rows)[matched[rows]]
        if len(held):
            low, high = dirichlet[held].min(), dirichlet[held].max()
            scaled[held] = (dirichlet[held] - low) / (high - low) if high > low else 0.0
    return share, rank, scaled


def _proximity(query: Sequence[str], terms: Sequence[str]) -> tuple[float, float]:
    """`window` and `pairs` (module docstring) of a text's analysed `terms` for the query's distinct terms."""
    positions: dict[str, list[int]] = {}
    for position, term in enumerate(terms):
        if term in query:
            positions.setdefault(term, []).append(position)
    found = len(positions)
    window = found / _smallest_window(terms, positions) if found >= 2 else 0.0
    pairs = [(a, b) for i, a in enumerate(query) for b in query[i + 1 :]]
    near = sum(a in positions and b in positions and _nearest(positions[a], positions[b]) <= PAIR_SPAN
               for a, b in pairs)  # fmt: skip
    return window, near / len(pairs) if pairs else 0.0


def _smallest_window(terms: Sequence[str], positions: Mapping[str, list[int]]) -> int:
    """The length of the shortest stretch of `terms` holding every term of `positions` (a sliding window)."""
    hits = sorted((position, term) for term, found in positions.items() for position in found)
    held: Counter[str] = Counter()
    best, start = len(terms), 0
    for position, term in hits:
        held[term] += 1
        while len(held) == len(positions):
            first, first_term = hits[start]
            best = min(best, position - first + 1)
            held[first_term] -= 1
            if not held[first_term]:
                del held[first_term]
            start += 1
    return best


def _nearest(first: list[int], second: list[int]) -> int:
    """The smallest distance between a position in `first` and one in `second` (both ascending)."""
    i = j = 0
    best = math.inf
    while i < len(first) and j < len(second):
        best = min(best, abs(first[i] - second[j]))
        if first[i] < second[j]:
            i += 1
        else:
            j += 1
    return int(best)


def _cues(text: str) -> tuple[float, float, float]:
    """`markers`, `claims` and `first_person`: each word list's share of the text's words."""
    words = _WORD.findall(text.lower())
    count = len(words) or 1
    return (sum(word in MARKERS for word in words) / count, sum(word in CLAIMS for word in words) / count,
            sum(word in FIRST_PERSON for word in words) / count)  # fmt: skip


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
