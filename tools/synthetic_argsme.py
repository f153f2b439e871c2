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
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterator
from xml.sax.saxutils import escape

import numpy as np
import spacy_lookups_data

from argrank.core.atomic import atomic_path
from argrank.tracks.args.layout import SOURCE_FILES

# Bump when the output for a given seed changes, so a complete() check never accepts an older corpus.
GENERATOR_VERSION = 1

DEFAULT_ARGUMENTS = 387_740
DEFAULT_TOPICS = 50
MAX_TOPICS = 500  # themes take 2-3 distinct words each from the THEME_RANKS window
TOPICS_FILE = "topics.xml"
MANIFEST = "synthetic-argsme.json"
CORPUS_FILES = (*SOURCE_FILES, TOPICS_FILE)

# args.me 2020-04-01, arguments per portal file.
REAL_COUNTS = {
    "debateorg.json": 338_620,
    "debatepedia.json": 21_197,
    "debatewise.json": 14_353,
    "idebate.json": 13_522,
    "parliamentary.json": 48,
}
DEBATE_MEAN = {  # assumed mean arguments per debate
    "debateorg.json": 6.0,
    "debatepedia.json": 90.0,
    "debatewise.json": 21.0,
    "idebate.json": 22.0,
    "parliamentary.json": 12.0,
}
OWN_CONCLUSIONS = frozenset({"debatepedia.json", "idebate.json"})  # per-argument claims, not the title

# Lengths (assumptions; see the module docstring).
SHORT_SHARE = 0.05
TAIL_SHARE = 0.015
BODY_MEDIAN = 115.0
BODY_SIGMA = 0.95
BODY_MIN = 7
TAIL_START = 1_000.0
TAIL_ALPHA = 1.6
MAX_WORDS = 20_000
NON_ARGUMENTS = (
    "I accept.", "Extend.", "Thanks for the debate.", "Forfeited.", "Extend my arguments.", "Vote Pro!",
    "Vote Con!", "I agree.", "No.", "Pass.", "Thank you.", "Good luck!", "I forfeit this round.",
    "Arguments extended.", "Thanks for accepting.", "I accept this debate.", "Please vote for me.",
    "All arguments extended.", "Thanks, vote Con.", "Extend all arguments.", "I concede.", "Good debate.",
    "My opponent forfeited.", "Nothing to add.", "Rebuttals next round.", "I accept, good luck.",
)  # fmt: skip

# Text.
ZIPF_EXPONENT = 1.0
VOCAB_JITTER = 0.5
TOPIC_WORD_SHARE = 0.04
SENTENCE_MEAN = 16.0
COMMA_SHARE = 0.06
PARAGRAPH_SHARE = 0.125
QUESTION_SHARE, EXCLAMATION_SHARE = 0.07, 0.04
THEME_SHARE = 0.25
THEME_RANKS = (100, 3_000)  # content-word ranks themes draw from: topical, neither rare nor function-like
BATCH = 4_096  # arguments per drawn and written batch

_SUFFIXES = (" ", ", ", ". ", "? ", "! ", ".\n", ".\0", "?\0", "!\0")  # "\0" ends a premise in a batch's text
_CONNECTORS = ("should be", "is", "are", "should", "is better than", "and", "in", "for", "vs")
_QUESTIONS = (
    "Should {} be banned?", "Is {} good for society?", "Should {} be allowed?", "Is {} beneficial?",
    "Should governments support {}?", "Is {} a good idea?", "Should {} be encouraged?", "Is {} harmful?",
)  # fmt: skip
_IDEBATE_AREAS = ("politics", "society", "economy", "education", "health", "law", "science", "culture")
_LEFT_OUT = frozenset({"deleted"})  # the frequency table's "[deleted]" placeholder makes it the top content word
_PROFANE = re.compile(  # prefixes, then whole words
    r"(fuck|shit|cunt|bitch|nigg|whore|slut|retard|twat|wank|piss).*|(ass(es|holes?)?|dicks?|cocks?|fag(s|gots?)?)"
)

# SeedSequence streams.
_VOCAB, _THEMES, _SKELETON, _TEXT, _IDS = range(5)
_MASK32 = np.uint64(0xFFFFFFFF)


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


def premise_lengths(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Word counts of `n` premises and, per premise, the index into NON_ARGUMENTS of a short one (else -1)."""
    short = rng.random(n) < SHORT_SHARE
    kind = np.where(short, rng.integers(len(NON_ARGUMENTS), size=n), -1).astype(np.int16)
    body = np.exp(np.log(BODY_MEDIAN) + BODY_SIGMA * rng.standard_normal(n))
    truncation = 1.0 - (TAIL_START / MAX_WORDS) ** TAIL_ALPHA
    tail = TAIL_START * (1.0 - rng.random(n) * truncation) ** (-1.0 / TAIL_ALPHA)
    words = np.where(rng.random(n) < TAIL_SHARE, tail, body)
    words = np.clip(np.rint(words), BODY_MIN, MAX_WORDS).astype(np.int64)
    short_words = np.array([len(text.split()) for text in NON_ARGUMENTS], dtype=np.int64)
    words[short] = short_words[kind[short]]
    return words, kind


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
    vocabulary = _Vocabulary.build(seed)
    themes = _themes(seed, topics, vocabulary)
    lengths, short, corpus_bytes, debates = [], 0, 0, 0
    first_debate = first_argument = 0
    counts = portal_counts(arguments)
    for index, (name, count) in enumerate(counts.items()):
        portal = _Portal.draw(name, index, count, seed, vocabulary, themes, first_debate, first_argument)
        with atomic_path(directory / name) as tmp:
            corpus_bytes += _write_portal(tmp, portal, vocabulary, seed)
        lengths.append(portal.words)
        short += int((portal.kind >= 0).sum())
        debates += portal.debates
        first_debate += portal.debates
        first_argument += count
    with atomic_path(directory / TOPICS_FILE) as tmp:
        tmp.write_bytes(_topics_xml(themes, vocabulary, seed).encode("utf-8"))
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


def _rng(seed: int, *stream: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, *stream])))


# --- vocabulary ------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _english_words() -> tuple[tuple[str, ...], np.ndarray, tuple[str, ...], np.ndarray]:
    """(stop words, their log-probabilities, content words, theirs), each group sorted alphabetically."""
    from spacy.lang.en.stop_words import STOP_WORDS  # here: importing spaCy takes a second the CLI need not pay

    data = Path(spacy_lookups_data.__file__).parent / "data"
    with gzip.open(data / "en_lemma_lookup.json.gz", "rt", encoding="utf-8") as handle:
        lemmas = json.load(handle)
    alphabetic = re.compile(r"[a-z]+")
    stop = sorted(word for word in STOP_WORDS if alphabetic.fullmatch(word))
    stop_set = set(stop)
    content = sorted(
        word
        for word in {*lemmas, *(value for value in lemmas.values() if isinstance(value, str))}
        if alphabetic.fullmatch(word)
        and len(word) >= 3
        and word not in stop_set
        and lemmas.get(word, word) not in stop_set  # "hundreds" -> "hundred", a stop word: no index term
        and word not in _LEFT_OUT
        and not _PROFANE.fullmatch(word)
    )
    # The table has a million entries; a dict of them all would cost ~200 MB, so scan the text for ours.
    with gzip.open(data / "en_lexeme_prob.json.gz", "rt", encoding="utf-8") as handle:
        text = handle.read()
    wanted = {*stop, *content}
    probabilities = {
        match[1]: float(match[2])
        for match in re.finditer(r'^\s*"([a-z]+)"\s*:\s*(-?[0-9.eE+-]+)', text, re.MULTILINE)
        if match[1] in wanted
    }
    del text
    floor = min(probabilities.values()) - 1.0

    def logprob(words: list[str]) -> np.ndarray:
        return np.array([probabilities.get(word, floor) for word in words], dtype=np.float64)

    return tuple(stop), logprob(stop), tuple(content), logprob(content)


@dataclass(frozen=True)
class _Vocabulary:
    """Words by Zipf rank (stop words first), their lower-case and capitalised forms, and rank samplers."""

    words: tuple[str, ...]
    forms: np.ndarray  # object: lower-case forms (ranks 0..V-1), then capitalised ones (V..2V-1)
    stop_count: int
    cdf: np.ndarray  # over all ranks
    content_cdf: np.ndarray  # over content ranks only (offset stop_count)

    @classmethod
    def build(cls, seed: int) -> _Vocabulary:
        stop, stop_logprob, content, content_logprob = _english_words()
        rng = _rng(seed, _VOCAB)
        ordered: list[str] = []
        for words, logprob in ((stop, stop_logprob), (content, content_logprob)):
            key = logprob + rng.normal(0.0, VOCAB_JITTER, len(words))
            ordered.extend(words[i] for i in np.argsort(-key, kind="stable"))
        lower = ["I" if word == "i" else word for word in ordered]
        forms = np.array(lower + [word[0].upper() + word[1:] for word in ordered], dtype=object)
        return cls(tuple(ordered), forms, len(stop), _zipf_cdf(len(ordered)), _zipf_cdf(len(content)))

    @property
    def size(self) -> int:
        return len(self.words)

    def draw(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """`n` word ids, Zipf over all ranks."""
        return np.minimum(np.searchsorted(self.cdf, rng.random(n), side="right"), self.size - 1)

    def draw_content(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """`n` content-word ids, Zipf over content ranks."""
        ranks = np.searchsorted(self.content_cdf, rng.random(n), side="right")
        return self.stop_count + np.minimum(ranks, self.size - self.stop_count - 1)


def _zipf_cdf(size: int) -> np.ndarray:
    weights = np.arange(1, size + 1, dtype=np.float64) ** -ZIPF_EXPONENT
    cdf = np.cumsum(weights)
    return cdf / cdf[-1]


def _themes(seed: int, topics: int, vocabulary: _Vocabulary) -> list[np.ndarray]:
    """Per topic, 2-3 distinct content-word ids from the THEME_RANKS window."""
    rng = _rng(seed, _THEMES)
    sizes = rng.integers(2, 4, size=topics)
    low, high = THEME_RANKS
    high = min(high, vocabulary.size - vocabulary.stop_count)
    picked = vocabulary.stop_count + low + rng.choice(high - low, size=int(sizes.sum()), replace=False)
    return np.split(picked, np.cumsum(sizes)[:-1])


# --- debates and arguments, without text ---------------------------------------------------------------------


@dataclass
class _Portal:
    """One portal file's arguments and debates, everything but the premise text (small: no text)."""

    name: str
    index: int
    count: int
    debates: int
    debate_of: np.ndarray  # per argument
    words: np.ndarray  # per argument
    kind: np.ndarray  # per argument: NON_ARGUMENTS index or -1
    stance: np.ndarray  # per argument: 0 PRO, 1 CON
    title_ids: list[np.ndarray]  # per debate: its title's content-word ids
    title_flat: np.ndarray  # the same, concatenated
    title_start: np.ndarray  # per debate: where its ids start in title_flat
    title_end: np.ndarray
    strings: list[tuple[str, ...]]  # per debate: JSON-quoted sourceId, time, discussionTitle, sourceTitle, URL
    conclusions: list[str]  # per debate: the title (conclusion where not OWN_CONCLUSIONS)
    source_ids: list[str]  # per debate: 8 hex digits
    seed: int
    first_argument: int  # the running number of the portal's first argument over all five files

    @classmethod
    def draw(
        cls,
        name: str,
        index: int,
        count: int,
        seed: int,
        vocabulary: _Vocabulary,
        themes: list[np.ndarray],
        first_debate: int,
        first_argument: int,
    ) -> _Portal:
        rng = _rng(seed, _SKELETON, index)
        mean = DEBATE_MEAN[name]
        sizes = np.zeros(0, dtype=np.int64)
        while sizes.sum() < count:
            sizes = np.concatenate([sizes, 1 + rng.poisson(mean - 1.0, size=int(count / mean) + 16)])
        ends = np.cumsum(sizes)
        debates = int(np.searchsorted(ends, count)) + 1 if count else 0
        sizes = sizes[:debates]
        if debates:
            sizes[-1] -= int(ends[debates - 1]) - count
        debate_of = np.repeat(np.arange(debates), sizes)
        position = np.arange(count) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        words, kind = premise_lengths(rng, count)
        if name == "debateorg.json":  # rounds alternate between the two sides
            stance = ((rng.integers(2, size=debates)[debate_of] + position) % 2).astype(np.uint8)
        else:
            stance = rng.integers(2, size=count).astype(np.uint8)

        theme = np.where(rng.random(debates) < THEME_SHARE, rng.integers(len(themes), size=debates), -1)
        if index == 0:  # every theme gets at least one debate.org debate, where there are enough debates
            forced = rng.permutation(debates)[: len(themes)]
            theme[forced] = np.arange(len(forced))
        extra = np.clip(1 + rng.poisson(3.0, size=debates), 2, 12)
        extra = np.where(theme >= 0, np.clip(extra - 2, 0, 9), extra)
        drawn = vocabulary.draw_content(rng, int(extra.sum()))
        connect = rng.random(debates)
        connector = rng.integers(len(_CONNECTORS), size=debates)
        seconds = rng.integers(5 * 86_400, size=debates)
        times = np.datetime_as_string(np.datetime64("2019-04-15T00:00:00") + seconds.astype("timedelta64[s]"), "s")
        serial = rng.integers(1, 10_000, size=debates)
        source_ids = _hex_ids(seed, 0, first_debate + np.arange(debates))

        title_ids, strings, conclusions = [], [], []
        offset = 0
        for d in range(debates):
            own = drawn[offset : offset + extra[d]]
            offset += extra[d]
            ids = np.concatenate([themes[theme[d]], own]) if theme[d] >= 0 else own
            title_ids.append(ids)
            words_ = [vocabulary.words[i] for i in ids]
            if len(words_) >= 3 and connect[d] < 0.6:
                cut = max(1, len(words_) // 2)
                words_ = [*words_[:cut], *_CONNECTORS[connector[d]].split(), *words_[cut:]][:15]
            title = " ".join(words_)
            title = title[0].upper() + title[1:]
            discussion, source_title, url = _source(name, title, words_, int(serial[d]), str(times[d]), source_ids[d])
            quote = json.encoder.encode_basestring_ascii
            strings.append(
                (quote(f"S{source_ids[d]}"), quote(f"{times[d]}Z"), quote(discussion), quote(source_title), quote(url))
            )
            conclusions.append(title)

        title_end = np.cumsum([len(ids) for ids in title_ids], dtype=np.int64)
        title_flat = np.concatenate(title_ids) if title_ids else np.zeros(0, dtype=np.int64)
        return cls(
            name, index, count, debates, debate_of, words, kind, stance, title_ids, title_flat,
            title_end - np.array([len(ids) for ids in title_ids], dtype=np.int64), title_end, strings,
            conclusions, source_ids, seed, first_argument,
        )  # fmt: skip


    def argument_ids(self, start: int, stop: int) -> list[str]:
        """Ids of the portal's arguments start..stop-1: `S<debate's hex>-A<argument's hex>`."""
        numbers = self.first_argument + np.arange(start, stop)
        debates = self.debate_of[start:stop].tolist()
        return [f"S{self.source_ids[d]}-A{a}" for d, a in zip(debates, _hex_ids(self.seed, 1, numbers))]


def _source(name: str, title: str, words: list[str], serial: int, time: str, source_id: str) -> tuple[str, str, str]:
    """(discussionTitle, sourceTitle, sourceUrl) in the style of the portal."""
    slug = "-".join(words).lower()
    if name == "debateorg.json":
        hyphenated = "-".join(word[0].upper() + word[1:] for word in words)
        url = f"https://www.debate.org/debates/{hyphenated}/{serial % 5 + 1}/"
        return title, f"Debate Argument: {title} | Debate.org", url
    if name == "debatepedia.json":
        url = f"http://www.debatepedia.org/en/index.php/Debate:_{title.replace(' ', '_')}"
        return title, f"Debate: {title} - Debatepedia", url
    if name == "debatewise.json":
        return title, f"{title} - DebateWise", f"https://debatewise.org/debates/{serial}-{slug}/"
    if name == "idebate.json":
        motion = f"This House would {title[0].lower()}{title[1:]}"
        area = _IDEBATE_AREAS[serial % len(_IDEBATE_AREAS)]
        return motion, f"{motion} | idebate.org", f"https://idebate.org/debatabase/{area}/this-house-would-{slug}"
    camel = "".join(word[0].upper() + word[1:] for word in words)
    url = f"https://hansard.parliament.uk/Commons/{time[:10]}/debates/{source_id.upper()}/{camel}"
    return title, f"Parliamentary debate: {title}", url


def _hex_ids(seed: int, kind: int, numbers: np.ndarray) -> list[str]:
    """8 hex digits per number: a seeded bijection of 32-bit integers, so distinct numbers get distinct ids."""
    keys = np.random.SeedSequence([seed, _IDS, kind]).generate_state(4, dtype=np.uint32).astype(np.uint64)
    x = numbers.astype(np.uint64) & _MASK32
    x = (x * (keys[0] | np.uint64(1)) + keys[1]) & _MASK32
    for shift, multiplier in ((16, np.uint64(0x7FEB352D)), (15, keys[2] | np.uint64(1)), (16, keys[3] | np.uint64(1))):
        x ^= x >> np.uint64(shift)
        x = (x * multiplier) & _MASK32
    x ^= x >> np.uint64(16)
    return [f"{value:08x}" for value in x.tolist()]


# --- text and JSON ------------------------------------------------------------------------------------------


def _premise_texts(
    rng: np.random.Generator, words: np.ndarray, debate_of: np.ndarray, portal: _Portal, vocabulary: _Vocabulary
) -> list[str]:
    """Texts of premises of the given word counts (all of them real arguments), drawn as one token stream."""
    if len(words) == 0:
        return []
    total = int(words.sum())
    ids = vocabulary.draw(rng, total)
    topical = np.flatnonzero(rng.random(total) < TOPIC_WORD_SHARE)
    if len(topical):
        debate = debate_of[np.repeat(np.arange(len(words)), words)[topical]]
        lengths = portal.title_end[debate] - portal.title_start[debate]
        picks = (rng.random(len(topical)) * lengths).astype(np.int64)
        ids[topical] = portal.title_flat[portal.title_start[debate] + picks]
    last = np.cumsum(words) - 1
    sentence_end = rng.random(total) < 1.0 / SENTENCE_MEAN
    sentence_end[last] = True
    capital = np.empty(total, dtype=bool)
    capital[0] = True
    capital[1:] = sentence_end[:-1]
    mark = rng.random(total)
    ending = np.where(mark < QUESTION_SHARE, 1, np.where(mark < QUESTION_SHARE + EXCLAMATION_SHARE, 2, 0))
    suffix = np.where(rng.random(total) < COMMA_SHARE, 1, 0)
    paragraph = (ending == 0) & (rng.random(total) < PARAGRAPH_SHARE)
    suffix = np.where(sentence_end, np.where(paragraph, 5, 2 + ending), suffix)
    suffix[last] = 6 + ending[last]
    tokens = np.empty(2 * total, dtype=object)
    tokens[0::2] = vocabulary.forms[ids + capital * vocabulary.size]
    tokens[1::2] = np.array(_SUFFIXES, dtype=object)[suffix]
    return "".join(tokens.tolist()).split("\0")[:-1]


def _conclusion(rng: np.random.Generator, title_ids: np.ndarray, vocabulary: _Vocabulary) -> str:
    """A claim of 2-15 words: Zipf words around one word of the debate's title."""
    size = int(np.clip(2 + rng.poisson(4.0), 2, 15))
    ids = vocabulary.draw(rng, size)
    ids[int(rng.integers(size))] = title_ids[int(rng.integers(len(title_ids)))]
    text = " ".join(vocabulary.words[i] for i in ids.tolist())
    return text[0].upper() + text[1:]


_RECORD = """  {{
    "premises": [
      {{
        "text": {text},
        "stance": "{stance}",
        "annotations": []
      }}
    ],
    "context": {{
      "sourceId": {source},
      "previousArgumentInSourceId": {previous},
      "acquisitionTime": {time},
      "discussionTitle": {discussion},
      "sourceTitle": {title},
      "sourceUrl": {url},
      "nextArgumentInSourceId": {next}
    }},
    "id": "{id}",
    "conclusion": {conclusion}
  }}"""


def _write_portal(path: Path, portal: _Portal, vocabulary: _Vocabulary, seed: int) -> int:
    """Write one portal file batch by batch; the number of bytes written."""
    written = 0
    with open(path, "wb") as handle:
        for number, chunk in enumerate(_portal_chunks(portal, vocabulary, seed)):
            data = (("{\n\"arguments\": [\n" if number == 0 else ",\n") + chunk).encode("ascii")
            handle.write(data)
            written += len(data)
        tail = ("\n]\n}\n" if portal.count else "{\n\"arguments\": []\n}\n").encode("ascii")
        handle.write(tail)
    return written + len(tail)


def _portal_chunks(portal: _Portal, vocabulary: _Vocabulary, seed: int) -> Iterator[str]:
    """The JSON of the portal's arguments, one string per batch of BATCH arguments."""
    quote = json.encoder.encode_basestring_ascii
    stances = ("PRO", "CON")
    own_conclusions = portal.name in OWN_CONCLUSIONS
    for batch, start in enumerate(range(0, portal.count, BATCH)):
        stop = min(start + BATCH, portal.count)
        rng = _rng(seed, _TEXT, portal.index, batch)
        kind = portal.kind[start:stop]
        debate_of = portal.debate_of[start:stop]
        real = np.flatnonzero(kind < 0)
        texts = iter(_premise_texts(rng, portal.words[start:stop][real], debate_of[real], portal, vocabulary))
        low = max(start - 1, 0)
        ids = portal.argument_ids(low, min(stop + 1, portal.count))
        # Neighbours' debates, to know where a debate starts and ends (-1: none).
        around = portal.debate_of[max(start - 1, 0) : stop + 1].tolist()
        if start == 0:
            around.insert(0, -1)
        if stop == portal.count:
            around.append(-1)
        records = []
        for i, k, stance in zip(range(start, stop), kind.tolist(), portal.stance[start:stop].tolist()):
            previous_debate, d, next_debate = around[i - start : i - start + 3]
            first, last = previous_debate != d, next_debate != d
            source, time, discussion, title, url = portal.strings[d]
            text = next(texts) if k < 0 else NON_ARGUMENTS[k]
            conclusion = _conclusion(rng, portal.title_ids[d], vocabulary) if own_conclusions else portal.conclusions[d]
            records.append(
                _RECORD.format(
                    text=quote(text),
                    stance=stances[stance],
                    source=source,
                    previous='""' if first else f'"{ids[i - 1 - low]}"',
                    time=time,
                    discussion=discussion,
                    title=title,
                    url=url,
                    next='""' if last else f'"{ids[i + 1 - low]}"',
                    id=ids[i - low],
                    conclusion=quote(conclusion),
                )
            )
        yield ",\n".join(records)


# --- topics -------------------------------------------------------------------------------------------------


def _topics_xml(themes: list[np.ndarray], vocabulary: _Vocabulary, seed: int) -> str:
    """Touché Task 1 topics: number, a question about the theme, description and narrative."""
    rng = _rng(seed, _THEMES, 1)
    templates = rng.integers(len(_QUESTIONS), size=len(themes))
    parts = ["<topics>"]
    for number, (theme, template) in enumerate(zip(themes, templates.tolist()), start=1):
        words = [vocabulary.words[i] for i in theme.tolist()]
        phrase = " ".join(words)
        title = _QUESTIONS[template].format(phrase)
        description = (
            f"A user has come across debates about {phrase} and wants to form an opinion. "
            f"They look for arguments for and against {phrase}."
        )
        narrative = (
            f"Highly relevant arguments take a clear position on {phrase} and give reasons. "
            f"Arguments on closely related questions are relevant. Arguments that only mention "
            f"{' or '.join(words)} in passing, and non-arguments such as \"I accept.\", are not relevant."
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
