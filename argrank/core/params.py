"""Named numeric parameters checked against their ranges: a ranking model's (retrieval.registry), the quality
re-ranking's, the perspective ranker's. A value out of range (a negative k1, b above 1) either fails deep in a
stage or, worse, ranks silently and badly, so each is refused where it is given, naming it."""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Range:
    """The values a parameter may take: from `low` (excluded where `low_open`) to `high`, integers only where
    `integer`."""

    low: float = 0.0
    high: float = math.inf
    low_open: bool = False
    integer: bool = False

    def __contains__(self, value: float) -> bool:
        above = value > self.low if self.low_open else value >= self.low
        return above and value <= self.high and (not self.integer or float(value).is_integer())

    def __str__(self) -> str:
        kind = "an integer" if self.integer else "a number"
        if self.high < math.inf:
            return f"{kind} from {self.low:g} to {self.high:g}"
        return f"{kind} {'greater than' if self.low_open else 'of at least'} {self.low:g}"


def checked_params(
    owner: str, params: Mapping[str, Any], known: Mapping[str, float], ranges: Mapping[str, Range]
) -> dict[str, float]:
    """`params` as floats, each a parameter `known` to `owner` (a model or ranker) and within its range;
    ValueError naming the first that is not."""
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)} for {owner} (known: {', '.join(known)})")
    for name, value in params.items():
        # Compared, not converted: an integer too large for a float would overflow in math.isfinite.
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not abs(value) <= sys.float_info.max:
            raise ValueError(f"parameter {name} of {owner} must be a finite number, got {value!r}")
        if value not in ranges[name]:
            raise ValueError(f"parameter {name} of {owner} must be {ranges[name]}, got {value!r}")
    return {name: float(value) for name, value in params.items()}
