"""The stance settings the tracks with a trained stance classifier share (comparative, images): a run's `stance`
switch and the classifier's `stance_model` (c, folds). Each track reads its own `stance_training`, in its format."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argrank.core.errors import InputError

STANCE_MODEL_DEFAULTS = {"c": 1.0, "folds": 5}


def read_stance_model(path: Path, where: str, settings: Any, defaults: dict[str, float]) -> dict[str, float]:
    """The classifier's settings over `defaults`: `c` (inverse regularisation, > 0) and `folds` (cross-validation,
    ≥ 2)."""
    settings = {} if settings is None else settings
    if not isinstance(settings, dict):
        raise InputError(path, where, "expected a mapping with c and folds")
    unknown = sorted(set(settings) - set(STANCE_MODEL_DEFAULTS))
    if unknown:
        raise InputError(path, where, f"unknown setting(s) {', '.join(unknown)} (known: c, folds)")
    resolved = {**defaults, **settings}
    c, folds = resolved["c"], resolved["folds"]
    if isinstance(c, bool) or not isinstance(c, int | float) or not 0 < c < float("inf"):
        raise InputError(path, f"{where}.c", "expected a positive number")
    if isinstance(folds, bool) or not isinstance(folds, int) or folds < 2:
        raise InputError(path, f"{where}.folds", "expected an integer of at least 2")
    return {"c": float(c), "folds": folds}


def read_stance_switch(path: Path, where: str, run: dict) -> bool:
    """A run's `stance`: whether its column 2 carries stance labels."""
    stance = run.get("stance", False)
    if not isinstance(stance, bool):
        raise InputError(path, f"{where}.stance", "expected true or false")
    return stance


def check_stance_training(path: Path, where: str, training: Any, runs: tuple) -> None:
    """A run with stance needs the track's stance training set."""
    if not training and any(spec.stance for spec in runs):
        raise InputError(path, f"{where}.stance_training", "runs with stance need a stance training set")
