"""Ranking measures by the names the field uses, computed by the library the field trusts.

A measure is named as ir_measures or trec_eval names it (`nDCG@10` or `ndcg_cut_10`, `P@10` or `P_10`, `AP` or
`map`; spelling.py), stored under ir_measures' name, and computed by ir_measures: through trec_eval's own code
(pytrec_eval) for every measure trec_eval has, so score ties, negative labels and unjudged documents are handled
exactly as trec_eval handles them, and by the first of ir_measures' other providers (PROVIDERS) that computes the
rest (Judged, ERR@k, alpha_nDCG@k, RBP(rel=1), …) and is installed. The names our JSON used before we adopted
ir_measures' are aliases (`judged@5` is `Judged@5`). The one figure no library computes as such, the Touché
organisers' judged-only nDCG, is a `Variant`: ir_measures on judgments read another way, under a name that
cannot be mistaken for a library's (`condensed-nDCG@5`).

Every judged topic gets a value, 0 where the run lacks it (ir_measures' and trec_eval `-c`'s convention); which
topics the mean is over is the caller's choice (`results.AVERAGING`).
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import argrank.lazylibs as lazylibs
from argrank.evaluation import spelling
from argrank.formats.runfile import RunLine

if TYPE_CHECKING:
    import ir_measures

Qrels = dict[str, dict[str, float]]
RunDict = dict[str, dict[str, float]]  # topic → document → score, as ir_measures reads a run

# The ir_measures providers argrank computes with, in order of preference: trec_eval's own code first, for the
# official figures. trectools and ranx are left out: they add pandas or numba for no measure the others lack but
# RBP without a relevance level (which cwl_eval computes given one: RBP(rel=1)).
PROVIDERS = ("pytrec_eval", "judged", "gdeval", "pyndeval", "cwl_eval", "msmarco")
# A measure's largest cut-off: a hundred times the 1,000 documents per topic of a Touché run, so that no measure
# reads past what a run holds (pytrec_eval took one past 2**63 for another measure and failed). ndeval computes
# cut-offs up to 20 only (pyndeval asserts it).
MAX_CUTOFF = 100_000
PROVIDER_CUTOFFS = {"pyndeval": 20}


@dataclass(frozen=True)
class Variant:
    """A figure no library computes as such, but ir_measures does once the judgments are read another way: `name`
    is its name with {k} for the cut-off (in any case when read), `measure` the ir_measures measure with {k}, and
    `label` maps each judgment label before ir_measures sees it."""

    name: str
    measure: str
    label: Callable[[float], float]


# The Touché organisers' judged-only nDCG (a "condensed list", Sakai 2007): unjudged documents, those without a
# qrels line, leave the ranking before the cut at k; a document judged −2 (spam) stays, with gain 0. That is how
# Webis's own code computes it on the args.me judgments: ir_measures' nDCG(judged_only=True) on qrels whose −2
# labels are first mapped to 0 (webis-de/sigir25-arg-axioms), and TrecTools' get_ndcg(removeUnjudged=True) in
# Fröbe et al.'s condensed-list baselines (webis-de/ECIR-23, whose name "condensed-ndcg@k" we follow). Unmapped,
# trec_eval 9 (so ir_measures) treats every negative label as unjudged and drops those documents too.
CONDENSED = Variant("condensed-nDCG@{k}", "nDCG(judged_only=True)@{k}", lambda label: max(label, 0.0))
VARIANTS = (CONDENSED,)
# The names our JSON used before it adopted ir_measures' names, and the names they stand for now ({k}: cut-off).
ALIASES = (("judged@{k}", "Judged@{k}"), ("nDCG@{k}_judged_only", "condensed-nDCG@{k}"))


def canonical(name: str) -> str:
    """The name a measure is stored under, whichever way it is typed: an alias resolved, a variant or an ir_measures
    measure as we and ir_measures write them (`P_10` → `P@10`, `map` → `AP`), so one measure has one name in every
    table. ValueError in one line: what is wrong, or the closest known names, or the package a measure needs."""
    for old, new in ALIASES:
        cutoff = _cutoff_in(old, name)
        if cutoff is not None:
            name = new.format(k=cutoff)
    found = _variant(name)
    if found:
        return found[0].name.format(k=found[1])
    measure = spelling.parse(name, (variant.name for variant in VARIANTS))
    cutoff = measure.params.get("cutoff")
    if isinstance(cutoff, int):
        _check_cutoff(name, cutoff)
    provider = _provider(measure, name)
    if isinstance(cutoff, int) and cutoff > PROVIDER_CUTOFFS.get(provider, cutoff):
        raise ValueError(f"measure {name!r}: ir_measures' {provider} computes cut-offs up to "
                         f"{PROVIDER_CUTOFFS[provider]} only")  # fmt: skip
    return str(measure)


def _check_cutoff(name: str, cutoff: int) -> None:
    """ValueError naming the measure for a cut-off below 1 or beyond MAX_CUTOFF."""
    if cutoff < 1:
        raise ValueError(f"measure {name!r}: the cut-off must be at least 1")
    if cutoff > MAX_CUTOFF:
        raise ValueError(f"measure {name!r}: the cut-off must be at most {MAX_CUTOFF:,}")


def old_name(name: str) -> str | None:
    """The name our JSON used for the measure `name` before adopting ir_measures' names, if it had one."""
    for old, new in ALIASES:
        cutoff = _cutoff_in(new, name)
        if cutoff is not None:
            return old.format(k=cutoff)
    return None


def _cutoff_in(template: str, name: str) -> str | None:
    """The cut-off where `name` is `template` with its {k} filled in, in any case, else None."""
    match = re.fullmatch(re.escape(template).replace(re.escape("{k}"), r"(\d+)"), name, re.IGNORECASE)
    return str(int(match.group(1))) if match else None


def per_topic_scores(names: list[str], run: Iterable[RunLine] | RunDict, qrels: Qrels) -> dict[str, dict[str, float]]:
    """judged topic → measure → value, for canonical `names`; a judged topic the run lacks scores each measure's
    default (0). The run as lines, or as `by_topic` gives them."""
    scores: dict[str, dict[str, float]] = {topic: {} for topic in qrels}
    run_dict = run if isinstance(run, dict) else by_topic(run)
    library = [name for name in names if not _variant(name)]
    _add_scores(scores, {name: name for name in library}, run_dict, qrels)
    for variant in VARIANTS:
        asked = {}
        for name in names:
            cutoff = _cutoff_in(variant.name, name)
            if cutoff is not None:
                asked[variant.measure.format(k=cutoff)] = name
        relabelled = {
            topic: {doc: variant.label(label) for doc, label in judged.items()} for topic, judged in qrels.items()
        }
        _add_scores(scores, asked, run_dict, relabelled)
    return {topic: {name: by_name[name] for name in names} for topic, by_name in scores.items()}


def _add_scores(scores: dict[str, dict[str, float]], asked: dict[str, str], run: RunDict, qrels: Qrels) -> None:
    """Compute the ir_measures measures `asked` (ir_measures name → the name to store it under) into `scores`."""
    library = lazylibs.ir_measures()
    measures = [library.parse_measure(name) for name in asked]
    integer_qrels = _integer_qrels(qrels) if measures else {}
    by_provider: dict[str, list[ir_measures.Measure]] = {}
    for measure in measures:
        by_provider.setdefault(_provider(measure, str(measure)), []).append(measure)
    for provider, chosen in by_provider.items():
        for metric in library.providers.registry[provider].evaluator(chosen, integer_qrels).iter_calc(run):
            scores[metric.query_id][asked[str(metric.measure)]] = float(metric.value)


def _variant(name: str) -> tuple[Variant, str] | None:
    """The variant that `name` names and its cut-off, or None; ValueError for a cut-off below 1 or beyond
    MAX_CUTOFF."""
    for variant in VARIANTS:
        cutoff = _cutoff_in(variant.name, name)
        if cutoff is not None:
            _check_cutoff(name, int(cutoff))
            return variant, cutoff
    return None


def _provider(measure: ir_measures.Measure, name: str) -> str:
    """The first of PROVIDERS that computes `measure` and is installed; ValueError naming what to install where
    only an uninstalled one computes it (ir_measures' own instructions: `pip install ir-measures[pyndeval]`)."""
    registry = lazylibs.ir_measures().providers.registry
    able = [provider for provider in PROVIDERS if _supports(registry[provider], measure)]
    installed = [provider for provider in able if registry[provider].is_available()]
    if installed:
        return installed[0]
    if able:
        how = registry[able[0]].install_instructions()
        raise ValueError(f"measure {name!r} needs ir_measures' {able[0]} provider, not installed here: {how}")
    others = [key for key, provider in registry.items() if _supports(provider, measure)]
    if others:
        raise ValueError(f"measure {name!r}: ir_measures computes it only with {', '.join(others)}, which argrank "
                         f"does not use (it uses {', '.join(PROVIDERS)})")
    raise ValueError(f"measure {name!r}: no ir_measures provider computes it with these parameters (no cut-off?)")


def _supports(provider: ir_measures.providers.Provider, measure: ir_measures.Measure) -> bool:
    """Whether `provider` computes `measure`; a measure missing a parameter it needs (SDCG's max_rel) is not."""
    try:
        return provider.supports(measure)
    except AssertionError:
        return False


def ranks_read(names: list[str]) -> int | None:
    """How far down each topic's ranking the measures `names` look at documents without judgments: the largest
    cut-off (a measure with a cut-off reads only the first documents; a judged-only one none without judgments);
    None where one reads the whole ranking (AP, RR, nDCG without a cut-off, …)."""
    depth = 0
    for name in names:
        if _variant(name):  # judged-only: documents without judgments leave before the cut
            continue
        cutoff = lazylibs.ir_measures().parse_measure(name).params.get("cutoff")
        if not isinstance(cutoff, int):
            return None
        depth = max(depth, cutoff)
    return depth


def judged_and_first(run: Iterable[RunLine], qrels: Qrels, depth: int) -> RunDict:
    """by_topic, keeping only what measures that look `depth` ranks down at documents without judgments can see:
    every judged document of a judged topic, and those without judgments that may rank among its first `depth`
    (scoring at least the depth-th best of them: ties are kept, whatever order breaks them). A topic nobody judged
    keeps its first document only, so that it counts among the run's topics. Read as the run comes, so that a
    large run's other documents are never all held."""
    kept: RunDict = {}
    unjudged: dict[str, list[tuple[float, str]]] = {}
    limits: dict[str, int] = {}
    floor = 2 * depth + 64
    for line in run:
        topic = kept.setdefault(line.qid, {})
        judged = qrels.get(line.qid)
        if judged is None:
            if not topic:
                topic[line.doc] = line.score
        elif line.doc in judged:
            topic[line.doc] = line.score
        else:
            pool = unjudged.setdefault(line.qid, [])
            pool.append((line.score, line.doc))
            if len(pool) > limits.get(line.qid, floor):
                _keep_best(pool, depth)
                limits[line.qid] = max(floor, 2 * len(pool))  # many ties at the bar: prune less often
    for qid, pool in unjudged.items():
        first = pool[0]
        _keep_best(pool, depth)
        kept[qid].update((doc, score) for score, doc in pool)
        if not kept[qid]:  # judged-only measures alone: one document, which they never see, keeps the topic
            kept[qid][first[1]] = first[0]
    return kept


def _keep_best(pool: list[tuple[float, str]], depth: int) -> None:
    """Keep the (score, document) pairs scoring at least the depth-th best score, in their order."""
    if depth == 0:
        pool.clear()
    elif len(pool) > depth:
        bar = heapq.nlargest(depth, (score for score, _ in pool))[-1]
        pool[:] = [pair for pair in pool if pair[0] >= bar]


def by_topic(run: Iterable[RunLine]) -> RunDict:
    """topic → document → score, as ir_measures reads a run (each topic's documents in the run's order)."""
    scores: RunDict = {}
    for line in run:
        scores.setdefault(line.qid, {})[line.doc] = line.score
    return scores


def _integer_qrels(qrels: Qrels) -> dict[str, dict[str, int]]:
    """The labels as trec_eval reads them, integers; ValueError for a label with a fraction, which it would cut.

    trec_eval 9 sizes a per-topic array by the topic's highest label plus one and clears it with memset, so a
    topic whose labels are all −2 or lower (all spam) makes it clear −1 × 8 bytes: pytrec_eval crashes the
    process. It reads every negative label alike (in the pool but unjudged), so such a topic's labels go in as
    −1, which it scores the same and sizes as 0.
    """
    converted: dict[str, dict[str, int]] = {}
    for topic, judged in qrels.items():
        for doc, label in judged.items():
            if not float(label).is_integer():
                raise ValueError(f"topic {topic}, document {doc}: label {label} is not an integer, as trec_eval needs")
        floor = -1 if max(judged.values()) < -1 else None
        converted[topic] = {doc: int(label) if floor is None else floor for doc, label in judged.items()}
    return converted
