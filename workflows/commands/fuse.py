"""`argrank fuse`: several run files fused into one (argrank.evaluation.fusion); with judgments, the fusion's weights
or parameter chosen on them and, with --cv, its cross-validated figure (argrank.evaluation.fusion_tuning). Each run
is shown by one name (formats.run_names), and a fused Task 2 run carries its members' stance in column 2."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from argrank.evaluation.fusion import (
    MAX_DEPTH,
    MAX_WEIGHT,
    METHODS,
    NO_STANCE,
    NORMS,
    TAG_LENGTH,
    applied_norm,
    carried_stances,
    fuse,
    fused_lines,
    method_params,
    ranked,
    stated_stances,
    tag_problem,
    voting,
)
from argrank.evaluation.fusion_tuning import AUTO, TUNABLE, cutoff, tuned
from argrank.formats.participant_runs import participant_runs
from argrank.formats.qrels import read_qrels
from argrank.formats.run_names import run_names
from argrank.formats.runfile import format_run, read_run, write_run
from workflows.commands.output_options import STDOUT, check_outputs
from workflows.commands.param_option import param_pairs

MAX_REPEATS = 20  # --cv-repeats: each draw of folds is a whole cross-validation


def cmd_fuse(args: argparse.Namespace) -> int:
    args.run = _run_files(args)
    if len(args.run) < 2:
        args.usage_error("fusion needs at least two --run files")
    if (args.cv or args.qrels) and not args.optimize or args.optimize and not args.qrels:
        args.usage_error("--optimize MEASURE needs --qrels, and --qrels and --cv need --optimize")
    if args.method == AUTO and (not args.optimize or args.param or args.weights):
        args.usage_error(f"--method {AUTO} chooses the fusion on judged topics: it needs --optimize and --qrels, "
                         "and takes no --param or --weights")  # fmt: skip
    try:
        names = run_names(args.run, args.name)
    except ValueError as error:
        args.usage_error(str(error))
    _bounded(args)
    params = _params(args)
    check_outputs(args, "output")
    qrels = read_qrels(args.qrels) if args.optimize else {}
    if args.cv and not 2 <= args.cv <= len(qrels):
        args.usage_error(f"--cv {args.cv}: expected 2 to {len(qrels)} folds of the judged topics (0: none)")
    lines = [read_run(path) for path in args.run]
    stances = [_stance(args, path, run) for path, run in zip(args.run, lines)]
    runs = [ranked(run) for run in lines]
    report: dict = {"method": args.method, "norm": args.norm, "runs": list(args.run)}
    method = args.method
    if args.optimize:
        try:
            report = tuned(runs, names, qrels, args.method, args.norm, args.optimize, args.cv, args.seed, args.depth,
                           args.cv_repeats)
        except ValueError as error:
            args.usage_error(str(error))
        params, method = {**params, **report["chosen"]}, report["chosen_method"]
        kept = [names.index(name) for name in report["members"]]  # auto may fuse some of the runs only
        names, runs, stances = [names[i] for i in kept], [runs[i] for i in kept], [stances[i] for i in kept]
    try:
        params = method_params(method, params, len(runs))
        norm = applied_norm(method, args.norm)
        fused = fuse(runs, method, args.norm, params, args.depth)
    except ValueError as error:
        args.usage_error(str(error))
    report.setdefault("names", names)
    report.update(norm=norm, params=params, topics=len(fused), fused_names=names)
    if "weights" in params:
        report["weights_by_run"] = dict(zip(names, params["weights"]))
    carried = None
    if any(stance is not None for stance in stances):
        weights = params.get("weights", [1.0] * len(runs))
        carried, unvoted = carried_stances(fused, stances, runs, weights)
        report["stance"] = {"voters": [names[index] for index in voting(stances, weights)], "unvoted": unvoted}
    shown = sys.stdout
    if args.output == STDOUT:  # the run on standard output, what is said of it on standard error
        sys.stdout.write(format_run(fused_lines(fused, args.tag, carried)))
        shown = sys.stderr
    elif args.output:
        write_run(args.output, fused_lines(fused, args.tag, carried))
        report["output"] = args.output
    print(json.dumps(report, indent=2) if args.json else _text(report), file=shown)
    return 0


def _bounded(args: argparse.Namespace) -> None:
    """Usage errors, before any file is read, for what no fused run can meet: --depth, --tag, --seed, --cv-repeats,
    and an --optimize cut-off beyond --depth (the fused run never reaches it)."""
    if not 1 <= args.depth <= MAX_DEPTH:
        args.usage_error(f"--depth {args.depth}: expected 1 to {MAX_DEPTH:,} documents per topic")
    problem = tag_problem(args.tag)
    if problem:
        args.usage_error(f"--tag {args.tag[:TAG_LENGTH]!r}{'…' if len(args.tag) > TAG_LENGTH else ''}: {problem}")
    if args.seed < 0:
        args.usage_error(f"--seed {args.seed}: expected a whole number of at least 0")
    if not 1 <= args.cv_repeats <= MAX_REPEATS or args.cv_repeats > 1 and not args.cv:
        args.usage_error(f"--cv-repeats {args.cv_repeats}: expected 1 to {MAX_REPEATS}, and more than 1 only with --cv")
    if args.optimize:
        try:
            k = cutoff(args.optimize)
        except ValueError as error:
            args.usage_error(f"--optimize: {error}")
        if k > args.depth:
            args.usage_error(f"--optimize {args.optimize}: k must be at most --depth ({args.depth}), the documents "
                             f"per topic the fused run keeps")  # fmt: skip


def _params(args: argparse.Namespace) -> dict:
    """--param k=60 and --weights 0.5,0.5 as the method's parameters; a usage error naming the option for one the
    method does not take or whose value is out of its range."""
    pairs: dict = param_pairs(args)
    weights = {}
    if args.weights:
        try:
            weights["weights"] = [float(w) for w in args.weights.split(",")]
        except ValueError:
            args.usage_error(f"--weights {args.weights}: expected numbers separated by commas")
    for option, given in ((f"--param {', '.join(args.param or [])}", pairs), (f"--weights {args.weights}", weights)):
        try:
            if given:
                method_params(args.method, given, len(args.run))
        except ValueError as error:
            args.usage_error(f"{option}: {error}")
    return {**pairs, **weights}


def _stance(args: argparse.Namespace, path: str, lines: list) -> dict | None:
    """The run's stance per (topic, doc), None where it states none; a usage error for a column 2 that mixes."""
    try:
        return stated_stances(lines)
    except ValueError as error:
        args.usage_error(f"--run {path}: {error}")


def _shown(params: dict, names: list[str]) -> str:
    """A method's parameters for the console, each run's weight by its name."""
    if "weights" in params:
        return "weights: " + ", ".join(f"{name} {float(weight)!r}" for name, weight in zip(names, params["weights"]))
    return "; ".join(f"{name}: {value:g}" for name, value in params.items())


def _text(report: dict) -> str:
    names = report["fused_names"]
    how = f"after {report['norm']}" if report["norm"] else "on ranks"
    method = report.get("chosen_method", report["method"])
    chose = f" (chosen by {report['method']})" if method != report["method"] else ""
    lines = [f"{method}{chose} {how} of {len(names)} run{'s' if len(names) > 1 else ''}, {report['topics']} topics"]
    if names != report["names"]:
        lines.append("runs: " + ", ".join(names))
    if report["params"]:
        lines.append(_shown(report["params"], names))
    if "measure" in report:
        lines.extend(_tuning_lines(report))
    if "stance" in report:
        voters = ", ".join(report["stance"]["voters"]) or "no run"
        lines.append(f"stance: the weighted vote of {voters}; {report['stance']['unvoted']} passages none of them "
                     f"holds got {NO_STANCE}")  # fmt: skip
    if "output" in report:
        lines.append(f"written to {report['output']}")
    return "\n".join(lines)


def _tuning_lines(report: dict) -> list[str]:
    """What the tuning chose and how it fares: the in-sample figure, the inner folds that chose it, and with --cv
    the held-out figure as the headline, beside the inner one, the folds' spread and the single run each training
    part picks; a fusion that does not beat that run on held-out topics is said to lose."""
    measure, lines = report["measure"], []
    if "selection" in report:
        chosen = report["selection"]
        lines.append(f"chosen in {chosen['repeats']} × {chosen['folds']} inner folds of the judged topics: "
                     f"{chosen['slot']} ({measure} there {chosen['inner_mean']:.4f})")  # fmt: skip
        if chosen["slot"] == "single":
            lines.append(f"no fusion beat the best single run in the inner folds: the output is "
                         f"{report['best_single']} alone, its scores normalised")  # fmt: skip
    lines.append(f"{measure} on all judged topics with these parameters: {report['in_sample_mean']:.4f} (in-sample)")
    lines.append(f"best single run: {report['best_single']} {report['best_single_mean']:.4f} (in-sample)")
    if "cv_mean" in report:
        spread, chosen_by = report["cv_spread"], "inner" if "selection" in report else "training"
        lines.append(f"held-out {measure} over {len(report['folds'])} folds: {report['cv_mean']:.4f} ({chosen_by} "
                     f"{report['cv_inner_mean']:.4f}; folds {spread['min']:.4f} to {spread['max']:.4f}, sd "
                     f"{spread['sd']:.4f})")  # fmt: skip
        single, gain = report["cv_best_single_mean"], report["cv_gain"]
        if gain > 0:
            lines.append(f"the single run each training part picks, held out: {single:.4f}; fusion gains {gain:+.4f}")
        else:
            lines.append(f"no gain: on held-out topics this fusion scores {report['cv_mean']:.4f}, the single run "
                         f"each training part picks {single:.4f} ({gain:+.4f}); use that run, or --method {AUTO}")
        for number, fold in enumerate(report["folds"], start=1):
            chosen = fold.get("slot") or _shown(fold["chosen"], fold["members"])
            lines.append(f"  fold {number} ({len(fold['topics'])} topics): {chosen}; {chosen_by} "
                         f"{fold['inner_mean']:.4f}, held out {fold['held_out_mean']:.4f}")
    if "cv_repeats" in report:
        draws = report["cv_repeats"]
        spread, seeds = draws["gain_spread"], draws["seeds"]
        lines.append(f"over {len(seeds)} draws of the folds (seeds {seeds[0]} to {seeds[-1]}): held out "
                     f"{draws['mean_cv_mean']:.4f} on average, the single run {draws['mean_cv_best_single_mean']:.4f}; "
                     f"gain {draws['mean_cv_gain']:+.4f} (draws {spread['min']:+.4f} to {spread['max']:+.4f}, sd "
                     f"{spread['sd']:.4f})")  # fmt: skip
    return lines


def _run_files(args: argparse.Namespace) -> list[str]:
    """The --run paths, each folder replaced by the run files under it (formats.participant_runs: a year's runs in
    the organizers' layout, or a flat folder), with a warning for the files it skips."""
    files = []
    for given in args.run:
        folder = Path(given)
        if not folder.is_dir():
            files.append(given)
            continue
        try:
            found = participant_runs(folder)
        except ValueError as error:
            args.usage_error(f"--run {error}")
        for note in found.notes(folder):
            print(f"argrank: warning: {note}", file=sys.stderr)
        files += [str(path) for path in found.runs.values()]
    return files


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--run", action="extend", nargs="+", default=[], required=True, metavar="RUN",
                        help="run files, two or more: --run A B, a shell pattern (--run runs/*/output/*.txt), "
                             "--run repeated, or a folder: every run file under it, as the organizers lay out a "
                             "year's runs")  # fmt: skip
    parser.add_argument("--name", action="extend", nargs="+", default=[], metavar="NAME",
                        help="the runs' names in the output, one per run file in order (default: the file's stem, "
                             "else its path below the runs' shared folder)")  # fmt: skip
    parser.add_argument("--method", choices=[*METHODS, AUTO], default="combsum",
                        help=f"the fusion method (combsum); {AUTO}: the fusion (the best single run, combsum, "
                        "combmnz or rrf of the best runs, or wsum) chosen by inner folds of the judged "
                        "topics")  # fmt: skip
    parser.add_argument("--norm", choices=list(NORMS), default="min-max",
                        help="each run's normalisation (min-max); rrf, isr, bordafuse and condorcet read ranks, "
                             "which only borda changes")  # fmt: skip
    parser.add_argument("--param", action="append", metavar="NAME=VALUE", help="a method's parameter, e.g. k=60")
    parser.add_argument("--weights", help="wsum's and wmnz's weights, one per --run, e.g. 0.7,0.3 (each "
                        f"from -{MAX_WEIGHT:,.0f} to {MAX_WEIGHT:,.0f})")  # fmt: skip
    parser.add_argument("--depth", type=int, default=1000, help="documents per topic in the fused run (1000; 1 to "
                        f"{MAX_DEPTH:,}); --optimize's k is at most this")  # fmt: skip
    parser.add_argument("--tag", default="fused", help="the fused run's tag (fused): one field of visible text, "
                        f"at most {TAG_LENGTH} characters")  # fmt: skip
    parser.add_argument("--output", help="write the fused run to this file (column 2: the members' stance, if any); "
                        "- writes it to standard output, and the summary to standard error")  # fmt: skip
    parser.add_argument("--qrels", help="judgments to choose the parameters on (with --optimize)")
    parser.add_argument("--optimize", metavar="MEASURE",
                        help=f"choose {', '.join(f'{m} {p}' for m, p in TUNABLE.items())} for nDCG@k or P@k")
    parser.add_argument("--cv", type=int, default=0, help="folds of topics for the cross-validated figure (0: none; 2 "
                        "to the judged topics)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="the shuffle of topics into folds (0)")
    parser.add_argument("--cv-repeats", type=int, default=1, metavar="N",
                        help="with --cv, also cross-validate with the N − 1 seeds after --seed, and report the mean "
                        "over the N draws of folds beside the first (1)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="one JSON object with every figure")
    parser.set_defaults(handler=cmd_fuse, usage_error=parser.error)
