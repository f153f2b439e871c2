"""The comparative track's command line, `argrank stance-benchmark`: its stance model trained on some sets and
scored on a held-out one, or scored by nested cross-validation on the training sets, its settings chosen by inner
folds either way (argrank.tracks.comparative.stance_benchmark)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from argrank.tracks.comparative.stance_benchmark import cross_validated, format_scores, held_out, repeated
from argrank.tracks.comparative.stance_data import read_training_set

MAX_REPEATS = 20  # --cv-repeats: each draw of the folds is a whole nested cross-validation


def cmd_stance_benchmark(args: argparse.Namespace) -> int:
    _warnings_to_stderr()
    if args.folds < 2:
        args.usage_error("--folds must be at least 2")
    if args.c is not None and not 0 < args.c < float("inf"):
        args.usage_error("--c must be a positive number")
    if not 1 <= args.cv_repeats <= MAX_REPEATS or args.cv_repeats > 1 and args.test:
        args.usage_error(f"--cv-repeats {args.cv_repeats}: expected 1 to {MAX_REPEATS}, and more than 1 only "
                         "without --test")  # fmt: skip
    if len({Path(path).resolve() for path in args.train}) < len(args.train):
        args.usage_error("--train: a file is given twice (its examples would count twice)")
    sets = {name: read_training_set(path) for name, path in zip(_set_names(args.train), args.train)}
    if args.test:
        train = [e for examples in sets.values() for e in examples]
        results = [held_out(train, read_training_set(args.test), Path(args.test).name, c=args.c, seed=args.seed)]
    elif args.cv_repeats > 1:
        results = repeated(sets, repeats=args.cv_repeats, folds=args.folds, seed=args.seed, c=args.c)
    else:
        results = cross_validated(sets, folds=args.folds, seed=args.seed, c=args.c)
    if args.json:
        payload = [result.to_json() for result in results]
        print(json.dumps(payload[0] if args.test else payload, indent=2))
    else:
        print("\n\n".join(format_scores(result) for result in results))
    return 0


def _set_names(paths: list[str]) -> list[str]:
    """Each training file's name as the output shows it: its file name, or the path as given where two files share
    one (the organizers' folders hold many a `train.tsv`), so that no set's scores take another's place."""
    names = [Path(path).name for path in paths]
    return [name if names.count(name) == 1 else path for name, path in zip(names, paths)]


def _warnings_to_stderr() -> None:
    """The readers' warnings (rows skipped) as one line each on stderr, as the other commands print them."""
    if not logging.getLogger().handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("argrank: warning: %(message)s"))
        handler.setLevel(logging.WARNING)
        logging.getLogger("argrank").addHandler(handler)


def add_stance_benchmark_arguments(bench: argparse.ArgumentParser) -> None:
    bench.add_argument(
        "--train",
        action="extend",
        nargs="+",
        required=True,
        metavar="FILE",
        help="training sets: the Touché stance TSV, CompSent-19's CSV (told apart by their header) or our JSONL; "
        "one or more after one --train, or --train repeated",
    )
    bench.add_argument(
        "--test",
        metavar="FILE",
        help="the set to score (CompSent-19: three classes; Touché: four); without it, k-fold cross-validation",
    )
    bench.add_argument("--folds", type=int, default=5, help="outer cross-validation folds, grouped by object pair")
    bench.add_argument("--seed", type=int, default=0, help="which shuffle of the folds, outer and inner")
    bench.add_argument(
        "--cv-repeats",
        type=int,
        default=1,
        metavar="N",
        help="cross-validate N times, with the seeds from --seed on, and give each set's mean figures over the draws "
        "beside the first seed's (1)",
    )
    bench.add_argument(
        "--c",
        type=float,
        help="both classifiers' inverse regularisation, fixed (default: chosen with the other settings by inner folds)",
    )
    bench.add_argument("--json", action="store_true", help="one JSON object (a list of them when cross-validating)")
    bench.set_defaults(handler=cmd_stance_benchmark, usage_error=bench.error)
