"""Generate a synthetic args.me corpus (`tools.synthetic_argsme`) from the command line or as a Luigi target, so a
benchmark (or a runs file's corpus) can depend on it:

    PYTHONPATH=. .venv/bin/python -m tools.generate_argsme --out /tmp/synth-argsme [--arguments N --seed S --topics T]
    PYTHONPATH=. .venv/bin/luigi --module tools.generate_argsme GenerateArgsMe --out /tmp/synth-argsme --local-scheduler
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

import luigi

from argrank.core.atomic import atomic_path
from tools.synthetic_argsme import DEFAULT_ARGUMENTS, DEFAULT_TOPICS, check_parameters, generate_corpus, is_complete

log = logging.getLogger("argrank")


class GenerateArgsMe(luigi.Task):
    """The five args.me files and topics.xml in `out`.

    The folder is written beside its place and renamed onto it, so it appears whole or not at all; it is
    complete when its manifest names these parameters (another seed or size is regenerated over it).
    """

    out = luigi.Parameter(description="the corpus folder to write")
    arguments = luigi.IntParameter(default=DEFAULT_ARGUMENTS, description="how many arguments, over the five files")
    seed = luigi.IntParameter(default=0, description="the random seed; the same seed gives the same bytes")
    topics = luigi.IntParameter(default=DEFAULT_TOPICS, description="how many topics in topics.xml")

    def output(self) -> luigi.LocalTarget:
        return luigi.LocalTarget(self.out)

    def complete(self) -> bool:
        return is_complete(self.out, self.arguments, self.seed, self.topics)

    def run(self) -> None:
        check_parameters(self.arguments, self.seed, self.topics)
        with atomic_path(self.out) as staged:
            stats = generate_corpus(staged, self.arguments, self.seed, self.topics)
        log.info("synthetic args.me corpus in %s:\n%s", self.out, stats.summary())


def parser() -> argparse.ArgumentParser:
    command = argparse.ArgumentParser(
        prog="python -m tools.generate_argsme",
        description="Write a synthetic args.me corpus (the five 2020-04-01 files and topics.xml), seeded and "
        "reproducible, and print its length figures.",
    )
    command.add_argument("--out", required=True, help="the folder to write the corpus to")
    command.add_argument(
        "--arguments", type=int, default=DEFAULT_ARGUMENTS,
        help=f"how many arguments over the five files (default {DEFAULT_ARGUMENTS:,}, as args.me 2020-04-01)",
    )  # fmt: skip
    command.add_argument("--seed", type=int, default=0, help="random seed; the same seed, the same bytes")
    command.add_argument(
        "--topics", type=int, default=DEFAULT_TOPICS, help=f"how many topics (default {DEFAULT_TOPICS})"
    )
    return command


def main(argv: list[str] | None = None) -> int:
    command = parser()
    args = command.parse_args(argv)
    try:
        check_parameters(args.arguments, args.seed, args.topics)
    except ValueError as error:
        command.error(f"--{error}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        command.error(f"--out {out} exists and is not a folder")
    started = time.perf_counter()
    stats = generate_corpus(out, arguments=args.arguments, seed=args.seed, topics=args.topics)
    print(f"wrote {out} in {time.perf_counter() - started:.1f} s (seed {args.seed})")
    print(stats.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
