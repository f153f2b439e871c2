"""The perspective track's section of the runs file: a release directory and which scenarios and splits to rank,
with the cross-lingual ranker's settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argrank.core.errors import InputError
from argrank.core.params import checked_params
from argrank.tracks.perspective.data import SCENARIOS, SPLITS
from argrank.tracks.perspective.ranking import DEFAULT_DIVERSIFY
from argrank.tracks.perspective.settings import DEFAULTS as CROSSLINGUAL_DEFAULTS
from argrank.tracks.perspective.settings import DICTIONARIES
from argrank.tracks.perspective.settings import RANGES as CROSSLINGUAL_RANGES
from argrank.tracks.section import is_number, language_setting

NAME = "perspective"


@dataclass(frozen=True)
class PerspectiveSection:
    """A release directory and which scenarios and splits to rank.

    One ranking per scenario and split (no tags: the submission is one file per scenario and split); `params`
    are the cross-lingual ranker's (`settings.DEFAULTS`).
    """

    name: str
    corpus: Path
    language: str = "de,fr,it"
    scenarios: tuple[str, ...] = ("baseline", "explicit", "implicit")
    splits: tuple[str, ...] = ("dev", "test")
    depth: int = 1000
    params: dict[str, float] = field(default_factory=dict)
    diversify: float = DEFAULT_DIVERSIFY  # explicit scenario: weight of profile diversity in the top 50
    implicit_stance: bool = True  # implicit scenario: the arguments' stance label may be read
    dictionaries: str = DICTIONARIES  # FreeDict dictionaries for translating questions (a missing folder: none)


def read_perspective_section(path: Path, settings: Any) -> PerspectiveSection:
    """The section, checked: InputError naming the key."""
    where = NAME
    if not isinstance(settings, dict):
        raise InputError(path, where, "expected a mapping")
    known = {"data", "language", "scenarios", "splits", "depth", "params", "diversify", "implicit_stance",
             "dictionaries"}  # fmt: skip
    unknown = sorted(set(settings) - known)
    if unknown:
        raise InputError(path, where, f"unknown setting(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    if not isinstance(settings.get("data"), str) or not settings["data"]:
        raise InputError(path, f"{where}.data", "expected the path of a release directory")
    chosen = {}
    for key, allowed in (("scenarios", SCENARIOS), ("splits", SPLITS)):
        value = settings.get(key, list(PerspectiveSection.__dataclass_fields__[key].default))
        if not isinstance(value, list) or not value or not set(value) <= set(allowed) or len(set(value)) < len(value):
            raise InputError(path, f"{where}.{key}", f"expected a list drawn from {', '.join(allowed)}")
        chosen[key] = tuple(value)
    depth = settings.get("depth", 1000)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 1000:
        raise InputError(path, f"{where}.depth", "expected an integer from 1 to 1000")
    params = settings.get("params") or {}
    if not isinstance(params, dict):
        raise InputError(
            path, f"{where}.params", f"expected a mapping of {', '.join(CROSSLINGUAL_DEFAULTS)} to numbers"
        )
    try:
        params = checked_params("the perspective ranker", params, CROSSLINGUAL_DEFAULTS, CROSSLINGUAL_RANGES)
    except ValueError as error:
        raise InputError(path, f"{where}.params", str(error)) from None
    diversify = settings.get("diversify", DEFAULT_DIVERSIFY)
    if not is_number(diversify) or not 0 <= diversify <= 1:
        raise InputError(path, f"{where}.diversify", "expected a number from 0 (off) to 1")
    implicit_stance = settings.get("implicit_stance", True)
    if not isinstance(implicit_stance, bool):
        raise InputError(path, f"{where}.implicit_stance", "expected true or false")
    dictionaries = settings.get("dictionaries", DICTIONARIES)
    if not isinstance(dictionaries, str) or not dictionaries:
        raise InputError(path, f"{where}.dictionaries", "expected the path of a folder of FreeDict dictionaries")
    return PerspectiveSection(
        name=NAME,
        dictionaries=str((path.parent / dictionaries).resolve()),
        diversify=float(diversify),
        implicit_stance=implicit_stance,
        corpus=(path.parent / settings["data"]).resolve(),
        language=language_setting(path, f"{where}.language", settings.get("language", "de,fr,it")),
        depth=depth,
        params=params,
        **chosen,
    )
