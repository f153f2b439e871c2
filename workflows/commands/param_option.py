"""The `--param NAME=VALUE` option the cross-validation and benchmark commands share: repeatable, each value a
number, checked against the owner's parameters and ranges as a runs file's are (core.params)."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from argrank.core.params import Range, checked_params


def add_param_option(parser: argparse.ArgumentParser, what: str, defaults: Mapping[str, float]) -> None:
    parser.add_argument(
        "--param", action="append", metavar="NAME=VALUE",
        help=f"{what} (repeatable; {', '.join(defaults)})",
    )  # fmt: skip


def param_values(
    args: argparse.Namespace, owner: str, defaults: Mapping[str, float], ranges: Mapping[str, Range]
) -> dict[str, float]:
    """The --param pairs as numbers; a usage error (exit 2) for a pair that is not NAME=NUMBER, an unknown name or
    a value out of its range."""
    values = param_pairs(args)
    try:
        return checked_params(owner, values, defaults, ranges)
    except ValueError as error:
        args.usage_error(f"--param: {error}")


def param_pairs(args: argparse.Namespace) -> dict[str, float]:
    """The --param NAME=NUMBER pairs as numbers, unchecked; a usage error for a pair of another form."""
    values = {}
    for pair in args.param or ():
        name, _, value = pair.partition("=")
        try:
            values[name.strip()] = float(value)
        except ValueError:
            args.usage_error(f"--param {pair}: expected NAME=NUMBER")
    return values
