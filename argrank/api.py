"""The evaluation, the comparison and fusion for notebooks: `argrank.evaluate` and `argrank.compare`, as
PyTerrier's `Experiment` offers them, `argrank.to_latex` and `argrank.to_markdown` for a comparison's paper table,
and `argrank.fuse` and `argrank.tune_fusion`, as `argrank fuse` does; tables are Arrow tables (`.to_pandas()`
gives a DataFrame where pandas is installed).

A run is a TREC run file's path, a mapping topic → document → score (ir_measures' dict form), or a table with a
topic, a document and a score column (a pandas DataFrame or an Arrow table; PyTerrier's `qid`/`docno`/`score` or
ir_measures' `query_id`/`doc_id`/`score`). Judgments are a qrels file in the track's format, a mapping topic →
document → label, or a table with `qid`/`query_id`, `docno`/`doc_id` and `label`/`relevance`. Measures are named
as on the command line (ir_measures' or trec_eval's names); the scores are the ones `argrank evaluate` and
`argrank compare` print for the same inputs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from argrank.evaluation.comparison import (
    PER_QUERY_COLUMNS,
    SUMMARY_COLUMNS,
    Comparison,
    Significance,
    per_query_rows,
)
from argrank.evaluation.comparison import compare as compare_runs
from argrank.evaluation.fusion import fuse as fuse_runs
from argrank.evaluation.fusion import ranked as ranked_run
from argrank.evaluation.fusion_tuning import tuned
from argrank.evaluation.names import ALPHA, HOLM, PERMUTATIONS, T_TEST
from argrank.evaluation.paper_table import PaperTable, latex, markdown, paper_table
from argrank.evaluation.ranking import DEPTH
from argrank.formats.runfile import RunLine, read_run
from argrank.tracks.registry import track as registered
from argrank.tracks.track import RankingTrack, Track

TOPIC_COLUMNS = ("qid", "query_id", "topic")
DOCUMENT_COLUMNS = ("docno", "doc_id", "doc")
LABEL_COLUMNS = ("label", "relevance")
COMPARISONS = b"argrank.comparisons"  # compare's result keeps the comparisons (JSON) in its schema's metadata


def evaluate(
    run: Any, qrels: Any, measures: Iterable[str] | None = None, *, track: str = "args", depth: int = DEPTH,
    perquery: bool = False,
) -> Any:  # fmt: skip
    """The run's mean per measure (columns measure, value), or with `perquery` its score per topic and measure
    (topic, measure, value). Without `measures`, the track's defaults at cut-off `depth` (nDCG@5, Judged@5 and
    the judged-only nDCG@5 for args and comparative). Every judged topic counts, 0 where the run lacks it."""
    import pyarrow as pa

    scores = _score(registered(track), _run_lines(run), _judgments(qrels, track), measures, depth)
    if perquery:
        rows = [{key: row[key] for key in PER_QUERY_COLUMNS[1:]} for row in per_query_rows({"": scores.per_topic})]
        return pa.Table.from_pylist(rows, schema=_schema(PER_QUERY_COLUMNS[1:]))
    rows = [{"measure": name, "value": value} for name, value in scores.means.items()]
    return pa.Table.from_pylist(rows, schema=_schema(("measure", "value")))


def compare(
    runs: Mapping[str, Any] | list[Any], qrels: Any, measures: Iterable[str] | None = None, *,
    baseline: str | list[str] | None = None, names: list[str] | None = None, track: str = "args", depth: int = DEPTH,
    test: str = T_TEST, correction: str = HOLM, alpha: float = ALPHA, permutations: int = PERMUTATIONS,
    seed: int = 0, perquery: bool = False,
) -> Any:  # fmt: skip
    """Runs against `baseline` (a name or a list of names; default the first run), one row per run and measure:
    mean, difference, raw and corrected p-value of `test` ("t", "wilcoxon", "fisher" with `permutations` sign
    flips from `seed`, or "tukey"), whether it rejects at `alpha`, and wins/ties/losses over topics
    (comparison.SUMMARY_COLUMNS; with several baselines an `against` column first). `to_latex` and `to_markdown`
    write the result as a paper's table. With `perquery`, the per-topic scores in long format (run, topic,
    measure, value). `runs` maps names to runs, or lists them (named by `names`, else a file's stem, else run_1,
    run_2, …)."""
    import pyarrow as pa

    named = _named_runs(runs, names)
    ranked, judged = registered(track), _judgments(qrels, track)
    per_topic, scored_names = {}, []
    for name, run in named.items():
        scores = _score(ranked, _run_lines(run), judged, measures, depth)
        per_topic[name], scored_names = scores.per_topic, scores.measures
    if perquery:
        return pa.Table.from_pylist(per_query_rows(per_topic), schema=_schema(PER_QUERY_COLUMNS))
    chosen = [baseline] if isinstance(baseline, str) else list(baseline or [next(iter(named))])
    significance = Significance(test, correction, alpha, permutations, seed)
    comparisons = [compare_runs(track, "qrels", per_topic, one, scored_names, significance) for one in chosen]
    columns = (("against",) if len(chosen) > 1 else ()) + SUMMARY_COLUMNS
    rows = [{"against": c.baseline, **row} for c in comparisons for row in c.summary_rows()]
    saved = json.dumps([c.to_json() for c in comparisons]).encode("utf-8")
    return pa.Table.from_pylist(rows, schema=_schema(columns).with_metadata({COMPARISONS: saved}))


def to_latex(comparison: Any, label: str = "tab:results") -> str:
    """`compare`'s result as a LaTeX table (booktabs; evaluation.paper_table): the best value per measure in bold,
    superscript letters for significant improvements, a caption naming the test, correction and alpha."""
    return latex(_paper_table(comparison), label)


def to_markdown(comparison: Any) -> str:
    """`compare`'s result as the same table in Markdown."""
    return markdown(_paper_table(comparison))


def _paper_table(comparison: Any) -> PaperTable:
    metadata = getattr(getattr(comparison, "schema", None), "metadata", None) or {}
    if COMPARISONS not in metadata:
        raise ValueError("expected the table argrank.compare returned (without perquery)")
    return paper_table([Comparison.from_json(data) for data in json.loads(metadata[COMPARISONS])])


def fuse(runs: Mapping[str, Any] | list[Any], method: str = "combsum", norm: str = "min-max",
         params: Mapping[str, Any] | None = None, *, depth: int = 1000, names: list[str] | None = None) -> Any:  # fmt: skip
    """The runs fused by `method` after `norm` (evaluation.fusion: ranx's methods and normalisations), each topic's
    best `depth`: a table (topic, doc, rank, score). `params`: rrf's `k`, wsum's and wmnz's `weights`."""
    import pyarrow as pa

    named = _named_runs(runs, names)
    fused = fuse_runs([ranked_run(_run_lines(run)) for run in named.values()], method, norm, params, depth)
    rows = [{"topic": topic, "doc": doc, "rank": rank, "score": score} for topic, docs in fused.items()
            for rank, (doc, score) in enumerate(docs, start=1)]  # fmt: skip
    return pa.Table.from_pylist(rows, schema=pa.schema([("topic", pa.string()), ("doc", pa.string()),
                                                        ("rank", pa.int64()), ("score", pa.float64())]))  # fmt: skip


def tune_fusion(runs: Mapping[str, Any] | list[Any], qrels: Any, measure: str = "nDCG@5", method: str = "wsum",
                norm: str = "min-max", *, cv: int = 5, seed: int = 0, track: str = "args", depth: int = 1000,
                names: list[str] | None = None) -> dict[str, Any]:  # fmt: skip
    """What `argrank fuse --optimize` reports (evaluation.fusion_tuning.tuned): the weights or k chosen on the
    judged topics, `cv_mean` over `cv` folds (each scored with what the others chose), `best_single` and its
    `best_single_mean`, and each fold's choice."""
    named = _named_runs(runs, names)
    lists = [ranked_run(_run_lines(run)) for run in named.values()]
    return tuned(lists, list(named), _judgments(qrels, track), method, norm, measure, cv, seed, depth)


def _score(ranked: Track, lines: list[RunLine], judged: Any, measures: Iterable[str] | None, depth: int) -> Any:
    if not isinstance(ranked, RankingTrack):
        raise ValueError(f"track {ranked.name!r} does not rank with TREC runs; evaluate it with its own command")
    return ranked.score(lines, judged, list(measures) if measures else None, depth, None)


def _named_runs(runs: Mapping[str, Any] | list[Any], names: list[str] | None) -> dict[str, Any]:
    if isinstance(runs, Mapping):
        named = {str(name): run for name, run in runs.items()}
    else:
        if names is not None and len(names) != len(runs):
            raise ValueError(f"{len(names)} names for {len(runs)} runs")
        given = names or [Path(run).stem if isinstance(run, str | Path) else f"run_{i}" for i, run in
                          enumerate(runs, start=1)]  # fmt: skip
        if len(set(given)) != len(given):
            raise ValueError(f"two runs share a name ({', '.join(given)}): pass names=")
        named = dict(zip(given, runs))
    if not named:
        raise ValueError("no run to compare")
    return named


def _run_lines(run: Any) -> list[RunLine]:
    """The run as RunLines, ranked by score (ties by document id), whatever form it came in."""
    if isinstance(run, str | Path):
        return read_run(run)
    if isinstance(run, Mapping):
        triples = [(str(topic), str(doc), float(score)) for topic, docs in run.items() for doc, score in docs.items()]
    else:
        columns = _columns(run)
        triples = list(zip(*(map(str, _column(columns, TOPIC_COLUMNS, "topic")),
                             map(str, _column(columns, DOCUMENT_COLUMNS, "document")),
                             map(float, _column(columns, ("score",), "score")))))  # fmt: skip
    lines, rank = [], {}
    for topic, doc, score in sorted(triples, key=lambda t: (t[0], -t[2], t[1])):
        rank[topic] = rank.get(topic, 0) + 1
        lines.append(RunLine(topic, "Q0", doc, rank[topic], score, "api"))
    return lines


def _judgments(qrels: Any, track: str) -> Any:
    """The judgments as the track scores them: a file read by the track's reader, else topic → doc → label."""
    if isinstance(qrels, str | Path):
        return registered(track).read_qrels(qrels)
    if isinstance(qrels, Mapping):
        pairs = [(str(t), str(d), float(label)) for t, docs in qrels.items() for d, label in docs.items()]
    else:
        columns = _columns(qrels)
        pairs = list(zip(map(str, _column(columns, TOPIC_COLUMNS, "topic")),
                         map(str, _column(columns, DOCUMENT_COLUMNS, "document")),
                         map(float, _column(columns, LABEL_COLUMNS, "label"))))  # fmt: skip
    judged: dict[str, dict[str, float]] = {}
    for topic, doc, label in pairs:
        judged.setdefault(topic, {})[doc] = label
    return judged


def _columns(table: Any) -> dict[str, list]:
    """A pandas DataFrame's or an Arrow table's columns as lists."""
    if hasattr(table, "column_names") and hasattr(table, "column"):
        return {name: table.column(name).to_pylist() for name in table.column_names}
    if hasattr(table, "columns") and hasattr(table, "to_dict"):
        return {str(name): table[name].tolist() for name in table.columns}
    raise TypeError(f"expected a path, a mapping or a table (pandas or Arrow), got {type(table).__name__}")


def _column(columns: dict[str, list], accepted: tuple[str, ...], what: str) -> list:
    for name in accepted:
        if name in columns:
            return columns[name]
    raise ValueError(f"no {what} column: expected one of {', '.join(accepted)} (columns: {', '.join(columns)})")


def _schema(columns: Iterable[str]) -> Any:
    """The Arrow types of the result columns, so an empty or all-None column keeps its type."""
    import pyarrow as pa

    types = {"run": pa.string(), "against": pa.string(), "topic": pa.string(), "measure": pa.string(), "value": pa.float64(),
             "baseline": pa.bool_(), "mean": pa.float64(), "difference": pa.float64(), "p": pa.float64(),
             "p_corrected": pa.float64(), "reject": pa.bool_(), "wins": pa.int64(), "ties": pa.int64(),
             "losses": pa.int64()}  # fmt: skip
    return pa.schema([(name, types[name]) for name in columns])
