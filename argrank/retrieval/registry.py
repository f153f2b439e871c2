"""The ranking models by name, so a runs file, a task and the CLI name one without knowing its class.

Each module of `retrieval.models` defines `MODEL`; they are found on first use, so a new model is one new module.
`resolve_params` checks a run's parameters against the model's, names and ranges, before any stage runs: a value
out of range (a negative k1, b above 1) either fails deep in a stage or, worse, ranks silently and badly.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Callable, Mapping

# A model's module imports Range from here, beside RankingModel.
from argrank.core.params import Range, checked_params

if TYPE_CHECKING:
    from argrank.index.statistics import CollectionStatistics
    from argrank.index.store import Index
    from argrank.retrieval.scorer import Scorer


MODELS = "argrank.retrieval.models"  # the package whose modules each define MODEL


@dataclass(frozen=True)
class RankingModel:
    """A model's name, its scorer (called with the index, its parameters and `statistics=`), its parameters'
    defaults (every parameter a number) and ranges, and a line saying what it is and what the parameters do.
    A `compiled` model scores with argrank.kernels: its scorer also takes `kernels=`, the `kernels` setting."""

    name: str
    scorer: Callable[..., Scorer]
    defaults: Mapping[str, float]
    ranges: Mapping[str, Range]
    description: str
    compiled: bool = False

    def __post_init__(self) -> None:
        if set(self.ranges) != set(self.defaults):
            raise ValueError(f"model {self.name}: a range for each parameter, no more ({', '.join(self.defaults)})")
        checked_params(self.name, self.defaults, self.defaults, self.ranges)


@cache
def models() -> dict[str, RankingModel]:
    """Every registered model by name, in name order. The package is imported by name, as its modules are: each
    imports this module (RankingModel), which imports none of them."""
    package = importlib.import_module(MODELS)
    found = [importlib.import_module(f"{MODELS}.{m.name}").MODEL for m in pkgutil.iter_modules(package.__path__)]
    return {model.name: model for model in sorted(found, key=lambda model: model.name)}


def resolve_params(method: str, params: Mapping[str, Any]) -> dict[str, float]:
    """The model's full parameter set: defaults filled in; unknown names, non-numbers and values out of the
    parameter's range rejected (ValueError)."""
    if method not in models():
        raise ValueError(f"unknown ranking method {method!r} (known: {', '.join(models())})")
    model = models()[method]
    return {**model.defaults, **checked_params(method, params, model.defaults, model.ranges)}


def make_ranker(
    index: Index,
    method: str,
    params: Mapping[str, Any],
    statistics: CollectionStatistics | None = None,
    kernels: str = "auto",
) -> Scorer:
    """The named model over `index`; `statistics` are the whole collection's where `index` is one shard of it;
    `kernels` chooses the build of a compiled model's kernels (argrank.kernels.choose)."""
    model = models()[method]
    compiled = {"kernels": kernels} if model.compiled else {}
    return model.scorer(index, **resolve_params(method, params), statistics=statistics, **compiled)
