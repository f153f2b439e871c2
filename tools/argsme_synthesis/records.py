"""The synthetic corpus's JSON: premise texts drawn as one token stream per batch (Zipf words, some from the
debate's title, sentences with punctuation and paragraphs), claims for the portals that have their own, and each
argument's record in the real args.me shape, written batch by batch so that memory stays small at full size.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import numpy as np

from tools.argsme_synthesis import streams
from tools.argsme_synthesis.debates import NON_ARGUMENTS, Portal
from tools.argsme_synthesis.vocabulary import Vocabulary

OWN_CONCLUSIONS = frozenset({"debatepedia.json", "idebate.json"})  # per-argument claims, not the title
TOPIC_WORD_SHARE = 0.04
SENTENCE_MEAN = 16.0
COMMA_SHARE = 0.06
PARAGRAPH_SHARE = 0.125
QUESTION_SHARE, EXCLAMATION_SHARE = 0.07, 0.04
BATCH = 4_096  # arguments per drawn and written batch
_SUFFIXES = (" ", ", ", ". ", "? ", "! ", ".\n", ".\0", "?\0", "!\0")  # "\0" ends a premise in a batch's text


def _premise_texts(
    rng: np.random.Generator, words: np.ndarray, debate_of: np.ndarray, portal: Portal, vocabulary: Vocabulary
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


def _conclusion(rng: np.random.Generator, title_ids: np.ndarray, vocabulary: Vocabulary) -> str:
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


def write_portal(path: Path, portal: Portal, vocabulary: Vocabulary, seed: int) -> int:
    """Write one portal file batch by batch; the number of bytes written."""
    written = 0
    with open(path, "wb") as handle:
        for number, chunk in enumerate(_portal_chunks(portal, vocabulary, seed)):
            data = (('{\n"arguments": [\n' if number == 0 else ",\n") + chunk).encode("ascii")
            handle.write(data)
            written += len(data)
        tail = ("\n]\n}\n" if portal.count else '{\n"arguments": []\n}\n').encode("ascii")
        handle.write(tail)
    return written + len(tail)


def _portal_chunks(portal: Portal, vocabulary: Vocabulary, seed: int) -> Iterator[str]:
    """The JSON of the portal's arguments, one string per batch of BATCH arguments."""
    quote = json.encoder.encode_basestring_ascii
    stances = ("PRO", "CON")
    own_conclusions = portal.name in OWN_CONCLUSIONS
    for batch, start in enumerate(range(0, portal.count, BATCH)):
        stop = min(start + BATCH, portal.count)
        rng = streams.rng_for(seed, streams.TEXT, portal.index, batch)
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
