"""The `argrank` command: run experiments (and the nightly), evaluate, compare and validate run files, run the TIRA
contract, show a submission's scores.

Bad input ends the command with one line on stderr naming the file and place, and exit status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import sys
from pathlib import Path

from argrank.config import TRACKS
from argrank.core.atomic import atomic_path
from argrank.core.errors import InputError
from argrank.evaluation.measures import EXAMPLES, canonical
from argrank.evaluation.ranking import AVERAGE as RANKING_AVERAGE
from argrank.evaluation.ranking import evaluate
from argrank.evaluation.report import format_table, per_topic_csv
from argrank.evaluation.results import AVERAGING, JUDGED_TOPICS, RUN_TOPICS, TopicScores
from argrank.formats.qrels import read_qrels
from argrank.formats.runfile import read_run
from argrank.formats.topics import read_topics
from argrank.formats.validation import validate_run
from argrank.tracks.comparative.stance_evaluation import evaluate_stance, format_stance
from argrank.tracks.comparative.stance_qrels import read_stance_qrels
from argrank.tracks.images.evaluation import AVERAGE as IMAGES_AVERAGE
from argrank.tracks.images.evaluation import evaluate_images
from argrank.tracks.images.qrels import read_image_qrels
from argrank.tracks.perspective.data import SCENARIOS, query_file, read_corpus, read_predictions, read_queries
from argrank.tracks.perspective.evaluation import csv_tables, evaluate_perspective, format_means
from workflows import compare, perspective_cv, quality_benchmark, stance_benchmark
from workflows import run as run_commands

DEFAULT_DEPTH = 5
EVALUATED_SPLITS = ("train", "dev")  # test splits come without relevant arguments
MISSING_EXAMPLES = 5  # query ids a warning about missing predictions names
PERSPECTIVE_OPTIONS = ("data", "predictions", "scenario", "split", "all_variables", "csv_dir")
RUN_OPTIONS = ("run", "qrels", "stance_qrels", "topics", "csv", "measure")


def cmd_evaluate(args: argparse.Namespace) -> int:
    if args.track == "perspective":
        return _evaluate_perspective(args)
    given = _given(args, PERSPECTIVE_OPTIONS)
    if given:
        args.usage_error(f"{given[0]} is for --track perspective")
    if not args.run:
        args.usage_error(f"--track {args.track} needs --run")
    if args.track == "images":
        return _evaluate_images(args)
    if not (args.qrels or args.stance_qrels):
        args.usage_error("give --qrels, --stance-qrels or both")
    if args.csv and not args.qrels:
        args.usage_error("--csv writes per-topic nDCG, which needs --qrels")
    measures = _measures(args)
    known = _known_topics(args)
    run = read_run(args.run)
    scores = None
    if args.qrels:
        qrels = read_qrels(args.qrels, known)
        try:
            depth = None if measures else args.depth  # named measures carry their own cut-offs
            scores = evaluate(run, qrels, depth, measures, args.average or RANKING_AVERAGE)
        except ValueError as error:  # a fractional label, or no judged topic in the run to average over
            raise InputError(args.qrels, "", str(error)) from None
    stance = None
    if args.stance_qrels:
        stance_qrels = read_stance_qrels(args.stance_qrels, known)
        try:
            stance = evaluate_stance(run, stance_qrels)
        except ValueError as error:  # column 2 mixes Q0 and stance labels: name the run file too
            raise InputError(args.run, "", str(error)) from None
    if _write(args, scores, {**(scores.to_json() if scores else {}), **(stance.to_json() if stance else {})}):
        return 0
    run_name = Path(args.run).name
    if scores:
        print(format_table({f"{run_name} / {Path(args.qrels).name}": scores}))
    if stance:
        print(format_stance(f"{run_name} / {Path(args.stance_qrels).name}", stance))
    return 0


def _measures(args: argparse.Namespace) -> list[str] | None:
    """The --measure names as stored (aliases resolved), or None for the default set at --depth."""
    if not args.measure:
        return None
    if args.depth != DEFAULT_DEPTH:
        args.usage_error("--depth sets the default measures' cut-off; a --measure names its own (nDCG@10)")
    try:
        return [canonical(name) for name in args.measure]
    except ValueError as error:
        args.usage_error(str(error))


def _evaluate_images(args: argparse.Namespace) -> int:
    """Task 3: on-topic, argumentative and on-stance precision of the PRO and CON lists, from image qrels."""
    if args.measure:
        args.usage_error("--measure is for the args and comparative tracks; images report their four precisions")
    if not args.qrels:
        args.usage_error("--track images needs --qrels (the image judgments)")
    if args.stance_qrels:
        args.usage_error("--stance-qrels is for the comparative track; image qrels judge stance themselves")
    if args.depth != DEFAULT_DEPTH:
        args.usage_error("--depth does not apply to --track images, which scores 10 PRO and 10 CON images")
    qrels = read_image_qrels(args.qrels, _known_topics(args))
    try:
        result = evaluate_images(read_run(args.run), qrels, args.average or IMAGES_AVERAGE)
    except ValueError as error:  # column 2 is not PRO or CON, or no judged topic in the run to average over
        raise InputError(args.run, "", str(error)) from None
    if not _write(args, result, result.to_json()):
        print(format_table({f"{Path(args.run).name} / {Path(args.qrels).name}": result}))
    return 0


def _evaluate_perspective(args: argparse.Namespace) -> int:
    """The perspective track: relevance and diversity of a predictions file on a release's train or dev queries."""
    given = _given(args, RUN_OPTIONS)
    if given:
        args.usage_error(f"{given[0]} does not apply to --track perspective, which reads --data and --predictions")
    if args.depth != DEFAULT_DEPTH:
        args.usage_error("--depth does not apply to --track perspective, which scores k = 4, 8, 16 and 20")
    if args.average:
        args.usage_error("--average does not apply to --track perspective, whose every query has relevant arguments")
    missing = [f"--{name}" for name in ("data", "predictions", "scenario", "split") if not getattr(args, name)]
    if missing:
        args.usage_error(f"--track perspective needs {', '.join(missing)}")
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


def _given(args: argparse.Namespace, names: tuple[str, ...]) -> list[str]:
    """The options among `names` that the command line set, as written there."""
    return [f"--{name.replace('_', '-')}" for name in names if getattr(args, name)]


def _known_topics(args: argparse.Namespace) -> list[str] | None:
    """The topic ids of --topics, which judgments must keep to; None without it."""
    return [t.number for t in read_topics(args.topics)] if args.topics else None


def _write(args: argparse.Namespace, scores: TopicScores | None, data: dict) -> bool:
    """Write --csv (per-topic `scores`) if asked; print `data` as JSON and say True if --json asked for it instead
    of a table."""
    if args.csv:
        with atomic_path(args.csv) as tmp:
            tmp.write_text(per_topic_csv(scores), encoding="utf-8")
    if args.json:
        print(json.dumps(data, indent=2))
    return args.json


def cmd_validate(args: argparse.Namespace) -> int:
    if args.track == "images" and args.max_per_topic is not None:
        args.usage_error("--max-per-topic does not apply to --track images: at most 10 images per topic and stance")
    lines = validate_run(args.run, max_per_topic=args.max_per_topic, rules=TRACKS[args.track].run_rules)
    print(f"{args.run}: valid ({lines} lines)")
    return 0


def cmd_tira(args: argparse.Namespace) -> int:
    """Run one configured run's graph on INPUT_DIR (the track's documents and topics) and write OUTPUT_DIR/run.txt.

    Topics are INPUT_DIR/topics.xml, or else queries.jsonl. An image collection brings its own stance training set
    (training-qrels.txt) or none: the configured one judges images of another collection.
    """
    import luigi

    from argrank.config import load_config
    from tasks.publish import run_tasks
    from workflows.setup import fresh_build

    tracks = load_config(args.runs_file)
    if args.track not in tracks:
        raise InputError(args.runs_file, "", f"no {args.track!r} track configured (configured: {', '.join(tracks)})")
    track = tracks[args.track]
    tags = [spec.tag for spec in track.runs]
    tag = args.run or tags[0]
    if tag not in tags:
        raise InputError(args.runs_file, f"{args.track}.runs", f"no run tagged {tag!r} (configured: {', '.join(tags)})")
    given = Path(args.input).resolve()
    # The documents and topics come from INPUT_DIR; judgments are not part of the contract.
    topics = given / "topics.xml"
    if not topics.exists() and (given / "queries.jsonl").exists():
        topics = given / "queries.jsonl"
    track = dataclasses.replace(track, corpus=given, topics=topics, qrels={}, stance_qrels=None)
    if track.name == "images":
        training = given / "training-qrels.txt"
        track = dataclasses.replace(track, stance_training=(training,) if training.is_file() else ())
    luigi.configuration.get_config().set("argrank", "output_dir", args.outputs)
    fresh_build()  # a build of its own: signatures from the files as they are now
    task = run_tasks(track)[tag]["run"]
    result = luigi.build([task], local_scheduler=True, detailed_summary=True)
    if result.status not in (luigi.LuigiStatusCode.SUCCESS, luigi.LuigiStatusCode.SUCCESS_WITH_RETRY):
        print(f"argrank: the run {tag!r} failed; see the log above", file=sys.stderr)
        return 1
    with atomic_path(Path(args.output) / "run.txt") as tmp:
        shutil.copyfile(task.output().path, tmp)
    print(f"wrote {Path(args.output) / 'run.txt'}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Where the submission is, and its mean scores: by default under luigi.cfg's output_dir, where the graph
    published it, not a fixed outputs/ that may hold an older experiment."""
    root = Path(args.dir) if args.dir else _output_dir() / "submission"
    tracks = sorted(p for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    if not tracks:
        print(f"no submission under {root}; run `make run` first", file=sys.stderr)
        return 1
    for folder in tracks:
        print(f"\n== {folder.name}: {folder}")
        # Runs: <tag>.txt (TREC runs), or <scenario>/<split>.jsonl (perspective).
        for run in [*sorted(folder.glob("*.txt")), *sorted(folder.glob("*/*.jsonl"))]:
            if run.name != "evaluation.txt":
                print(f"run        {run}")
        evaluation = folder / "evaluation.json"
        if evaluation.exists():
            print(f"evaluation {evaluation}\n")
            print((folder / "evaluation.txt").read_text(encoding="utf-8").rstrip())
    return 0


def _output_dir() -> Path:
    """The graph's output folder as luigi.cfg (or LUIGI_CONFIG_PATH) sets it."""
    import luigi.configuration

    return Path(luigi.configuration.get_config().get("argrank", "output_dir", "outputs"))


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="argrank", description=__doc__.splitlines()[0])
    commands = top.add_subparsers(dest="command", required=True)

    evaluate_ = commands.add_parser(
        "evaluate", help="score a run against qrels (nDCG, judged), or perspective predictions against a release"
    )
    evaluate_.add_argument("--run", help="run file (tab or space separated); every track but perspective")
    evaluate_.add_argument(
        "--track",
        choices=sorted({*TRACKS, "perspective"}),
        default="args",
        help="images (Task 3): on-topic, argumentative and on-stance precision of 10 PRO and 10 CON images; "
        "args (the default) and comparative: nDCG; perspective: nDCG, P, alpha-nDCG and rKL at 4, 8, 16, 20",
    )
    evaluate_.add_argument(
        "--qrels",
        help="qrels file `topic 0 doc label` for nDCG and judged; for images `topic ONTOPIC|PRO|CON image 0|1`",
    )
    evaluate_.add_argument(
        "--stance-qrels",
        help="Task 2 stance qrels `topic 0 doc FIRST|SECOND|NEUTRAL|NO`: stance macro-F1 over the whole run, not cut at k",
    )
    evaluate_.add_argument(
        "--depth",
        type=int,
        default=DEFAULT_DEPTH,
        help=f"cut-off k of the default measures nDCG@k, Judged@k and the judged-only nDCG@k (default {DEFAULT_DEPTH})",
    )
    evaluate_.add_argument(
        "--measure",
        action="append",
        metavar="NAME",
        help=f"args and comparative: a measure in ir_measures' syntax, instead of the defaults; repeatable ({EXAMPLES})",
    )
    evaluate_.add_argument(
        "--average",
        choices=AVERAGING,
        help=f"which topics a mean is over: {JUDGED_TOPICS} (every judged topic, 0 where the run lacks it: "
        f"ir_measures, TIRA and trec_eval -c; the default for args and comparative) or {RUN_TOPICS} (only the judged "
        "topics the run has: trec_eval without -c, and the organisers' Task 3 evaluator; the default for images)",
    )
    evaluate_.add_argument("--topics", help="topics XML: reject qrels topics it does not have")
    evaluate_.add_argument("--json", action="store_true", help="print one JSON object")
    evaluate_.add_argument("--csv", help="also write per-topic scores to this CSV file")
    evaluate_.add_argument("--data", help="perspective: the release directory (corpus.jsonl and the query folders)")
    evaluate_.add_argument("--predictions", help='perspective: JSONL {"query_id": …, "relevant_candidates": [ids…]}')
    evaluate_.add_argument("--scenario", choices=SCENARIOS, help="perspective: which scenario's queries")
    evaluate_.add_argument("--split", choices=EVALUATED_SPLITS, help="perspective: which split's queries")
    evaluate_.add_argument(
        "--all-variables",
        action="store_true",
        help="perspective: average diversity over every variable, the query's own property's too (as the released "
        "evaluator does); by default a query leaves its own out",
    )
    evaluate_.add_argument("--csv-dir", help="perspective: also write the relevance and diversity tables here as CSV")
    evaluate_.set_defaults(handler=cmd_evaluate, usage_error=evaluate_.error)

    validate_ = commands.add_parser("validate", help="check a run file against the Touché rules")
    validate_.add_argument("run", help="run file")
    validate_.add_argument("--max-per-topic", type=int, help="the most lines per topic (default 1000; not for images)")
    validate_.add_argument(
        "--track",
        choices=sorted(TRACKS),
        default="args",
        help="comparative (Task 2) allows stance labels in column 2; images (Task 3) 10 PRO and 10 CON per topic",
    )
    validate_.set_defaults(handler=cmd_validate, usage_error=validate_.error)

    tira = commands.add_parser(
        "tira",
        help="TIRA contract: -i INPUT_DIR (args.me files, passages.jsonl.gz or an image collection; topics.xml or "
        "queries.jsonl) -o OUTPUT_DIR",
    )
    tira.add_argument("-i", "--input", required=True)
    tira.add_argument("--track", choices=sorted(TRACKS), default="args", help="which task's contract")
    tira.add_argument("-o", "--output", required=True)
    tira.add_argument("--runs-file", default="runs.yaml", help="where the run's method and parameters are named")
    tira.add_argument("--run", help="the tag of the run to produce (default: the first configured)")
    tira.add_argument("--outputs", default="outputs", help="the pipeline's output folder, where its cached stages go")
    tira.set_defaults(handler=cmd_tira)

    compare.add_parser(commands)
    perspective_cv.add_parser(commands)
    quality_benchmark.add_parser(commands)
    stance_benchmark.add_parser(commands)
    run_commands.add_parsers(commands)

    report = commands.add_parser("report", help="show where the submission is and its scores")
    report.add_argument("--dir", help="the submission folder (default: <output_dir>/submission, from luigi.cfg)")
    report.set_defaults(handler=cmd_report)

    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.handler(args)
    except InputError as error:
        print(f"argrank: error: {error}", file=sys.stderr)
        return 2
    except (FileNotFoundError, IsADirectoryError, PermissionError) as error:
        print(f"argrank: error: {error.filename}: {error.strerror}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
