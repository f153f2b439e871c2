"""The ranking models by name, so a runs file, a task and the CLI name one without knowing its class.

Each module of `retrieval.models` defines `MODEL`; they are found on first use, so a new model is one new module.
`resolve_params` checks a run's parameters against the model's, names and ranges, before any stage runs: a value
out of range (a negative k1, b above 1) either fails deep in a stage or, worse, ranks silently and badly.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import sys
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:
    from argrank.index.statistics import CollectionStatistics
    from argrank.index.store import Index
    from argrank.retrieval.scorer import Scorer


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


@dataclass(frozen=True)
class RankingModel:
    """A model's name, its scorer (called with the index, its parameters and `statistics=`), its parameters'
    defaults (every parameter a number) and ranges, and a line saying what it is and what the parameters do."""

    name: str
    scorer: Callable[..., Scorer]
    defaults: Mapping[str, float]
    ranges: Mapping[str, Range]
    description: str

    def __post_init__(self) -> None:
        if set(self.ranges) != set(self.defaults):
            raise ValueError(f"model {self.name}: a range for each parameter, no more ({', '.join(self.defaults)})")
        checked_params(self.name, self.defaults, self.defaults, self.ranges)


@cache
def models() -> dict[str, RankingModel]:
    """Every registered model by name, in name order."""
    from argrank.retrieval import models as package

    found = [
        importlib.import_module(f"{package.__name__}.{m.name}").MODEL for m in pkgutil.iter_modules(package.__path__)
    ]
    return {model.name: model for model in sorted(found, key=lambda model: model.name)}


def resolve_params(method: str, params: Mapping[str, Any]) -> dict[str, float]:
    """The model's full parameter set: defaults filled in; unknown names, non-numbers and values out of the
    parameter's range rejected (ValueError)."""
    if method not in models():
        raise ValueError(f"unknown ranking method {method!r} (known: {', '.join(models())})")
    model = models()[method]
    return {**model.defaults, **checked_params(method, params, model.defaults, model.ranges)}


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


def make_ranker(
    index: Index, method: str, params: Mapping[str, Any], statistics: CollectionStatistics | None = None
) -> Scorer:
    """The named model over `index`; `statistics` are the whole collection's where `index` is one shard of it."""
    return models()[method].scorer(index, **resolve_params(method, params), statistics=statistics)
