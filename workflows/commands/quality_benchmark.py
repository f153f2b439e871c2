"""`argrank quality-benchmark`: the argument-quality model and the quality-aware re-ranking on Webis-ArgQuality-20
(or a file in its format), by nested cross-validation over topics (argrank.quality.benchmark)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from argrank.quality.benchmark import FOLDS, format_benchmark, quality_benchmark
from argrank.quality.data import queries_for, read_quality_set, read_quality_topics
from argrank.quality.settings import DEFAULTS, RANGES
from workflows.commands.param_option import add_param_option, param_values

# The corpus's own topics file where it lies beside the data; else ours, which words a query for each of its 20
# topics (data/quality/README.md).
RELEASE_TOPICS = "webis-argquality20-topics.csv"
OUR_TOPICS = Path(__file__).resolve().parents[2] / "data" / "quality" / "topics.csv"
MAX_REPEATS = 20  # --cv-repeats: each draw of the folds is a whole nested cross-validation


def cmd_quality_benchmark(args: argparse.Namespace) -> int:
    settings = param_values(args, "the quality re-ranking", DEFAULTS, RANGES)
    examples = read_quality_set(args.data)
    topics_path = Path(args.topics) if args.topics else default_topics(Path(args.data))
    queries = queries_for(examples, read_quality_topics(topics_path), topics_path)
    if len(queries) < 3:
        args.usage_error(f"{args.data} has {len(queries)} topic(s): nested folds of topics need at least 3")
    if not 2 <= args.folds <= len(queries) - 1:
        args.usage_error(f"--folds {args.folds}: expected 2 to {len(queries) - 1} (each fold's training topics need "
                         f"inner folds of their own)")  # fmt: skip
    check_seed_and_repeats(args)
    result = quality_benchmark(examples, queries, settings, args.seed, args.folds, args.cv_repeats)
    print(json.dumps(result.to_json(), indent=2) if args.json else format_benchmark(result))
    return 0


def check_seed_and_repeats(args: argparse.Namespace) -> None:
    """Usage errors for --seed and --cv-repeats, which both benchmarks on Webis-ArgQuality-20 take."""
    if args.seed < 0:
        args.usage_error(f"--seed {args.seed}: expected a whole number of at least 0")
    if not 1 <= args.cv_repeats <= MAX_REPEATS:
        args.usage_error(f"--cv-repeats {args.cv_repeats}: expected 1 to {MAX_REPEATS}")


def add_repeats_option(bench: argparse.ArgumentParser) -> None:
    bench.add_argument("--cv-repeats", type=int, default=1, metavar="N",
                       help="cross-validate N times, with the seeds from --seed on, and give the held-out figures' "
                            "mean and spread over the draws beside the first seed's (1)")  # fmt: skip


def default_topics(data: Path) -> Path:
    beside = data.parent / RELEASE_TOPICS
    return beside if beside.is_file() else OUR_TOPICS


def add_arguments(bench: argparse.ArgumentParser) -> None:
    bench.add_argument("--data", required=True, help="webis-argquality20-full.csv, or a file in its format")
    bench.add_argument(
        "--topics", help=f"a topics CSV (Topic ID, Long Query); default: {RELEASE_TOPICS} beside --data, else ours"
    )
    add_param_option(bench, "a re-ranking setting, as a run's quality settings (a weight given is kept, not chosen "
                     "per fold)", DEFAULTS)  # fmt: skip
    bench.add_argument("--folds", type=int, default=FOLDS, help=f"outer folds of topics ({FOLDS})")
    bench.add_argument("--seed", type=int, default=0, help="the shuffle of topics into folds (0)")
    add_repeats_option(bench)
    bench.add_argument("--json", action="store_true", help="one JSON object with every figure")
    bench.set_defaults(handler=cmd_quality_benchmark, usage_error=bench.error)
