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

import dataclasses
import json
import warnings
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
from argrank.evaluation.fusion import carried_stances, fused_lines, method_params, stated_stances
from argrank.evaluation.fusion import fuse as fuse_runs
from argrank.evaluation.fusion import ranked as ranked_run
from argrank.evaluation.fusion_tuning import tuned
from argrank.evaluation.names import ALPHA, BASELINE_PAIRS, DECIMALS, HOLM, PERMUTATIONS, T_TEST
from argrank.evaluation.paper_table import PaperTable, latex, markdown, paper_table
from argrank.evaluation.ranking import DEPTH
from argrank.evaluation.reproducibility import TopRanked, against_reference, undefined_note
from argrank.evaluation.results import JUDGED_TOPICS, StanceF1, TopicScores
from argrank.evaluation.standings import (
    STANDINGS_COLUMNS,
    Standings,
    participant_files,
    standings,
    standings_latex,
    standings_markdown,
    standings_rows,
)
from argrank.formats.run_names import refuse_shared, run_names
from argrank.formats.runfile import Q0, RunLine, read_run
from argrank.formats.runfile import write_run as write_run_file
from argrank.formats.topics import topic_order
from argrank.formats.validation import check_lines
from argrank.tracks.registry import track as registered
from argrank.tracks.track import RankingTrack, Track

TOPIC_COLUMNS = ("qid", "query_id", "topic")
DOCUMENT_COLUMNS = ("docno", "doc_id", "doc")
LABEL_COLUMNS = ("label", "relevance")
COMPARISONS = b"argrank.comparisons"  # compare's result keeps the comparisons (JSON) in its schema's metadata
STANDINGS = b"argrank.standings"  # participants' result keeps the standings (JSON) in its schema's metadata
REPRODUCIBILITY_COLUMNS = ("run", "measure", "ktu", "rbo", "rmse", "er", "delta_ri")


def evaluate(
    run: Any, qrels: Any, measures: Iterable[str] | None = None, *, track: str = "args", depth: int = DEPTH,
    perquery: bool = False, average: str = JUDGED_TOPICS, stance_qrels: Any = None,
) -> Any:  # fmt: skip
    """The run's mean per measure (columns measure, value), or with `perquery` its score per topic and measure
    (topic, measure, value). Without `measures`, the track's defaults at cut-off `depth` (nDCG@5, Judged@5 and
    the judged-only nDCG@5 for args and comparative). `average`: every judged topic counts, 0 where the run lacks
    it ("judged-topics", Touché's evaluation), or only those it has ("run-topics"); judged topics the run lacks are
    reported in a warning. With `stance_qrels` (comparative), rows stance_f1 and stance_pairs (the whole run's
    macro-F1 over the judged pairs, as the organisers compute it). `qrels` may be None where only stance is asked."""
    import pyarrow as pa

    ranked, lines = registered(track), _run_lines(run)
    rows: list[dict[str, Any]] = []
    if qrels is not None:
        scores = _score(ranked, lines, _judgments(qrels, track), measures, depth, average)
        _warn_missing(_name_of(run), scores)
        if perquery:
            rows = [{key: row[key] for key in PER_QUERY_COLUMNS[1:]} for row in per_query_rows({"": scores.per_topic})]
            return pa.Table.from_pylist(rows, schema=_schema(PER_QUERY_COLUMNS[1:]))
        rows = [{"measure": name, "value": value} for name, value in scores.means.items()]
    elif stance_qrels is None:
        raise ValueError("give qrels, stance_qrels or both")
    if stance_qrels is not None:
        result = _stance(ranked, lines, stance_qrels)
        rows += [{"measure": "stance_f1", "value": result.macro}, {"measure": "stance_pairs", "value": result.pairs}]
    return pa.Table.from_pylist(rows, schema=_schema(("measure", "value")))


def compare(
    runs: Mapping[str, Any] | list[Any], qrels: Any, measures: Iterable[str] | None = None, *,
    baseline: str | list[str] | None = None, names: list[str] | None = None, track: str = "args", depth: int = DEPTH,
    test: str = T_TEST, correction: str = HOLM, alpha: float = ALPHA, permutations: int = PERMUTATIONS,
    seed: int = 0, perquery: bool = False, stance_qrels: Any = None, pairs: str = BASELINE_PAIRS,
) -> Any:  # fmt: skip
    """Runs against `baseline` (a name or a list of names; default the first run), one row per run and measure:
    mean, difference, raw and corrected p-value of `test` ("t", "wilcoxon", "fisher" with `permutations` sign
    flips from `seed`, or "tukey"), corrected by `correction` ("holm", "bonferroni" or "none"), whether it rejects
    at `alpha`, and wins/ties/losses over topics; `pairs="all"` also tests every pair of runs (the paper table's
    letters then mark every pair, as ranx's)
    (comparison.SUMMARY_COLUMNS; with several baselines an `against` column first). `to_latex` and `to_markdown`
    write the result as a paper's table. With `perquery`, the per-topic scores in long format (run, topic,
    measure, value). `runs` maps names to runs, or lists them (named by `names`, else as the command line names
    run files: formats.run_names, else run_1, run_2, …). With `stance_qrels` (comparative), each run's stance
    macro-F1 as a mean-only row. Every run is scored on every judged topic, 0 where it lacks one (a warning says
    which)."""
    import pyarrow as pa

    named = _named_runs(runs, names)
    per_topic, scored_names, pooled = _scored(named, qrels, measures, track, depth, stance_qrels)
    if perquery:
        return pa.Table.from_pylist(per_query_rows(per_topic), schema=_schema(PER_QUERY_COLUMNS))
    chosen = [baseline] if isinstance(baseline, str) else list(baseline or [next(iter(named))])
    significance = Significance(test, correction, alpha, permutations, seed, pairs)
    comparisons = [compare_runs(track, "qrels", per_topic, one, scored_names, significance, pooled) for one in chosen]
    columns = (("against",) if len(chosen) > 1 else ()) + SUMMARY_COLUMNS
    rows = [{"against": c.baseline, **row} for c in comparisons for row in c.summary_rows()]
    saved = json.dumps([c.to_json() for c in comparisons]).encode("utf-8")
    return pa.Table.from_pylist(rows, schema=_schema(columns).with_metadata({COMPARISONS: saved}))


def reproducibility(
    runs: Mapping[str, Any] | list[Any], reference: Any, qrels: Any, measures: Iterable[str] | None = None, *,
    baseline: str | None = None, reference_baseline: Any = None, names: list[str] | None = None, track: str = "args",
    depth: int = DEPTH,
) -> Any:  # fmt: skip
    """How closely each run but `baseline` (default the first) reproduces `reference`, the published run, as `argrank
    compare --reference` reports it (evaluation.reproducibility, repro_eval's measures): one row per run and
    measure with ktu and rbo (the run's, on every row), rmse, er and delta_ri; the effects are the runs' over
    `baseline` and the reference's over `reference_baseline` (default: `baseline` too)."""
    import pyarrow as pa

    named = _named_runs(runs, names)
    ranked, judged = registered(track), _judgments(qrels, track)
    scored = {name: _score(ranked, _run_lines(run), judged, measures, depth) for name, run in named.items()}
    base = baseline if baseline is not None else next(iter(named))
    if base not in named:
        raise ValueError(f"no run named {base!r} to take the effects over (runs: {', '.join(named)})")
    reference_lines = _run_lines(reference)
    reference_scores = _score(ranked, reference_lines, judged, measures, depth).per_topic
    reference_base = (_score(ranked, _run_lines(reference_baseline), judged, measures, depth).per_topic
                      if reference_baseline is not None else scored[base].per_topic)  # fmt: skip
    names_scored = scored[base].measures
    others = {name: _top_ranked(_run_lines(named[name])) for name in named if name != base}
    result = against_reference(_top_ranked(reference_lines), reference_scores, reference_base, others,
                               {name: scores.per_topic for name, scores in scored.items()}, scored[base].per_topic,
                               names_scored)  # fmt: skip
    note = undefined_note("given", result)
    if note:
        warnings.warn(note, stacklevel=2)
    rows = [{"run": name, "measure": measure, "ktu": figures["ktu"], "rbo": figures["rbo"],
             **{key: figures[key][measure] for key in REPRODUCIBILITY_COLUMNS[4:]}}
            for name, figures in result.items() for measure in names_scored]  # fmt: skip
    return pa.Table.from_pylist(rows, schema=_schema(REPRODUCIBILITY_COLUMNS))


def write_run(run: Any, path: str | Path, tag: str = "argrank", *, track: str = "args", depth: int = 1000) -> int:
    """Write `run` (any form `evaluate` takes; a table may carry a `stance` column, column 2 of a Task 2 run) as a
    TREC run file under `tag`, each topic's best `depth` ranked from 1 by score (ties by document id), checked
    against the track's submission rules before it is written, atomically; returns the number of lines. A run
    breaking a rule raises InputError naming the line."""
    track_rules = registered(track)
    if not isinstance(track_rules, RankingTrack):
        raise ValueError(f"track {track!r} does not rank with TREC runs")
    lines = [RunLine(line.qid, line.q0, line.doc, line.rank, line.score, tag) for line in _run_lines(run)
             if line.rank <= depth]  # fmt: skip
    rules = dataclasses.replace(track_rules.run_rules, max_per_list=depth)
    count = check_lines(path, enumerate(lines, start=1), rules)
    write_run_file(path, lines)
    return count


def participants(
    runs: Mapping[str, Any] | list[Any], folder: str | Path, qrels: Any, measures: Iterable[str] | None = None, *,
    names: list[str] | None = None, track: str = "args", depth: int = DEPTH, stance_qrels: Any = None,
    test: str = T_TEST, correction: str = HOLM, alpha: float = ALPHA, permutations: int = PERMUTATIONS, seed: int = 0,
) -> Any:  # fmt: skip
    """Where your runs would have stood among a year's published runs in `folder` (the organizers' layout
    runs/TEAM/output/runN.txt, or a flat folder; other files skipped with a warning), as `argrank compare
    --participants` places them (evaluation.standings): rows of rank, run, ours, measure, mean and its t interval,
    and per participant's run your run's difference from it, raw and corrected p-value, reject and wins/ties/losses
    (one row per run, measure and run of yours tested against it). Ranked by the first measure; with
    `stance_qrels` (comparative) each run's stance F1 beside, untested. `to_latex` and `to_markdown` write it."""
    import pyarrow as pa

    named = _named_runs(runs, names)
    found = participant_files(Path(folder), list(named))
    for note in found.notes(Path(folder)):
        warnings.warn(note, stacklevel=2)
    per_topic, scored_names, pooled = _scored({**named, **found.runs}, qrels, measures, track, depth, stance_qrels)
    significance = Significance(test, correction, alpha, permutations, seed)
    result = standings(track, "qrels", per_topic, list(named), scored_names, significance, pooled=pooled)
    saved = json.dumps(result.to_json()).encode("utf-8")
    return pa.Table.from_pylist(standings_rows(result), schema=_schema(STANDINGS_COLUMNS).with_metadata(
        {STANDINGS: saved}))  # fmt: skip


def to_latex(table: Any, label: str = "tab:results", decimals: int = DECIMALS) -> str:
    """`compare`'s or `participants`' result as a LaTeX table (booktabs; evaluation.paper_table): the best value per
    measure in bold, superscript letters (or a dagger) for significant differences, a caption saying how they were
    tested and what the marks mean; `decimals` per figure."""
    standing = _standings(table)
    if standing is not None:
        return standings_latex(standing, label, decimals)
    return latex(_paper_table(table), label, decimals)


def to_markdown(table: Any, decimals: int = DECIMALS) -> str:
    """`compare`'s or `participants`' result as the same table in Markdown."""
    standing = _standings(table)
    return standings_markdown(standing, decimals) if standing is not None else markdown(_paper_table(table), decimals)


def _metadata(table: Any) -> dict:
    return getattr(getattr(table, "schema", None), "metadata", None) or {}


def _standings(table: Any) -> Standings | None:
    """The standings `participants` returned, kept in its table's metadata; None for another table."""
    saved = _metadata(table).get(STANDINGS)
    return None if saved is None else Standings.from_json(json.loads(saved))


def _paper_table(comparison: Any) -> PaperTable:
    metadata = _metadata(comparison)
    if COMPARISONS not in metadata:
        raise ValueError("expected the table argrank.compare returned (without perquery), or argrank.participants'")
    return paper_table([Comparison.from_json(data) for data in json.loads(metadata[COMPARISONS])])


def fuse(runs: Mapping[str, Any] | list[Any], method: str = "combsum", norm: str = "min-max",
         params: Mapping[str, Any] | None = None, *, depth: int = 1000, names: list[str] | None = None) -> Any:  # fmt: skip
    """The runs fused by `method` after `norm` (evaluation.fusion: ranx's methods and normalisations), each topic's
    best `depth`: a table (topic, doc, rank, score), and `stance` where members carry stance (column 2 of a Task 2
    run file, or a table's `stance` column), voted as `argrank fuse` votes it. `params`: rrf's `k`, wsum's and
    wmnz's `weights`."""
    import pyarrow as pa

    lines = [_run_lines(run) for run in _named_runs(runs, names).values()]
    members = [ranked_run(run) for run in lines]
    fused = fuse_runs(members, method, norm, params, depth)
    stances = [stated_stances(run) for run in lines]
    columns = [("topic", pa.string()), ("doc", pa.string()), ("rank", pa.int64()), ("score", pa.float64())]
    carried = None
    if any(stance is not None for stance in stances):
        carried, _ = carried_stances(fused, stances, members, method_params(method, params, len(lines)).get("weights"))
        columns.append(("stance", pa.string()))
    rows = [{"topic": line.qid, "doc": line.doc, "rank": line.rank, "score": line.score, "stance": line.q0}
            for line in fused_lines(fused, "api", carried)]  # fmt: skip
    return pa.Table.from_pylist(rows, schema=pa.schema(columns))


def tune_fusion(runs: Mapping[str, Any] | list[Any], qrels: Any, measure: str = "nDCG@5", method: str = "wsum",
                norm: str = "min-max", *, cv: int = 5, seed: int = 0, track: str = "args", depth: int = 1000,
                names: list[str] | None = None, repeats: int = 1) -> dict[str, Any]:  # fmt: skip
    """What `argrank fuse --optimize` reports (evaluation.fusion_tuning.tuned): the fusion chosen on the judged
    topics (`chosen_method`, its `members`, its parameters `chosen`; method "auto" chooses the fusion too, never
    scoring below any run alone there), `cv_mean` over `cv` folds (each scored with what the others chose, in inner
    folds of their own) beside `cv_inner_mean`, `cv_spread` and `cv_best_single_mean` (the single run each training
    part picks), each fold's choice, `best_single`, the runs' `names` and, for weights, `weights_by_run`; runs
    named as `argrank fuse` names them. `repeats` > 1 adds `cv_repeats`: the same over that many seeds from `seed`."""
    named = _named_runs(runs, names)
    lists = [ranked_run(_run_lines(run)) for run in named.values()]
    return tuned(lists, list(named), _judgments(qrels, track), method, norm, measure, cv, seed, depth, repeats)


def _score(ranked: Track, lines: list[RunLine], judged: Any, measures: Iterable[str] | None, depth: int,
           average: str = JUDGED_TOPICS) -> Any:  # fmt: skip
    if not isinstance(ranked, RankingTrack):
        raise ValueError(f"track {ranked.name!r} does not rank with TREC runs; evaluate it with its own command")
    return ranked.score(lines, judged, list(measures) if measures else None, depth, average)


def _scored(named: Mapping[str, Any], qrels: Any, measures: Iterable[str] | None, track: str, depth: int,
            stance_qrels: Any) -> tuple[dict, list[str], dict]:  # fmt: skip
    """Each run's per-topic scores on every judged topic (a warning names those it lacks), the measures' names, and
    with `stance_qrels` each run's stance F1 (name → {"stance_f1": …})."""
    ranked, judged = registered(track), _judgments(qrels, track)
    per_topic, scored_names, pooled = {}, [], {}
    for name, run in named.items():
        lines = _run_lines(run)
        scores = _score(ranked, lines, judged, measures, depth)
        _warn_missing(name, scores)
        per_topic[name], scored_names = scores.per_topic, scores.measures
        if stance_qrels is not None:
            pooled[name] = {"stance_f1": _stance(ranked, lines, stance_qrels).macro}
    return per_topic, scored_names, pooled


def _warn_missing(name: str, scores: TopicScores) -> None:
    """A warning naming the judged topics a run lacks and how its means treat them: a notebook shows it."""
    if scores.missing:
        shown = ", ".join(scores.missing[:10]) + (" …" if len(scores.missing) > 10 else "")
        warnings.warn(f"{name}: {scores.missing_note}: {shown}", stacklevel=3)


def _stance(ranked: Track, lines: list[RunLine], stance_qrels: Any) -> StanceF1:
    """The run's stance macro-F1 against stance judgments (a file, or topic → document → label)."""
    stance = getattr(ranked, "stance_judgments", None)
    if stance is None:
        raise ValueError(f"track {ranked.name!r} has no stance judgments")
    judged = stance.read(stance_qrels) if isinstance(stance_qrels, str | Path) else stance_qrels
    return stance.evaluate(lines, judged)


def _top_ranked(lines: list[RunLine]) -> dict[str, list[str]]:
    """Each topic's top documents, as the reproducibility measures read them."""
    top = TopRanked()
    for line in lines:
        top(line)
    return top.ranking()


def _named_runs(runs: Mapping[str, Any] | list[Any], names: list[str] | None) -> dict[str, Any]:
    """Name → run: a mapping's keys, else `names`, else run files named as the command line names them
    (formats.run_names) and other runs run_1, run_2, …; ValueError where two would share a name."""
    if isinstance(runs, Mapping):
        named = {str(name): run for name, run in runs.items()}
    elif names is not None:
        if len(names) != len(runs):
            raise ValueError(f"{len(names)} names for {len(runs)} runs")
        refuse_shared(list(zip(names, (_name_of(run, i) for i, run in enumerate(runs, start=1)))))
        named = dict(zip(names, runs))
    else:
        files = [run for run in runs if isinstance(run, str | Path)]
        by_file = iter(run_names(files))
        given = [next(by_file) if isinstance(run, str | Path) else f"run_{i}" for i, run in enumerate(runs, start=1)]
        refuse_shared(list(zip(given, (_name_of(run, i) for i, run in enumerate(runs, start=1)))))
        named = dict(zip(given, runs))
    if not named:
        raise ValueError("no run to compare")
    return named


def _name_of(run: Any, number: int = 1) -> str:
    """What a run is called in a message: its file, else run_<number>."""
    return str(run) if isinstance(run, str | Path) else f"run_{number}"


def _run_lines(run: Any) -> list[RunLine]:
    """The run as RunLines, each topic's documents ranked from 1 by score (ties by document id), topics in order,
    whatever form it came in; column 2 is a run file's, or a table's `stance` column, else Q0."""
    if isinstance(run, str | Path):
        rows = [(line.qid, line.q0, line.doc, line.score) for line in read_run(run)]
    elif isinstance(run, Mapping):
        rows = [(str(topic), Q0, str(doc), float(score)) for topic, docs in run.items() for doc, score in docs.items()]
    else:
        columns = _columns(run)
        stance = columns.get("stance") or [Q0] * len(_column(columns, ("score",), "score"))
        rows = list(zip(map(str, _column(columns, TOPIC_COLUMNS, "topic")), map(str, stance),
                        map(str, _column(columns, DOCUMENT_COLUMNS, "document")),
                        map(float, _column(columns, ("score",), "score"))))  # fmt: skip
    order = {topic: position for position, topic in enumerate(topic_order({row[0] for row in rows}))}
    lines, rank = [], {}
    for topic, column2, doc, score in sorted(rows, key=lambda row: (order[row[0]], -row[3], row[2])):
        rank[topic] = rank.get(topic, 0) + 1
        lines.append(RunLine(topic, column2, doc, rank[topic], score, "api"))
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
             "losses": pa.int64(), **dict.fromkeys(REPRODUCIBILITY_COLUMNS[2:], pa.float64()), "rank": pa.int64(),
             "ours": pa.bool_(), "ci_low": pa.float64(), "ci_high": pa.float64()}  # fmt: skip
    return pa.schema([(name, types[name]) for name in columns])
