"""`argrank evaluate --track perspective` and `argrank compare --track perspective` (the track's `command_line`):
predictions files scored on a release's queries, and experiments' published rankings compared per judged scenario
and split.

The perspective track has one ranking per scenario and split, not tagged runs: in `compare` the runs are the
experiments (named by their experiment names), compared on the queries' relevance (nDCG@k, P@k, paired over
queries) with their diversity (α-nDCG@k, rKL@k: means over variables) beside.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from argrank.config import experiment_section
from argrank.core.atomic import atomic_path
from argrank.core.errors import InputError
from argrank.core.layout import experiment_folder
from argrank.evaluation.comparison import Significance
from argrank.evaluation.comparison import compare as compare_runs
from argrank.tracks.perspective.data import (
    SCENARIOS,
    judged,
    query_file,
    read_corpus,
    read_predictions,
    read_queries,
)
from argrank.tracks.perspective.evaluation import (
    DIVERSITY,
    RELEVANCE,
    at_every_k,
    csv_tables,
    evaluate_perspective,
    format_means,
)
from argrank.tracks.track import Track
from workflows.commands.comparison_output import show_comparisons

MISSING_EXAMPLES = 5  # query ids a warning about missing predictions names
def evaluate(track: Track, args: argparse.Namespace) -> int:
    """Relevance and diversity of a predictions file on a release's train or dev queries."""
    missing = [f"--{name}" for name in ("data", "predictions", "scenario", "split") if not getattr(args, name)]
    if missing:
        args.usage_error(f"--track {track.name} needs {', '.join(missing)}")
    corpus = read_corpus(args.data)
    queries_path = query_file(args.data, args.scenario, args.split)
    queries = read_queries(queries_path, corpus)
    predictions = read_predictions(args.predictions, corpus)
    _warn_missing(args.predictions, [query.query_id for query in queries if query.query_id not in predictions])
    try:
        result = evaluate_perspective(corpus, queries, predictions, args.scenario, all_variables=args.all_variables)
    except ValueError as error:  # a query without relevant arguments (or no variable to diversify over)
        raise InputError(queries_path, "", str(error)) from None
    if args.csv_dir:
        for name, text in csv_tables(result).items():
            with atomic_path(Path(args.csv_dir) / name) as tmp:
                tmp.write_text(text, encoding="utf-8")
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
        return 0
    over = "all variables" if args.all_variables else "variables other than the query's own"
    name = f"{Path(args.predictions).name} / {args.scenario} {args.split}"
    print(f"{name}: {result.queries} queries, diversity over {over}")
    print(format_means(result))
    return 0


def _warn_missing(path: str, missing: list[str]) -> None:
    """Say which queries a predictions file has no list for: they score as empty lists, which a partial file
    (a crashed retrieval, a wrong split) would otherwise pass off as a weak system."""
    if missing:
        more = ", …" if len(missing) > MISSING_EXAMPLES else ""
        examples = ", ".join(missing[:MISSING_EXAMPLES]) + more
        message = f"{path}: no predictions for {len(missing)} queries, scored as empty lists: {examples}"
        print(f"argrank: warning: {message}", file=sys.stderr)


def compare(track: Track, args: argparse.Namespace) -> int:
    """Each experiment's perspective rankings, one comparison per judged scenario and split."""
    experiments = [experiment_section(path, track.name) for path in args.runs_file or ["runs.yaml"]]
    data = experiments[0][1].corpus
    corpus = read_corpus(data)
    baselines = args.baseline or [experiments[0][0]]
    comparisons, scored = {}, []
    for scenario in experiments[0][1].scenarios:
        for split in experiments[0][1].splits:
            if not judged(str(data), scenario, split):
                continue
            queries = read_queries(query_file(data, scenario, split), corpus)
            per_topic, pooled = {}, {}
            for name, _ in experiments:
                path = experiment_folder(args.outputs, name) / track.name / scenario / f"{split}.jsonl"
                if not path.is_file():
                    raise InputError(path, "", "not published: run the experiment first (argrank run)")
                result = evaluate_perspective(corpus, queries, read_predictions(path, corpus), scenario)
                per_topic[name] = result.per_query
                pooled[name] = {m: result.means[m] for m in at_every_k(DIVERSITY)}
            for baseline in baselines:
                try:
                    significance = Significance(args.test, args.correction, args.alpha, args.permutations, args.seed,
                                                args.pairs)
                    comparison = compare_runs(track.name, f"{scenario}/{split}", per_topic, baseline,
                                              at_every_k(RELEVANCE), significance, pooled)  # fmt: skip
                except ValueError as error:
                    args.usage_error(str(error))
                comparisons.setdefault(comparison.qrels, []).append(comparison)
                scored.append((comparison, per_topic))
    return show_comparisons(args, scored, lambda: {
        "track": track.name, **({"baseline": baselines[0]} if len(baselines) == 1 else {"baselines": baselines}),
        "scenarios": {name: c[0].to_json() if len(c) == 1 else [one.to_json() for one in c]
                      for name, c in comparisons.items()}})  # fmt: skip
