"""`argrank compare`: an experiment's runs (or run files) against a baseline, with paired significance tests.

What is compared, and how, is the track's (workflows.commands.track_parts): a ranking track's tagged runs over its
judged topics; the perspective track's experiments per judged scenario and split. Only the options are defined
here, with nothing imported that a `--help` would wait for.
"""

from __future__ import annotations

import argparse

from argrank.evaluation.names import (
    ALL_PAIRS,
    ALPHA,
    BASELINE_PAIRS,
    CORRECTIONS,
    DECIMALS,
    EXAMPLES,
    HOLM,
    PAIRS,
    PERMUTATIONS,
    T_TEST,
    TESTS,
    TUKEY,
    TUKEY_HSD,
)
from argrank.tracks.registry import track as registered
from argrank.tracks.registry import track_names
from workflows.commands.output_options import check_outputs
from workflows.commands.track_parts import command_line

OPTIONS = ("run", "name", "qrels", "measure", "stance_qrels", "participants", "reference", "reference_baseline")  # the options a track may not read (Track.compare_options)
MAX_DECIMALS = 17  # a double's significant digits: more show nothing


def cmd_compare(args: argparse.Namespace) -> int:
    track = registered(args.track)
    check_outputs(args, "csv", "latex", "markdown")
    for option in OPTIONS:
        if option not in track.compare_options and getattr(args, option):
            args.usage_error(f"--{option.replace('_', '-')} does not apply to --track {track.name}")
    if not 0 < args.alpha < 1:
        args.usage_error(f"--alpha {args.alpha}: expected a level between 0 and 1")
    if args.permutations < 1:
        args.usage_error(f"--permutations {args.permutations}: expected at least 1")
    if args.baseline and len(set(args.baseline)) != len(args.baseline):
        args.usage_error(f"--baseline names a run twice: {', '.join(args.baseline)}")
    if not 0 <= args.decimals <= MAX_DECIMALS:
        args.usage_error(f"--decimals {args.decimals}: expected 0 to {MAX_DECIMALS}")
    if args.perquery and (args.latex or args.markdown):
        args.usage_error("--latex and --markdown write the comparison's table, not --perquery's scores")
    if args.test == TUKEY:  # Tukey's HSD tests every pair and adjusts for all of them itself
        if args.correction:
            args.usage_error("--test tukey adjusts for all pairs itself: no --correction")
        if args.pairs == BASELINE_PAIRS:
            args.usage_error("--test tukey tests every pair of runs: not --pairs baselines")
    if args.participants:
        for given, option in ((args.perquery, "--perquery"), (args.pairs, "--pairs"), (args.reference, "--reference"),
                              (args.baseline, "--baseline")):  # fmt: skip
            if given:
                args.usage_error(f"--participants tests each of your runs against every participant's run: not with "
                                 f"{option}")  # fmt: skip
    args.correction = TUKEY_HSD if args.test == TUKEY else args.correction or HOLM
    args.pairs = ALL_PAIRS if args.test == TUKEY else args.pairs or BASELINE_PAIRS
    return command_line(track).compare(track, args)


def add_arguments(compare_: argparse.ArgumentParser) -> None:
    compare_.add_argument("--track", choices=track_names(), default="args")
    compare_.add_argument(
        "--runs-file",
        action="append",
        help="an experiment whose published runs to compare (repeatable; default runs.yaml unless --run is given)",
    )
    compare_.add_argument(
        "--run", action="extend", nargs="+", metavar="RUN", help="run files to compare too (--run A B, a shell pattern "
        "or --run repeated; each named by its stem, or by its path below the folder the runs share where stems repeat)"
    )  # fmt: skip
    compare_.add_argument("--name", action="extend", nargs="+", metavar="NAME",
                          help="a name for each run file, in order")
    compare_.add_argument(
        "--baseline",
        action="append",
        help="the tag of a run the others are tested against (repeatable: one comparison per baseline; default: the "
        "runs file's `baseline:`, else the first run; perspective: an experiment, default the first)",
    )
    compare_.add_argument("--qrels", help="a configured judgments name (default: relevance) or a qrels file")
    compare_.add_argument(
        "--reference", metavar="RUN", help="a run file the runs reproduce (the published one): adds each run's "
        "Kendall's tau Union, RBO, RMSE, effect ratio and delta RI against it, as repro_eval computes them"
    )  # fmt: skip
    compare_.add_argument(
        "--reference-baseline", metavar="RUN", help="the reference's own baseline run file, for the effect ratio and "
        "delta RI (default: the comparison's baseline)"
    )  # fmt: skip
    compare_.add_argument(
        "--participants", metavar="DIR", help="a folder of a year's published runs (the organizers' layout or a flat "
        "folder of run files): all runs ranked by the first --measure with confidence intervals, every measure "
        "shown, ours tested against each of them on each measure (--json, --csv, --latex, --markdown as for a "
        "comparison)"
    )  # fmt: skip
    compare_.add_argument("--measure", action="append", metavar="NAME", help=f"ir_measures names ({EXAMPLES})")
    compare_.add_argument(
        "--stance-qrels", help="comparative: stance judgments to score each run's stance F1 against, a column of its "
        "own, untested (default: the runs file's stance_qrels)"
    )  # fmt: skip
    compare_.add_argument(
        "--test", choices=TESTS, default=T_TEST, help=f"the test over topics (default {T_TEST}, as PyTerrier): paired "
        "t, Wilcoxon, fisher (paired randomization) or tukey (Tukey's HSD over all runs, every pair)"
    )  # fmt: skip
    compare_.add_argument(
        "--correction", choices=CORRECTIONS, help=f"the multiple-testing correction per measure (default {HOLM}; none "
        "as PyTerrier's default; not for tukey, which adjusts for all pairs itself)"
    )  # fmt: skip
    compare_.add_argument(
        "--pairs", choices=PAIRS, help=f"which pairs are tested: {BASELINE_PAIRS} (default), each run against each "
        f"--baseline; {ALL_PAIRS}, every pair of runs, corrected over all pairs, and the paper's table marks each "
        "(as ranx); tukey always tests every pair"
    )  # fmt: skip
    compare_.add_argument(
        "--permutations", type=int, default=PERMUTATIONS, help=f"fisher: random sign flips ({PERMUTATIONS:,}; all of "
        "them where a topic count gives fewer)"
    )  # fmt: skip
    compare_.add_argument("--seed", type=int, default=0, help="fisher: the seed of its sign flips (0)")
    compare_.add_argument(
        "--alpha", type=float, default=ALPHA, help=f"the level a corrected p-value is significant below ({ALPHA})"
    )
    compare_.add_argument(
        "--perquery", action="store_true", help="the per-topic scores instead, long format: run, topic, measure, value"
    )
    compare_.add_argument(
        "--decimals", type=int, default=DECIMALS, help=f"decimals of the figures in the text, LaTeX and Markdown "
        f"tables ({DECIMALS}; CSV and JSON keep every digit)"
    )  # fmt: skip
    compare_.add_argument("--csv", metavar="PATH", help="also write the table (or --perquery's) as CSV; - for stdout")
    compare_.add_argument(
        "--latex", metavar="PATH", help="also write the comparison as a paper's table (booktabs: the best value per "
        "measure in bold, superscript letters for significant improvements; with --reference, the reproducibility "
        "measures' table too); - for stdout"
    )  # fmt: skip
    compare_.add_argument("--markdown", metavar="PATH", help="the same table as Markdown; - for stdout")
    compare_.add_argument(
        "--outputs", help="the pipeline's output folder (default: luigi.cfg's output_dir, else outputs)"
    )
    compare_.add_argument("--json", action="store_true", help="print one JSON object")
    compare_.set_defaults(handler=cmd_compare, usage_error=compare_.error)
