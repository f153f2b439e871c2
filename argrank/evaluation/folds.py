"""What cross-validation reports beside a held-out figure: how the outer folds' figures spread."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def fold_spread(values: Sequence[float]) -> dict[str, float]:
    """A figure's spread over the folds: its sample standard deviation (n − 1; 0 for one fold), least and greatest
    (each nan for no fold)."""
    if not len(values):
        return {"sd": float("nan"), "min": float("nan"), "max": float("nan")}
    return {"sd": float(np.std(values, ddof=1)) if len(values) > 1 else 0.0, "min": float(min(values)),
            "max": float(max(values))}  # fmt: skip
