"""The synthetic corpus's topics: themes of 2-3 mid-frequency content words, which some debates' titles lead with,
and topics.xml in the Touché Task 1 format, one question about each theme.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

import numpy as np

from tools.argsme_synthesis import streams
from tools.argsme_synthesis.vocabulary import Vocabulary

THEME_RANKS = (100, 3_000)  # content-word ranks themes draw from: topical, neither rare nor function-like
QUESTIONS = (
    "Should {} be banned?", "Is {} good for society?", "Should {} be allowed?", "Is {} beneficial?",
    "Should governments support {}?", "Is {} a good idea?", "Should {} be encouraged?", "Is {} harmful?",
)  # fmt: skip


def draw_themes(seed: int, topics: int, vocabulary: Vocabulary) -> list[np.ndarray]:
    """Per topic, 2-3 distinct content-word ids from the THEME_RANKS window."""
    rng = streams.rng_for(seed, streams.THEMES)
    sizes = rng.integers(2, 4, size=topics)
    low, high = THEME_RANKS
    high = min(high, vocabulary.size - vocabulary.stop_count)
    picked = vocabulary.stop_count + low + rng.choice(high - low, size=int(sizes.sum()), replace=False)
    return np.split(picked, np.cumsum(sizes)[:-1])


def topics_xml(themes: list[np.ndarray], vocabulary: Vocabulary, seed: int) -> str:
    """Touché Task 1 topics: number, a question about the theme, description and narrative."""
    rng = streams.rng_for(seed, streams.THEMES, 1)
    templates = rng.integers(len(QUESTIONS), size=len(themes))
    parts = ["<topics>"]
    for number, (theme, template) in enumerate(zip(themes, templates.tolist()), start=1):
        words = [vocabulary.words[i] for i in theme.tolist()]
        phrase = " ".join(words)
        title = QUESTIONS[template].format(phrase)
        description = (
            f"A user has come across debates about {phrase} and wants to form an opinion. "
            f"They look for arguments for and against {phrase}."
        )
        narrative = (
            f"Highly relevant arguments take a clear position on {phrase} and give reasons. "
            f"Arguments on closely related questions are relevant. Arguments that only mention "
            f'{" or ".join(words)} in passing, and non-arguments such as "I accept.", are not relevant.'
        )
        parts += [
            "<topic>",
            f"<number>{number}</number>",
            f"<title>{escape(title)}</title>",
            f"<description>\n{escape(description)}\n</description>",
            f"<narrative>\n{escape(narrative)}\n</narrative>",
            "</topic>",
        ]
    parts.append("</topics>")
    return "\n".join(parts) + "\n"
