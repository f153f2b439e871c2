"""What the perspective track learns from a release's training queries (ranking.training_from_queries), which the
implicit scenario's property guess (property_guess) and its ranking (ranking) read."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Training:
    """What the training queries teach: each issue's arguments (positions in the index's document order), each
    training question's issue (by its text, in every language it is asked in) and, per property (key, value),
    arguments known to have it and known not to."""

    issues: list[np.ndarray]
    properties: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]
    questions: dict[str, int] = field(default_factory=dict)
