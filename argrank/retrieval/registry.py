"""The ranking models by name, so a runs file, a task and the CLI name one without knowing its class.

Each module of `retrieval.models` defines `MODEL`; they are found on first use, so a new model is one new module.
`resolve_params` checks a run's parameters against the model's before any stage runs.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:
    from argrank.index.statistics import CollectionStatistics
    from argrank.index.store import Index
    from argrank.retrieval.scorer import Scorer


@dataclass(frozen=True)
class RankingModel:
    """A model's name, its scorer (called with the index, its parameters and `statistics=`), its parameters'
    defaults (every parameter a number) and a line saying what it is and what the parameters do."""

    name: str
    scorer: Callable[..., Scorer]
    defaults: Mapping[str, float]
    description: str


@cache
def models() -> dict[str, RankingModel]:
    """Every registered model by name, in name order."""
    from argrank.retrieval import models as package

    found = [
        importlib.import_module(f"{package.__name__}.{m.name}").MODEL for m in pkgutil.iter_modules(package.__path__)
    ]
    return {model.name: model for model in sorted(found, key=lambda model: model.name)}


def resolve_params(method: str, params: Mapping[str, Any]) -> dict[str, float]:
    """The model's full parameter set: defaults filled in, unknown names and non-numbers rejected (ValueError)."""
    if method not in models():
        raise ValueError(f"unknown ranking method {method!r} (known: {', '.join(models())})")
    defaults = models()[method].defaults
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)} for {method} (known: {', '.join(defaults)})")
    resolved = dict(defaults)
    for name, value in params.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"parameter {name} of {method} must be a finite number, got {value!r}")
        resolved[name] = float(value)
    return resolved


def make_ranker(
    index: Index, method: str, params: Mapping[str, Any], statistics: CollectionStatistics | None = None
) -> Scorer:
    """The named model over `index`; `statistics` are the whole collection's where `index` is one shard of it."""
    return models()[method].scorer(index, **resolve_params(method, params), statistics=statistics)
