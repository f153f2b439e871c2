"""Touché 2022 Task 3 (image retrieval for arguments) judgments.

The official qrels judge each (topic, image) on three aspects, one line each: `topic ASPECT imageId 0|1` with
ASPECT one of ONTOPIC, PRO, CON. The collection's `training-qrels.txt` says per stance whether an image supports
it: `topic PRO|CON imageId rating`. Both are read by qrels' judgment loop, so bad lines, repeats that disagree and
unknown topics are reported as for every other qrels file; labels must be 0 or 1.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Iterable

from argrank.core.errors import InputError
from argrank.formats.qrels import Layout, read_judgments

STANCES = ("PRO", "CON")
ASPECTS = ("ONTOPIC", *STANCES)

QRELS_LAYOUT = Layout(("topic", "aspect", "image", "label"), "image", ASPECTS)
TRAINING_LAYOUT = Layout(("topic", "stance", "image", "rating"), "image", STANCES)

ImageQrels = dict[str, dict[str, dict[str, int]]]  # topic → image → aspect → 0 or 1


def read_image_qrels(path: str | Path, known_topics: Iterable[str] | None = None) -> ImageQrels:
    """topic → image → aspect → 0 or 1. A repeated judgment must agree; with `known_topics`, others are rejected."""
    qrels: ImageQrels = {}
    for topic, aspect, image, label in read_judgments(path, known_topics, partial(_binary, "label"), QRELS_LAYOUT):
        qrels.setdefault(topic, {}).setdefault(image, {})[aspect] = label
    return qrels


def read_image_training(path: str | Path) -> dict[tuple[str, str], dict[str, int]]:
    """(topic, image) → stance → 0 or 1 (1: the image supports that stance), with the same rules as the qrels."""
    training: dict[tuple[str, str], dict[str, int]] = {}
    for topic, stance, image, rating in read_judgments(path, None, partial(_binary, "rating"), TRAINING_LAYOUT):
        training.setdefault((topic, image), {})[stance] = rating
    return training


def _binary(name: str, path: str | Path, number: int, text: str) -> int:
    """0 or 1 written as such; anything else (`1.0`, `2`, `yes`) is an error, since scoring counts only 1s."""
    if text not in ("0", "1"):
        raise InputError(path, f"line {number}", f"{name} {text!r} is not 0 or 1")
    return int(text)
