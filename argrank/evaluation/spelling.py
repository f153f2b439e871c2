"""Measure names as researchers type them, read as ir_measures' measures: ir_measures' own names (`P@10`), trec_eval's
(`P_10`, `ndcg_cut.5`, `map`) and either in another case where that names one measure only (`ndcg@5`, `err@10`),
so a name copied from a paper or a trec_eval command works; for any other name, the closest known ones."""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import pytrec_eval

import argrank.lazylibs as lazylibs

if TYPE_CHECKING:
    import ir_measures


def _library() -> dict[str, Any]:
    """Every name ir_measures parses → its measure."""
    return lazylibs.ir_measures().measures.registry

# Where a name is an identifier and the rest (`nDCG` and `@5`, `P` and `(rel=2)@10`).
_IDENTIFIER = re.compile(r"([^\W\d]\w*)(.*)", re.DOTALL)
_CUTOFF = re.compile(r"[@_.](\d+)$")
# trec_eval's name and its parameters (`ndcg_cut` and `_10`, `P` and `.5,10`), matched whole: ir_measures matches
# only the start, so would read `P_1O` as P@1.
_TREC_FORM = re.compile(r"(.+?)(?:[._]\d+(?:\.\d+)?(?:,\d+(?:\.\d+)?)*)?")
CLOSEST = 5  # names an unknown name's message suggests


def parse(name: str, ours: Iterable[str] = ()) -> ir_measures.Measure:
    """The measure `name` names; ValueError in one line, naming the closest known names (`ours`: our own names,
    {k} for a cut-off) for an unknown one and the measures a trec_eval name stands for if it is several (`P`,
    `ndcg_cut`, `P_5,10`: refused rather than expanded, so one name is one column, one gate, one comparison)."""
    measures = _trec_eval(name)
    if len(measures) == 1:
        return measures[0]
    if measures:
        listed = ", ".join(str(measure) for measure in measures)
        raise ValueError(f"measure {name!r} is trec_eval's name for {len(measures)} measures ({listed}); name one")
    try:
        return lazylibs.ir_measures().parse_measure(name)
    except (NameError, ValueError, SyntaxError, TypeError):
        pass
    try:
        return lazylibs.ir_measures().parse_measure(_library_case(name))
    except (NameError, ValueError, SyntaxError, TypeError):
        raise ValueError(f"unknown measure {name!r}; closest: {', '.join(closest(name, ours)) or 'none'}") from None


def _trec_eval(name: str) -> list[ir_measures.Measure]:
    """What trec_eval's name `name` stands for (several measures for `P`, `ndcg_cut`, `P_5,10`), [] if none."""
    if name in pytrec_eval.supported_nicknames:  # all_trec, official: parse_trec_measure would print to stdout
        raise ValueError(f"measure {name!r} is trec_eval's name for a set of measures; name them one by one")
    form = _TREC_FORM.fullmatch(name)
    if not form or form.group(1) not in pytrec_eval.supported_measures:
        return []
    try:
        return lazylibs.ir_measures().parse_trec_measure(name)
    except (ValueError, NameError, TypeError):
        return []


def _takes_cutoff(trec_name: str) -> bool:
    """Whether trec_eval's `trec_name` takes a cut-off as its parameter (ndcg_cut, not iprec_at_recall)."""
    measures = _trec_eval(f"{trec_name}_1")
    return bool(measures) and all(measure.params.get("cutoff") == 1 for measure in measures)


@functools.cache
def _trec_eval_names() -> list[str]:
    """trec_eval's measure names that ir_measures reads (it lacks gm_map, Rndcg, …)."""
    return [name for name in sorted(pytrec_eval.supported_measures) if _trec_eval(name)]


def _library_case(name: str) -> str:
    """`name` with its measure's identifier as ir_measures spells it, where only one measure has that identifier in
    any case (`ndcg` is nDCG, `mrr` is RR); else `name` unchanged."""
    match = _IDENTIFIER.fullmatch(name)
    library = _library()
    if not match or match.group(1) in library:
        return name
    meant = {measure.NAME for key, measure in library.items() if key.lower() == match.group(1).lower()}
    return meant.pop() + match.group(2) if len(meant) == 1 else name


def closest(name: str, ours: Iterable[str] = ()) -> list[str]:
    """Up to CLOSEST known names most like `name`, in any case: ir_measures', trec_eval's and `ours`, each with
    `name`'s cut-off where it has one and the measure takes one (`nDGC@5` → nDCG@5, …; `ours` each need one)."""
    found = _CUTOFF.search(name)
    registry = _library()
    trec_eval = _trec_eval_names()
    library = [key for key, measure in registry.items() if key == measure.NAME]  # no alias spellings (MAP, NDCG)
    known = [*library, *trec_eval]
    if found:
        cutoff = found.group(1)
        known += [template.format(k=cutoff) for template in ours]
        known += [f"{key}@{cutoff}" for key in library if "cutoff" in registry[key].SUPPORTED_PARAMS]
        known += [f"{key}_{cutoff}" for key in trec_eval if _takes_cutoff(key)]
    by_lower = {}
    for candidate in known:
        by_lower.setdefault(candidate.lower(), candidate)
    return [by_lower[match] for match in difflib.get_close_matches(name.lower(), by_lower, CLOSEST, 0.6)]
