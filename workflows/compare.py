"""`argrank compare`: an experiment's runs (or run files) against a baseline, with paired significance tests.

The runs are those an experiment published (`outputs/experiments/<name>/<track>/<tag>.txt`, after `make run` or
`luigi … FullSubmission --runs-file …`), of one or several experiments (tags then read `<experiment>/<tag>`), and
any run files given with --run (tag: the file's stem). Every run is scored here, against the same judgments, on
every judged topic (0 where a run lacks one), so the tests pair the same topics.

The perspective track has one ranking per scenario and split, not tagged runs: there the runs are the
experiments (named by their experiment names), compared per judged scenario and split on the queries' relevance
(nDCG@k, P@k, paired over queries) with their diversity (α-nDCG@k, rKL@k: means over variables) beside.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from argrank.config import PERSPECTIVE, TRACKS, Track, load_experiment
from argrank.core.errors import InputError
from argrank.core.layout import experiment_folder
from argrank.evaluation.comparison import ALPHA, compare, format_comparison
from argrank.evaluation.measures import EXAMPLES, canonical
from argrank.evaluation.ranking import default_measures, evaluate
from argrank.evaluation.results import JUDGED_TOPICS
from argrank.evaluation.significance import CORRECTIONS, HOLM
from argrank.formats.qrels import read_qrels
from argrank.formats.runfile import read_run
from argrank.tracks.comparative.stance_evaluation import evaluate_stance
from argrank.tracks.comparative.stance_qrels import read_stance_qrels
from argrank.tracks.images.evaluation import MEASURES as IMAGE_MEASURES
from argrank.tracks.images.evaluation import evaluate_images
from argrank.tracks.images.qrels import read_image_qrels
from argrank.tracks.perspective.data import judged, query_file, read_corpus, read_predictions, read_queries
from argrank.tracks.perspective.evaluation import DIVERSITY, RELEVANCE, at_every_k, evaluate_perspective


def cmd_compare(args: argparse.Namespace) -> int:
    if args.track == PERSPECTIVE:
        return _compare_perspective(args)
    if args.track == "images" and args.measure:
        args.usage_error("--measure is for the args and comparative tracks; images compare their four precisions")
    runs_files = args.runs_file or ([] if args.run else ["runs.yaml"])
    tracks = [_track(path, args.track) for path in runs_files]
    qrels_name, qrels = _qrels(args, tracks)
    runs = _runs(args, runs_files, tracks)
    measures = _measures(args, tracks)
    per_topic, pooled = {}, {}
    stance_qrels = tracks[0][1].stance_qrels if tracks and args.track == "comparative" else None
    for tag, path in runs.items():
        lines = read_run(path)
        try:
            if args.track == "images":
                result = evaluate_images(lines, read_image_qrels(qrels), JUDGED_TOPICS)
            else:
                result = evaluate(lines, read_qrels(qrels), None, measures, JUDGED_TOPICS)
            if stance_qrels:
                pooled[tag] = {"stance_f1": evaluate_stance(lines, read_stance_qrels(stance_qrels)).macro}
        except ValueError as error:
            raise InputError(path, "", str(error)) from None
        per_topic[tag] = result.per_topic
    names = list(IMAGE_MEASURES) if args.track == "images" else measures
    try:
        comparison = compare(args.track, qrels_name, per_topic, args.baseline, names, args.correction, pooled)
    except ValueError as error:
        args.usage_error(str(error))
    if args.json:
        print(json.dumps(comparison.to_json(), indent=2))
    else:
        print(format_comparison(comparison, args.alpha))
    return 0


def _compare_perspective(args: argparse.Namespace) -> int:
    """Each experiment's perspective rankings, one comparison per judged scenario and split."""
    if args.run or args.measure or args.qrels:
        args.usage_error("--run, --measure and --qrels are for the ranking tracks; perspective compares experiments")
    experiments = [_track(path, PERSPECTIVE) for path in args.runs_file or ["runs.yaml"]]
    data = experiments[0][1].corpus
    corpus = read_corpus(data)
    comparisons = {}
    for scenario in experiments[0][1].scenarios:
        for split in experiments[0][1].splits:
            if not judged(str(data), scenario, split):
                continue
            queries = read_queries(query_file(data, scenario, split), corpus)
            per_topic, pooled = {}, {}
            for name, track in experiments:
                path = experiment_folder(args.outputs, name) / PERSPECTIVE / scenario / f"{split}.jsonl"
                if not path.is_file():
                    raise InputError(path, "", "not published: run the experiment first (argrank run)")
                result = evaluate_perspective(corpus, queries, read_predictions(path, corpus), scenario)
                per_topic[name] = result.per_query
                pooled[name] = {m: result.means[m] for m in at_every_k(DIVERSITY)}
            try:
                comparisons[f"{scenario}/{split}"] = compare(
                    PERSPECTIVE, f"{scenario}/{split}", per_topic, args.baseline, at_every_k(RELEVANCE),
                    args.correction, pooled,
                )  # fmt: skip
            except ValueError as error:
                args.usage_error(str(error))
    if args.json:
        print(json.dumps({"track": PERSPECTIVE, "baseline": args.baseline,
                          "scenarios": {name: c.to_json() for name, c in comparisons.items()}}, indent=2))  # fmt: skip
    else:
        print("\n\n".join(format_comparison(c, args.alpha) for c in comparisons.values()))
    return 0


def _track(runs_file: str, name: str) -> tuple[str, Track]:
    """(experiment name, its `name` track) of a runs file."""
    experiment = load_experiment(runs_file)
    if name not in experiment.tracks:
        raise InputError(runs_file, "", f"no {name} track in this experiment (it has {', '.join(experiment.tracks)})")
    return experiment.name, experiment.tracks[name]


def _qrels(args: argparse.Namespace, tracks: list[tuple[str, Track]]) -> tuple[str, str]:
    """(name, path) of the judgments: --qrels as a configured name or a file, else the first experiment's
    "relevance" judgments, or its first."""
    configured = tracks[0][1].qrels if tracks else {}
    if args.qrels in configured:
        return args.qrels, str(configured[args.qrels])
    if args.qrels:
        if not Path(args.qrels).is_file():
            known = f"a configured name ({', '.join(configured)}) or " if configured else ""
            args.usage_error(f"--qrels {args.qrels}: expected {known}a qrels file")
        return Path(args.qrels).name, args.qrels
    if not configured:
        args.usage_error("give --qrels: the experiment configures no judgments" if tracks else "give --qrels")
    name = "relevance" if "relevance" in configured else next(iter(configured))
    return name, str(configured[name])


def _runs(args: argparse.Namespace, runs_files: list[str], tracks: list[tuple[str, Track]]) -> dict[str, str]:
    """Tag → run file: each experiment's published runs, then the --run files."""
    runs = {}
    for runs_file, (experiment, track) in zip(runs_files, tracks):
        folder = experiment_folder(args.outputs, experiment) / track.name
        for spec in track.runs:
            path = folder / f"{spec.tag}.txt"
            if not path.is_file():
                raise InputError(path, "", f"not published: run the experiment {runs_file} first (argrank run)")
            runs[f"{experiment}/{spec.tag}" if len(tracks) > 1 else spec.tag] = str(path)
    for path in args.run or []:
        tag = Path(path).stem
        if tag in runs:
            args.usage_error(f"two runs are tagged {tag!r}: rename the file {path}")
        runs[tag] = path
    return runs


def _measures(args: argparse.Namespace, tracks: list[tuple[str, Track]]) -> list[str]:
    try:
        if args.measure:
            return list(dict.fromkeys(canonical(name) for name in args.measure))
    except ValueError as error:
        args.usage_error(str(error))
    configured = tracks[0][1].measures if tracks else ()
    return list(configured) or default_measures(5)


def add_parser(commands: argparse._SubParsersAction) -> None:
    compare_ = commands.add_parser(
        "compare", help="runs against a baseline: means, paired t-test and Wilcoxon over topics, wins/ties/losses"
    )
    compare_.add_argument("--track", choices=sorted({*TRACKS, PERSPECTIVE}), default="args")
    compare_.add_argument(
        "--runs-file",
        action="append",
        help="an experiment whose published runs to compare (repeatable; default runs.yaml unless --run is given)",
    )
    compare_.add_argument("--run", action="append", help="a run file to compare too (repeatable; tag: its stem)")
    compare_.add_argument(
        "--baseline", required=True, help="the tag of the run the others are tested against (perspective: an experiment)"
    )
    compare_.add_argument("--qrels", help="a configured judgments name (default: relevance) or a qrels file")
    compare_.add_argument("--measure", action="append", metavar="NAME", help=f"ir_measures names ({EXAMPLES})")
    compare_.add_argument("--correction", choices=CORRECTIONS, default=HOLM, help="multiple-testing correction")
    compare_.add_argument("--alpha", type=float, default=ALPHA, help=f"what the table marks (default {ALPHA})")
    compare_.add_argument("--outputs", default="outputs", help="the pipeline's output folder")
    compare_.add_argument("--json", action="store_true", help="print one JSON object")
    compare_.set_defaults(handler=cmd_compare, usage_error=compare_.error)
