"""What cross-validation reports beside a held-out figure: how the outer folds' figures spread, and how the figure
moves between draws of the folds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np


def fold_spread(values: Sequence[float]) -> dict[str, float]:
    """A figure's spread over the folds: its sample standard deviation (n − 1; 0 for one fold), least and greatest
    (each nan for no fold)."""
    if not len(values):
        return {"sd": float("nan"), "min": float("nan"), "max": float("nan")}
    return {"sd": float(np.std(values, ddof=1)) if len(values) > 1 else 0.0, "min": float(min(values)),
            "max": float(max(values))}  # fmt: skip


def draws_summary(seeds: Sequence[int], figures: Mapping[str, Sequence[float]]) -> dict[str, Any]:
    """Figures of whole cross-validations repeated with other shuffles of the folds, one value per seed under each
    name: the seeds, the values, their mean (`mean_NAME`) and spread over the draws (`NAME_spread`): how much a
    held-out figure owes to one draw of the folds."""
    for name, values in figures.items():
        if len(values) != len(seeds):
            raise ValueError(f"{name}: {len(values)} figures for {len(seeds)} seeds")
    return {"seeds": list(seeds), **{name: [float(v) for v in values] for name, values in figures.items()},
            **{f"mean_{name}": float(np.mean(values)) for name, values in figures.items()},
            **{f"{name}_spread": fold_spread(values) for name, values in figures.items()}}  # fmt: skip


def draws_text(draws: Mapping[str, Any], shown: Mapping[str, str]) -> str:
    """One line of draws_summary's figures: each name in `shown` under its label, its mean and range over the
    draws."""
    seeds = draws["seeds"]
    means = [f"{label} mean {draws[f'mean_{name}']:.4f}, {draws[f'{name}_spread']['min']:.4f} to "
             f"{draws[f'{name}_spread']['max']:.4f} (sd {draws[f'{name}_spread']['sd']:.4f})"
             for name, label in shown.items()]  # fmt: skip
    return f"over {len(seeds)} draws of the folds (seeds {seeds[0]} to {seeds[-1]}): {', '.join(means)}"
