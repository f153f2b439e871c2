"""`argrank fuse`: several run files fused into one (argrank.evaluation.fusion); with judgments, the fusion's weights
or parameter chosen on them and, with --cv, its cross-validated figure (argrank.evaluation.fusion_tuning). Each run
is shown by one name (formats.run_names), and a fused Task 2 run carries its members' stance in column 2."""

from __future__ import annotations

import argparse
import json
import sys

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
from argrank.evaluation.fusion_tuning import TUNABLE, cutoff, tuned
from argrank.formats.qrels import read_qrels
from argrank.formats.run_names import run_names
from argrank.formats.runfile import format_run, read_run, write_run
from workflows.commands.output_options import STDOUT, check_outputs
from workflows.commands.param_option import param_pairs


def cmd_fuse(args: argparse.Namespace) -> int:
    if len(args.run) < 2:
        args.usage_error("fusion needs at least two --run files")
    if (args.cv or args.qrels) and not args.optimize or args.optimize and not args.qrels:
        args.usage_error("--optimize MEASURE needs --qrels, and --qrels and --cv need --optimize")
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
    if args.optimize:
        try:
            report = tuned(runs, names, qrels, args.method, args.norm, args.optimize, args.cv, args.seed, args.depth)
        except ValueError as error:
            args.usage_error(str(error))
        params = {**params, **report["chosen"]}
    try:
        params = method_params(args.method, params, len(runs))
        norm = applied_norm(args.method, args.norm)
        fused = fuse(runs, args.method, args.norm, params, args.depth)
    except ValueError as error:
        args.usage_error(str(error))
    report.update(norm=norm, params=params, topics=len(fused), names=names)
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
    """Usage errors, before any file is read, for what no fused run can meet: --depth, --tag, --seed, and an
    --optimize cut-off beyond --depth (the fused run never reaches it)."""
    if not 1 <= args.depth <= MAX_DEPTH:
        args.usage_error(f"--depth {args.depth}: expected 1 to {MAX_DEPTH:,} documents per topic")
    problem = tag_problem(args.tag)
    if problem:
        args.usage_error(f"--tag {args.tag[:TAG_LENGTH]!r}{'…' if len(args.tag) > TAG_LENGTH else ''}: {problem}")
    if args.seed < 0:
        args.usage_error(f"--seed {args.seed}: expected a whole number of at least 0")
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
    names = report["names"]
    how = f"after {report['norm']}" if report["norm"] else "on ranks"
    lines = [f"{report['method']} {how} of {len(names)} runs, {report['topics']} topics"]
    if report["params"]:
        lines.append(_shown(report["params"], names))
    if "measure" in report:
        measure = report["measure"]
        lines.append(f"{measure} on all judged topics with these parameters: {report['in_sample_mean']:.4f}")
        lines.append(f"best single run: {report['best_single']} {report['best_single_mean']:.4f}")
        if "cv_mean" in report:
            lines.append(f"cross-validated over {len(report['folds'])} folds: {report['cv_mean']:.4f}")
            for number, fold in enumerate(report["folds"], start=1):
                chosen = _shown(fold["chosen"], names)
                lines.append(f"  fold {number} ({len(fold['topics'])} topics): {chosen + '; ' if chosen else ''}"
                             f"held out {fold['held_out_mean']:.4f}")  # fmt: skip
    if "stance" in report:
        voters = ", ".join(report["stance"]["voters"]) or "no run"
        lines.append(f"stance: the weighted vote of {voters}; {report['stance']['unvoted']} passages none of them "
                     f"holds got {NO_STANCE}")  # fmt: skip
    if "output" in report:
        lines.append(f"written to {report['output']}")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--run", action="append", default=[], required=True, help="a run file (repeat: two or more)")
    parser.add_argument("--name", action="append", default=[],
                        help="a run's name in the output, one per --run in order (default: the file's stem, else "
                             "its path below the runs' shared folder)")  # fmt: skip
    parser.add_argument("--method", choices=list(METHODS), default="combsum", help="the fusion method (combsum)")
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
    parser.add_argument("--json", action="store_true", help="one JSON object with every figure")
    parser.set_defaults(handler=cmd_fuse, usage_error=parser.error)
