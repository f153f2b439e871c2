"""Seeded random streams of the synthetic args.me corpus: one numpy PCG64 generator per purpose (and per portal
and batch), seeded by `SeedSequence([seed, stream, ...])`, so that each draw is independent of how much the others
draw and the same seed gives the same corpus.
"""

from __future__ import annotations

import numpy as np

VOCAB, THEMES, SKELETON, TEXT, IDS = range(5)


def rng_for(seed: int, *stream: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, *stream])))
