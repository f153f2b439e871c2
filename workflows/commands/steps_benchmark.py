"""`argrank steps-benchmark`: BM25 against BM25 with RM3, with Bo1 and with the ltr step on Webis-ArgQuality-20 (or
a file in its format), by nested cross-validation: settings chosen and models learnt inside training folds of topics
(ltr's configuration in inner folds of them), each step's held-out figure shown beside the inner one that chose it
and the spread over folds (argrank.quality.steps_benchmark)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from argrank.quality.data import queries_for, read_quality_set, read_quality_topics
from argrank.quality.steps_benchmark import steps_benchmark, format_steps_benchmark
from workflows.commands.quality_benchmark import (
    RELEASE_TOPICS,
    add_repeats_option,
    check_seed_and_repeats,
    default_topics,
)


def cmd_steps_benchmark(args: argparse.Namespace) -> int:
    examples = read_quality_set(args.data)
    topics_path = Path(args.topics) if args.topics else default_topics(Path(args.data))
    queries = queries_for(examples, read_quality_topics(topics_path), topics_path)
    if len(queries) < 2 or args.folds < 2:
        args.usage_error("choosing settings on other topics needs at least 2 topics and --folds of at least 2")
    check_seed_and_repeats(args)
    result = steps_benchmark(examples, queries, folds=args.folds, seed=args.seed, repeats=args.cv_repeats)
    print(json.dumps(result.to_json(), indent=2) if args.json else format_steps_benchmark(result))
    return 0


def add_arguments(bench: argparse.ArgumentParser) -> None:
    bench.add_argument("--data", required=True, help="webis-argquality20-full.csv, or a file in its format")
    bench.add_argument(
        "--topics", help=f"a topics CSV (Topic ID, Long Query); default: {RELEASE_TOPICS} beside --data, else ours"
    )
    bench.add_argument("--folds", type=int, default=5, help="outer folds of topics, each held out in turn (5)")
    bench.add_argument("--seed", type=int, default=0, help="the shuffle of topics into folds, inner ones too (0)")
    add_repeats_option(bench)
    bench.add_argument("--json", action="store_true", help="one JSON object with every figure, per topic and fold")
    bench.set_defaults(handler=cmd_steps_benchmark, usage_error=bench.error)
