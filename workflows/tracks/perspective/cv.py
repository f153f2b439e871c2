"""`argrank perspective-cv`: the perspective track's nested cross-validation by issue on a release's training
queries: each outer fold ranked with the settings its inner folds chose, so methods are tuned and compared without
the dev split, and a lockbox of issues no setting was chosen on scored once
(argrank.tracks.perspective.cross_validation, argrank.tracks.perspective.tuning)."""

from __future__ import annotations

import argparse
import json

from argrank.tracks.perspective.cross_validation import Settings, cross_validate, format_cross_validation
from argrank.tracks.perspective.crosslingual import DEFAULTS, RANGES
from argrank.tracks.perspective.data import SCENARIOS
from argrank.tracks.perspective.translation import DICTIONARIES
from argrank.tracks.perspective.tuning import DIVERSIFY_GRID, GRID
from workflows.commands.param_option import add_param_option, param_values


def cmd_perspective_cv(args: argparse.Namespace) -> int:
    if args.folds < 2:
        args.usage_error(f"--folds must be at least 2, got {args.folds}")
    if args.lockbox is not None and args.lockbox < 0:
        args.usage_error(f"--lockbox must be 0 or more, got {args.lockbox}")
    if args.diversify is not None and not 0.0 <= args.diversify <= 1.0:
        args.usage_error(f"--diversify must be from 0 to 1, got {args.diversify}")
    scenarios = [scenario for scenario in SCENARIOS if scenario in (args.scenario or SCENARIOS)]
    params = param_values(args, "the perspective ranker", DEFAULTS, RANGES)
    settings = Settings(params, args.diversify, args.implicit_stance, args.dictionaries)
    result = cross_validate(args.data, args.folds, scenarios, settings, args.lockbox)
    print(json.dumps(result.to_json(), indent=2) if args.json else format_cross_validation(result))
    return 0


def add_arguments(cv: argparse.ArgumentParser) -> None:
    cv.add_argument("--data", required=True, help="the release directory (corpus.jsonl and the query folders)")
    cv.add_argument("--folds", type=int, default=5, help="folds of whole issues (default 5)")
    cv.add_argument(
        "--lockbox", type=int, metavar="N",
        help="issues set aside, ranked once with what all the others teach (default: a quarter, 8 of 35; 0: none)",
    )  # fmt: skip
    cv.add_argument(
        "--scenario", nargs="+", action="extend", choices=SCENARIOS, help="which scenarios (default: all three)"
    )
    choices = ", ".join(f"{weight:g}" for weight in DIVERSIFY_GRID)
    cv.add_argument(
        "--diversify", type=float, metavar="W",
        help=f"explicit scenario: fix the profile diversity weight, 0 to 1 (default: chosen from {choices} in inner "
        "folds)",
    )
    tuned = ", ".join(GRID)
    add_param_option(cv, f"fix a cross-lingual ranker setting, as a runs file's params ({tuned} are otherwise "
                     "chosen in inner folds)", DEFAULTS)  # fmt: skip
    cv.add_argument(
        "--implicit-stance", action=argparse.BooleanOptionalAction, default=True,
        help="implicit scenario: read the arguments' stance label (default: yes)",
    )  # fmt: skip
    cv.add_argument(
        "--dictionaries", default=DICTIONARIES, metavar="DIR",
        help=f"folder of the FreeDict dictionaries questions are translated with (default {DICTIONARIES})",
    )  # fmt: skip
    cv.add_argument("--json", action="store_true", help="print one JSON object with every measure and every fold")
    cv.set_defaults(handler=cmd_perspective_cv, usage_error=cv.error)
