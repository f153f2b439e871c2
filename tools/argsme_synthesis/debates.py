"""The synthetic corpus's portals and debates, everything but the premise text: the real portal sizes, debate sizes,
premise lengths, stances, debate titles, source ids, URLs and argument ids. The lengths and debate sizes are
assumptions; tools/synthetic_argsme.py's docstring gives them and why.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from tools.argsme_synthesis import streams
from tools.argsme_synthesis.vocabulary import Vocabulary

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

# Lengths (assumptions; see tools/synthetic_argsme.py's docstring).
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

THEME_SHARE = 0.25  # of debates whose title leads with a topic's theme
_CONNECTORS = ("should be", "is", "are", "should", "is better than", "and", "in", "for", "vs")
_IDEBATE_AREAS = ("politics", "society", "economy", "education", "health", "law", "science", "culture")
_MASK32 = np.uint64(0xFFFFFFFF)


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


@dataclass
class Portal:
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
        vocabulary: Vocabulary,
        themes: list[np.ndarray],
        first_debate: int,
        first_argument: int,
    ) -> Portal:
        rng = streams.rng_for(seed, streams.SKELETON, index)
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
    keys = np.random.SeedSequence([seed, streams.IDS, kind]).generate_state(4, dtype=np.uint32).astype(np.uint64)
    x = numbers.astype(np.uint64) & _MASK32
    x = (x * (keys[0] | np.uint64(1)) + keys[1]) & _MASK32
    for shift, multiplier in ((16, np.uint64(0x7FEB352D)), (15, keys[2] | np.uint64(1)), (16, keys[3] | np.uint64(1))):
        x ^= x >> np.uint64(shift)
        x = (x * multiplier) & _MASK32
    x ^= x >> np.uint64(16)
    return [f"{value:08x}" for value in x.tolist()]
