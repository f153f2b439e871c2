"""A synthetic args.me corpus at full size, for benchmarking the whole pipeline without the real download.

`generate_corpus(directory, arguments, seed, topics)` writes the real 2020-04-01 layout, which
`argsme.corpus_files`/`ingest_argsme` and `topics.read_topics` read unchanged:

    debateorg.json debatepedia.json debatewise.json idebate.json parliamentary.json   {"arguments": [...]}
    topics.xml                                                                         Touché Task 1 format
    synthetic-argsme.json                                                              parameters and stats

Each argument has the real record shape (premises [{text, stance, annotations}], context {sourceId,
previousArgumentInSourceId, acquisitionTime, discussionTitle, sourceTitle, sourceUrl, nextArgumentInSourceId},
id, conclusion), ids shaped `S<8 hex>-A<8 hex>` (unique: a bijective 32-bit mix of the debate's and the
argument's running number), arguments grouped into debates that share the source id, discussion title and
URL and are chained through previous/next.

Determinism: every random draw comes from numpy's PCG64 seeded by `SeedSequence([seed, stream, ...])`, one
stream per purpose, portal and batch; no clock, no hash randomisation, fixed JSON formatting. The same seed
(and the same pinned numpy and spacy-lookups-data) gives byte-identical files; another seed gives other files.

Text: words are real English, so spaCy's lookup lemmatizer and stop-word list act as on real text. The
vocabulary is spaCy's English stop words (the 305 alphabetic ones, ranks 1-305) followed by every lower-case
alphabetic key and value of spacy-lookups-data's English `lemma_lookup` table of 3 letters or more whose
lemma is no stop word (61,652 words; a few profanities and the frequency table's "deleted" left out). Within
each group words are ordered by spacy-lookups-data's English `lexeme_prob` (real word frequency) plus seeded
Gaussian jitter (σ = 0.5 in log-probability), so frequent words stay frequent and the seed reshuffles
neighbours. Tokens are drawn Zipf-style, P(rank r) ∝ 1/r (ZIPF_EXPONENT), which puts 54% of the draws on
stop words, as in English prose. About 4% of a premise's tokens are instead drawn from its debate's title,
so arguments are about something. Sentences (geometric length, mean 16 words) start with a capital and end
in ".", "?" or "!"; some words get a comma; about 1 sentence end in 8 starts a new paragraph ("\\n").

Topics: `topics` themes of 2-3 mid-frequency content words each. A quarter of all debates (and at least
one debate.org debate per theme when there are enough debates) take a theme: its words lead the debate
title, and so reach the premises. Each topic's title is a question about its theme ("Should <theme> be
banned?"), so every query has matching arguments; description and narrative name the theme too.

ASSUMPTIONS about lengths. The project holds no per-argument length figures of the real corpus, so these
are assumptions, chosen to look like debate-portal posts (many medium posts, a few essays, a share of
one-liners such as "I accept." in debate.org's opening and forfeited rounds):

- Premise length in words: with probability SHORT_SHARE = 5% a non-argument of 1-6 words taken from a fixed
  list ("I accept.", "Extend.", "Thanks for the debate." ...); otherwise, with probability TAIL_SHARE = 1.5%,
  a Pareto tail (α = 1.6 from 1,000 words, truncated at MAX_WORDS = 20,000), else a lognormal body
  (median 115, σ = 0.95, so its mean is ≈ 181; at least 7 words). Together: median ≈ 110, mean ≈ 200,
  p99 ≈ 1,500 and max ≈ 20,000 words at 387,740 arguments (≈ 78 M words, ≈ 0.74 GB of JSON).
- Conclusions are 2-15 words: on debate.org, debatewise and parliamentary the debate's title (as there,
  where every argument of a debate repeats it), on idebate and debatepedia a claim of its own.
- Debate sizes: 1 + Poisson(mean − 1) arguments, with means per portal in DEBATE_MEAN (debate.org ≈ 6,
  i.e. a few rounds of two sides; the curated portals 20-90 points per debate).
- Portal shares are the real ones: at 387,740 arguments exactly the 2020-04-01 counts (REAL_COUNTS),
  at other sizes those shares rounded by largest remainder (every portal keeps at least one argument once
  there are five).

The parts are in tools/argsme_synthesis/: the seeded streams, the vocabulary, the debates without text, the
records' text and JSON, and the topics. This module holds the parameters and the entry points.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from argrank.core.atomic import atomic_path
from argrank.tracks.args.layout import SOURCE_FILES
from tools.argsme_synthesis.debates import (
    DEBATE_MEAN,
    MAX_WORDS,
    NON_ARGUMENTS,
    REAL_COUNTS,
    SHORT_SHARE,
    TAIL_SHARE,
    Portal,
    premise_lengths,
)
from tools.argsme_synthesis.records import write_portal
from tools.argsme_synthesis.topics import QUESTIONS, THEME_RANKS, draw_themes, topics_xml
from tools.argsme_synthesis.vocabulary import ZIPF_EXPONENT, Vocabulary

__all__ = [
    "CORPUS_FILES", "DEBATE_MEAN", "DEFAULT_ARGUMENTS", "DEFAULT_TOPICS", "GENERATOR_VERSION", "MANIFEST", "MAX_TOPICS",
    "MAX_WORDS", "NON_ARGUMENTS", "QUESTIONS", "REAL_COUNTS", "SHORT_SHARE", "TAIL_SHARE", "THEME_RANKS", "TOPICS_FILE",
    "ZIPF_EXPONENT", "CorpusStats", "check_parameters", "generate_corpus", "is_complete", "portal_counts",
    "premise_lengths",
]  # fmt: skip

# Bump when the output for a given seed changes, so a complete() check never accepts an older corpus.
GENERATOR_VERSION = 1

DEFAULT_ARGUMENTS = 387_740
DEFAULT_TOPICS = 50
MAX_TOPICS = 500  # themes take 2-3 distinct words each from the THEME_RANKS window
TOPICS_FILE = "topics.xml"
MANIFEST = "synthetic-argsme.json"
CORPUS_FILES = (*SOURCE_FILES, TOPICS_FILE)


@dataclass(frozen=True)
class CorpusStats:
    """What was written: counts, premise word-count figures and the corpus's size."""

    arguments: int
    debates: int
    topics: int
    per_portal: dict[str, int] = field(hash=False)
    words_total: int
    words_mean: float
    words_median: float
    words_p99: float
    words_max: int
    short_share: float
    corpus_bytes: int

    def summary(self) -> str:
        portals = ", ".join(f"{name.removesuffix('.json')} {count:,}" for name, count in self.per_portal.items())
        return "\n".join(
            [
                f"arguments      {self.arguments:,} in {self.debates:,} debates ({portals})",
                f"topics         {self.topics}",
                f"premise words  mean {self.words_mean:.1f}, median {self.words_median:.0f}, "
                f"p99 {self.words_p99:.0f}, max {self.words_max:,}",
                f"non-arguments  {self.short_share:.2%} of premises (1-6 words)",
                f"total words    {self.words_total:,}",
                f"corpus bytes   {self.corpus_bytes:,} ({self.corpus_bytes / 2**20:,.1f} MiB in the five files)",
            ]
        )


def portal_counts(arguments: int = DEFAULT_ARGUMENTS) -> dict[str, int]:
    """Arguments per portal file: the real shares by largest remainder (ties to the earlier file), summing to
    `arguments`; every portal gets at least one once there are five. The default gives REAL_COUNTS exactly."""
    if arguments < 0:
        raise ValueError(f"arguments must be >= 0, not {arguments}")
    total = sum(REAL_COUNTS.values())
    names = list(REAL_COUNTS)
    counts = [arguments * REAL_COUNTS[name] // total for name in names]
    remainders = [arguments * REAL_COUNTS[name] % total for name in names]
    for position in sorted(range(len(names)), key=lambda i: (-remainders[i], i))[: arguments - sum(counts)]:
        counts[position] += 1
    if arguments >= len(names):
        for position in range(len(names)):
            if counts[position] == 0:
                counts[counts.index(max(counts))] -= 1
                counts[position] = 1
    return dict(zip(names, counts))


def generate_corpus(
    directory: str | Path, arguments: int = DEFAULT_ARGUMENTS, seed: int = 0, topics: int = DEFAULT_TOPICS
) -> CorpusStats:
    """Write the five args.me files, topics.xml and the manifest into `directory`; each file atomically.

    The manifest is removed first and written last, so it exists only beside a complete corpus of its
    parameters (see `is_complete`).
    """
    check_parameters(arguments, seed, topics)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / MANIFEST).unlink(missing_ok=True)
    vocabulary = Vocabulary.build(seed)
    themes = draw_themes(seed, topics, vocabulary)
    lengths, short, corpus_bytes, debates = [], 0, 0, 0
    first_debate = first_argument = 0
    counts = portal_counts(arguments)
    for index, (name, count) in enumerate(counts.items()):
        portal = Portal.draw(name, index, count, seed, vocabulary, themes, first_debate, first_argument)
        with atomic_path(directory / name) as tmp:
            corpus_bytes += write_portal(tmp, portal, vocabulary, seed)
        lengths.append(portal.words)
        short += int((portal.kind >= 0).sum())
        debates += portal.debates
        first_debate += portal.debates
        first_argument += count
    with atomic_path(directory / TOPICS_FILE) as tmp:
        tmp.write_bytes(topics_xml(themes, vocabulary, seed).encode("utf-8"))
    words = np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int64)
    stats = CorpusStats(
        arguments=arguments,
        debates=debates,
        topics=topics,
        per_portal=counts,
        words_total=int(words.sum()),
        words_mean=round(float(words.mean()), 3) if arguments else 0.0,
        words_median=float(np.median(words)) if arguments else 0.0,
        words_p99=round(float(np.percentile(words, 99)), 1) if arguments else 0.0,
        words_max=int(words.max()) if arguments else 0,
        short_share=round(short / arguments, 6) if arguments else 0.0,
        corpus_bytes=corpus_bytes,
    )
    manifest = {"generator": __name__, "version": GENERATOR_VERSION, **_parameters(arguments, seed, topics)}
    with atomic_path(directory / MANIFEST) as tmp:
        tmp.write_text(json.dumps({**manifest, "stats": asdict(stats)}, indent=2) + "\n", encoding="utf-8")
    return stats


def check_parameters(arguments: int, seed: int, topics: int) -> None:
    """ValueError naming the first parameter out of range."""
    if isinstance(arguments, bool) or not isinstance(arguments, int) or arguments < 1:
        raise ValueError(f"arguments must be a positive integer, not {arguments!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
    if isinstance(topics, bool) or not isinstance(topics, int) or not 1 <= topics <= MAX_TOPICS:
        raise ValueError(f"topics must be an integer from 1 to {MAX_TOPICS}, not {topics!r}")


def is_complete(directory: str | Path, arguments: int, seed: int, topics: int) -> bool:
    """Whether `directory` holds all six files and a manifest of these parameters and this generator version."""
    directory = Path(directory)
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    expected = {"generator": __name__, "version": GENERATOR_VERSION, **_parameters(arguments, seed, topics)}
    if not isinstance(manifest, dict) or any(manifest.get(key) != value for key, value in expected.items()):
        return False
    return all((directory / name).is_file() for name in CORPUS_FILES)


def _parameters(arguments: int, seed: int, topics: int) -> dict[str, int]:
    return {"arguments": arguments, "seed": seed, "topics": topics}
