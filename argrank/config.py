"""The runs file: per track, where its data is and which named runs to produce (method and parameters).

Paths are relative to the runs file's own folder, so a config can travel with its data. A ranking track's section
is read here, the keys such tracks share, with the track's own hooks for its keys (tracks.track.RankingTrack); a
track of another shape reads its section itself (Track.read_section).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from argrank.core.errors import InputError
from argrank.core.grid import MAX_COMBINATIONS, expand
from argrank.core.input_file import check_regular
from argrank.core.names import name_problem
from argrank.core.params import checked_params
from argrank.evaluation.fusion import fuse
from argrank.evaluation.measures import canonical
from argrank.evaluation.names import EXAMPLES, STANCE
from argrank.evaluation.standings import participant_files
from argrank.formats.ir_datasets_cache import dataset_settings
from argrank.formats.runs_yaml import RunsFileLoader, TooLarge
from argrank.quality.ltr import check_held_out
from argrank.quality.ltr import step_signature as ltr_step_signature
from argrank.quality.rerank import step_signature as quality_step_signature
from argrank.quality.settings import DEFAULTS as QUALITY_DEFAULTS
from argrank.quality.settings import RANGES as QUALITY_RANGES
from argrank.retrieval.expansion import EXPANDERS
from argrank.retrieval.registry import resolve_params
from argrank.retrieval.steps import (
    BUILT_IN,
    DEFAULT_DEPTH,
    LTR_STEP,
    QUALITY_STEP,
    REWRITERS,
    Step,
    checked_step_params,
    takes_feedback,
)
from argrank.retrieval.steps import resolve as resolve_step
from argrank.tracks.registry import track as registered
from argrank.tracks.registry import track_names
from argrank.tracks.section import RunSpec, TrackSection, check_name, language_setting
from argrank.tracks.track import RankingTrack, Track

MAX_RUNS_PER_TRACK = 5  # Touché accepts at most five runs per team and task.
# Each shard is a tokenize, index and rank task per run, each with its cache files: beyond a few dozen the
# bookkeeping outweighs the parallelism (500 shards of 347 arguments made 4,513 cache files).
MAX_SHARDS = 64


@dataclass(frozen=True)
class Experiment:
    """A runs file: its tracks, under a name its outputs are published by (`outputs/experiments/<name>/`), and
    whether it is the submission, which is also published to `outputs/submission/` and held to Touché's limit
    of five runs per track."""

    name: str
    submission: bool
    tracks: dict[str, Any]  # name → its section: a TrackSection, or what a track of its own shape reads


EXPERIMENT_KEYS = ("experiment", "submission")  # the runs file's own settings beside its tracks


def load_experiment(path: str | Path) -> Experiment:
    """Read and check a runs file; every problem is an InputError naming the offending key.

    Parsed and checked once per content: every task of a graph asks for its runs file while Luigi schedules, and
    doing it each time took a few percent of a re-run.
    """
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise InputError(path, "", "runs file not found")
    check_regular(path)
    try:
        content = path.read_bytes()
    except OSError as error:
        raise InputError(path, "", f"cannot read: {error.strerror}") from None
    return _load_experiment(path, path.resolve(), content)


@functools.lru_cache(maxsize=32)
def _load_experiment(path: Path, resolved: Path, content: bytes) -> Experiment:
    """load_experiment of `content`, the file `resolved` (named `path` by the user, for messages)."""
    try:
        raw = yaml.load(content.decode("utf-8"), Loader=RunsFileLoader)
    except TooLarge as error:
        raise InputError(path, "", f"refused: {error}") from None
    except RecursionError:
        raise InputError(path, "", "not valid YAML: nested deeper than the reader goes") from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"line {mark.line + 1}" if mark else ""
        raise InputError(path, where, f"not valid YAML: {error.problem or error.context}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise InputError(path, "", f"not valid YAML: {error}") from None
    if not isinstance(raw, dict) or not set(raw) - set(EXPERIMENT_KEYS):
        raise InputError(path, "", "expected a mapping of track names to track settings")
    name = raw.get("experiment", path.stem)
    if "experiment" in raw:
        check_name(path, "experiment", name)
    elif name_problem(name):
        problem = f"the file's stem names the experiment, but {name_problem(name)}: name it with `experiment:`"
        raise InputError(path, "", problem)
    submission = raw.get("submission", False)
    if not isinstance(submission, bool):
        raise InputError(path, "submission", "expected true or false")
    tracks = {}
    for key, settings in raw.items():
        if key in EXPERIMENT_KEYS:
            continue
        if key not in track_names():
            known = ", ".join([*track_names(), *EXPERIMENT_KEYS])
            raise InputError(path, str(key), f"unknown track or setting (known: {known})")
        tracks[key] = read_section(path, registered(key), settings, submission)
    return Experiment(name, submission, tracks)


def read_section(path: Path, track: Track, settings: Any, submission: bool) -> Any:
    """The track's section: a ranking track's shared keys and its own (read_ranking_section), else what the track
    reads itself (Track.read_section)."""
    if isinstance(track, RankingTrack):
        return read_ranking_section(path, track, settings, submission)
    return track.read_section(path, settings, submission)


def load_config(path: str | Path) -> dict[str, Any]:
    """The tracks of a runs file (see load_experiment)."""
    return load_experiment(path).tracks


def experiment_section(runs_file: str | Path, name: str) -> tuple[str, Any]:
    """(experiment name, its section of track `name`) of a runs file; InputError if it has no such track."""
    experiment = load_experiment(runs_file)
    if name not in experiment.tracks:
        raise InputError(runs_file, "", f"no {name} track in this experiment (it has {', '.join(experiment.tracks)})")
    return experiment.name, experiment.tracks[name]


def check_training_held_out(section: Any, runs: Sequence[RunSpec] | None = None) -> None:
    """InputError where an ltr step of the section's runs (or of `runs`, and the runs they fuse) would learn from
    topics the section ranks (quality.ltr.check_held_out). Not part of load_experiment, which keeps what it read per
    runs-file content: each build calls it as it builds its graph from a section (workflows.graph, `argrank tira`),
    so the topics files are read as they are now, whatever the cache or this process holds."""
    training = getattr(section, "ltr_training", None)  # a ranking track's (TrackSection), where given
    if training is None:
        return
    built = [member for spec in (section.runs if runs is None else runs)
             for member in (spec, *(spec.fuse[0] if spec.fuse else ()))]  # fmt: skip
    if any(step.use == LTR_STEP for spec in built for step in spec.rerank):
        check_held_out(training[0], section.topics)


def read_ranking_section(path: Path, track: RankingTrack, settings: Any, submission: bool) -> TrackSection:
    """A ranking track's section: the keys every such track shares, then the track's own (RankingTrack.read_own,
    section_type, check_section)."""
    where = track.name
    if not isinstance(settings, dict):
        raise InputError(path, where, "expected a mapping")
    quality = ("quality_training",) if track.quality_text else ()
    optional = (*quality, *(("measures",) if track.named_measures else ()))
    optional += ("dataset",) if track.datasets else ()
    optional += ("ltr_training",) if track.rerank_steps else ()
    shared = {track.corpus_key, "topics", "qrels", "language", "fields", "depth", "shards", "runs", "baseline",
              "participants"}
    known = {*shared, *optional, *track.track_keys}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise InputError(path, where, f"unknown setting(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    if "dataset" in settings:  # the keys the section gives itself win over the dataset's
        cached = dataset_settings(
            path, f"{where}.dataset", settings["dataset"], track.datasets, track.corpus_key, set(settings)
        )
        settings = {**cached, **settings}
    base = path.parent

    def located(key: str, value: Any) -> Path:
        if not isinstance(value, str) or not value:
            raise InputError(path, f"{where}.{key}", "expected a path")
        return (base / value).resolve()

    for key in (track.corpus_key, "topics"):
        if key not in settings:
            raise InputError(path, where, f"missing setting {key!r}")
    qrels = settings.get("qrels") or {}
    if not isinstance(qrels, dict):
        raise InputError(path, f"{where}.qrels", "expected a mapping of names to qrels files")
    if STANCE in qrels:
        raise InputError(path, f"{where}.qrels.{STANCE}", f"the name {STANCE!r} is for stance_qrels' results")
    for qrels_name in qrels:
        check_name(path, f"{where}.qrels.{qrels_name}", qrels_name)
    fields = settings.get("fields", track.default_fields)
    if (
        not isinstance(fields, list | tuple)
        or not fields
        or not all(isinstance(f, str) and f for f in fields)
        or (track.allowed_fields is not None and not set(fields) <= set(track.allowed_fields))
    ):
        allowed = ", ".join(track.allowed_fields) if track.allowed_fields else "the documents' field names"
        raise InputError(path, f"{where}.fields", f"expected a list drawn from {allowed}")
    depth = settings.get("depth", 1000)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 1000:
        raise InputError(path, f"{where}.depth", "expected an integer from 1 to 1000")
    runs = _runs(path, f"{where}.runs", settings.get("runs"), track, submission)
    quality_training = located("quality_training", settings["quality_training"]) if settings.get(
        "quality_training") is not None else None  # fmt: skip
    if quality_training is None and any(spec.quality or spec.quality_step for spec in runs):
        raise InputError(path, f"{where}.quality_training", "runs with quality need a quality training set")
    ltr_training = _ltr_training(path, f"{where}.ltr_training", settings.get("ltr_training"), located)
    if ltr_training is None and any(step.use == LTR_STEP for spec in runs for step in spec.rerank):
        raise InputError(path, f"{where}.ltr_training", "runs with an ltr step need ltr_training: {topics, qrels}, "
                                                        "judged topics other than those it ranks")  # fmt: skip
    shards = settings.get("shards", 1)
    if isinstance(shards, bool) or not isinstance(shards, int) or not 1 <= shards <= MAX_SHARDS:
        raise InputError(
            path,
            f"{where}.shards",
            f"expected an integer from 1 to {MAX_SHARDS} (more shards add cache files and tasks, not speed)",
        )
    if shards > 1 and any(spec.expand for spec in runs):
        raise InputError(path, f"{where}.shards", "runs with `expand` rank one index: shards must be 1")
    measures = _measures(path, f"{where}.measures", settings.get("measures", []))
    baseline = _baseline(path, f"{where}.baseline", settings.get("baseline"), [spec.tag for spec in runs])
    participants = located("participants", settings["participants"]) if settings.get("participants") else None
    if participants is not None:
        try:
            participant_files(participants, [spec.tag for spec in runs])
        except ValueError as error:
            raise InputError(path, f"{where}.participants", str(error)) from None
    _published_names(path, where, [spec.tag for spec in runs], list(qrels))
    section = track.section_type(
        name=track.name,
        corpus=located(track.corpus_key, settings[track.corpus_key]),
        topics=located("topics", settings["topics"]),
        qrels={str(k): located(f"qrels.{k}", v) for k, v in qrels.items()},
        language=language_setting(path, f"{where}.language", settings.get("language", "en")),
        fields=tuple(fields),
        depth=depth,
        runs=runs,
        shards=shards,
        measures=measures,
        quality_training=quality_training,
        ltr_training=ltr_training,
        baseline=baseline,
        participants=participants,
        **track.read_own(path, where, settings, located),
    )
    track.check_section(path, section)
    return section


def _baseline(path: Path, where: str, tag: Any, tags: list[str]) -> str | None:
    """`baseline:`, a run tag of the track (a grid's run by its expanded tag, e.g. bm25-k1_0.9-b_0.4)."""
    if tag is None or tag in tags:
        return tag
    shown = ", ".join(tags[:10]) + (", …" if len(tags) > 10 else "")
    raise InputError(path, where, f"no run tagged {tag!r} (runs: {shown})")


def _published_names(path: Path, where: str, tags: list[str], qrels: list[str]) -> None:
    """Two runs' published files must not share a name: tag `a.b` with qrels `c` and tag `a` with qrels `b.c`
    would both write `a.b.c.per-topic.csv`."""
    seen: dict[str, str] = {}
    for tag in tags:
        for name, what in [(f"{tag}.txt", f"run {tag}"), *((f"{tag}.{q}.per-topic.csv", f"run {tag}, qrels {q}")
                                                            for q in qrels)]:  # fmt: skip
            if name in seen:
                raise InputError(path, where, f"{what} and {seen[name]} would both be published as {name}")
            seen[name] = what


def _measures(path: Path, where: str, names: Any) -> tuple[str, ...]:
    """The measures a ranking track evaluates, as stored (ir_measures' names, aliases resolved)."""
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise InputError(path, where, f"expected a list of measure names, e.g. [{EXAMPLES}]")
    if not names:
        return ()
    try:
        return tuple(dict.fromkeys(canonical(name) for name in names))
    except ValueError as error:
        raise InputError(path, where, str(error)) from None


def _runs(path: Path, where: str, runs: Any, track: RankingTrack, submission: bool) -> tuple[RunSpec, ...]:
    """The runs of a track, a parameter grid expanded to one run per combination; a submission has at most
    MAX_RUNS_PER_TRACK of them."""
    if not isinstance(runs, dict) or not runs:
        raise InputError(path, where, "expected a mapping of run tags to run settings")
    specs = {}
    fusions = {}
    for tag, run in runs.items():
        if track.rerank_steps and isinstance(run, dict) and "fuse" in run:
            fusions[tag] = run  # read once every run it may name is known
            continue
        for spec in _run(path, f"{where}.{tag}", tag, run, track):
            check_name(path, f"{where}.{tag}", spec.tag)
            if spec.tag in specs:
                raise InputError(path, f"{where}.{tag}", f"its run {spec.tag} has the tag of another run")
            specs[spec.tag] = spec
    for tag, run in fusions.items():
        for spec in _fusion(path, f"{where}.{tag}", tag, run, specs):
            if spec.tag in specs:
                raise InputError(path, f"{where}.{tag}", f"its run {spec.tag} has the tag of another run")
            specs[spec.tag] = spec
    if submission and len(specs) > MAX_RUNS_PER_TRACK:
        raise InputError(
            path,
            where,
            f"{len(specs)} runs, but a submission to Touché has at most {MAX_RUNS_PER_TRACK} (an "
            "experiment without `submission: true` has no limit)",
        )
    return tuple(specs.values())


def _fusion(path: Path, here: str, tag: Any, run: dict, specs: dict[str, RunSpec]) -> list[RunSpec]:
    """A fusion run, `{fuse: {runs: [TAG, …], method: M, norm: N, params: {...}}}`: the rankings of other runs of
    the section (by their tags, a sweep's by its expanded ones) fused (evaluation.fusion); one run per combination
    of the values its params list."""
    check_name(path, here, tag)
    if set(run) != {"fuse"} or not isinstance(run["fuse"], dict):
        raise InputError(path, here, "a fusion run has one setting, fuse: {runs: [TAG, ...], method, norm, params}")
    settings = run["fuse"]
    unknown = sorted(set(settings) - {"runs", "method", "norm", "params"})
    if unknown:
        raise InputError(path, f"{here}.fuse", f"unknown setting(s) {', '.join(unknown)} (known: method, norm, "
                                               "params, runs)")  # fmt: skip
    members = settings.get("runs")
    if not isinstance(members, list) or len(members) < 2 or not all(isinstance(m, str) for m in members):
        raise InputError(path, f"{here}.fuse.runs", "expected a list of two or more run tags of this section")
    missing = [member for member in members if member not in specs]
    if missing:
        raise InputError(path, f"{here}.fuse.runs", f"no run {', '.join(missing)} in this section (a fusion run "
                                                    f"fuses ranking runs: {', '.join(specs)})")  # fmt: skip
    method, norm = settings.get("method", "combsum"), settings.get("norm", "min-max")
    params = settings.get("params") or {}
    if not isinstance(params, dict):
        raise InputError(path, f"{here}.fuse.params", "expected a mapping of parameter names to values or lists")
    rest = {name: value for name, value in params.items() if name != "weights"}
    out = []
    for vector in _weight_vectors(path, f"{here}.fuse.params.weights", params.get("weights")):
        label = "_".join(f"{w:g}" for w in vector) if vector is not None else ""
        swept_weights = (("weights", label),) if isinstance(params.get("weights", [None])[0], list) else ()
        for run_tag, chosen in expand(f"{tag}-weights_{label}" if swept_weights else tag, rest):
            chosen = {**chosen, **({"weights": vector} if vector is not None else {})}
            check_name(path, here, run_tag)
            try:
                fuse([{}] * len(members), method, norm, chosen)  # the method, normalisation and parameters checked
            except ValueError as error:
                raise InputError(path, f"{here}.fuse", str(error)) from None
            fusion = {"method": method, "norm": norm, "params": chosen}
            out.append(RunSpec(run_tag, "fusion", {}, "title", entry=tag, swept=swept_weights + _listed(rest, chosen),
                               fuse=(tuple(specs[member] for member in members), fusion)))  # fmt: skip
    return out


def _weight_vectors(path: Path, where: str, weights: Any) -> list[list[float] | None]:
    """`weights`: one per fused run, or a list of such lists to sweep; [None] where absent."""
    def numbers(value: Any) -> bool:
        return isinstance(value, list) and bool(value) and all(
            isinstance(w, int | float) and not isinstance(w, bool) for w in value)  # fmt: skip

    if weights is None:
        return [None]
    if numbers(weights):
        return [weights]
    if isinstance(weights, list) and weights and all(numbers(vector) for vector in weights):
        return list(weights)
    raise InputError(path, where, "expected a list of numbers, one per fused run, or a list of such lists to sweep")


def _run(path: Path, here: str, tag: Any, run: Any, track: RankingTrack) -> list[RunSpec]:
    """One entry of `runs`: a run, or one per combination of the values its parameters list."""
    check_name(path, here, tag)
    if not isinstance(run, dict):
        raise InputError(path, here, "expected a mapping with method, params and query")
    quality_key = ("quality",) if track.quality_text else ()
    rerank_key = ("rerank", "expand") if track.rerank_steps else ()
    unknown = sorted(set(run) - {"method", "params", "query", *quality_key, *rerank_key, *track.run_keys})
    if unknown:
        raise InputError(path, here, f"unknown setting(s) {', '.join(unknown)}")
    method = run.get("method", "bm25")
    query = run.get("query", "title")
    if query not in track.queries:
        raise InputError(path, f"{here}.query", f"unknown query {query!r} (known: {', '.join(track.queries)})")
    own = track.read_run(path, here, run)
    params = run.get("params") or {}
    if not isinstance(params, dict):
        raise InputError(path, f"{here}.params", "expected a mapping of parameter names to numbers or lists of them")
    quality = _quality(path, f"{here}.quality", run.get("quality", False))
    steps = _steps(path, f"{here}.rerank", run.get("rerank", []), bool(track.quality_text))
    expansion = _expansion(path, f"{here}.expand", run.get("expand", []))
    spec_type = track.run_type
    specs = []
    try:
        for expanded_tag, expanded, expand_swept in _expansion_grid(tag, expansion):
            for run_tag, chosen in expand(expanded_tag, params):
                resolved = resolve_params(method, chosen)
                for quality_tag, settings in expand(run_tag, quality) if quality else [(run_tag, {})]:
                    checked = checked_params("the quality re-ranking", settings, QUALITY_DEFAULTS, QUALITY_RANGES)
                    reranking = {**QUALITY_DEFAULTS, **checked} if quality else {}
                    swept = _listed(params, chosen) + _listed(quality, settings)
                    for step_tag, chosen_steps, step_swept in _step_grid(quality_tag, steps):
                        if len(specs) >= MAX_COMBINATIONS:  # grids of parameters, quality and steps multiplied
                            raise ValueError(f"its grids make more than {MAX_COMBINATIONS:,} runs; at most "
                                             f"{MAX_COMBINATIONS:,} per entry")  # fmt: skip
                        specs.append(spec_type(step_tag, method, resolved, query, reranking, tag,
                                               expand_swept + swept + step_swept, rerank=chosen_steps,
                                               expand=expanded, **own))  # fmt: skip
    except ValueError as error:
        raise InputError(path, here, str(error)) from None
    return specs


def _steps(path: Path, where: str, value: Any, quality_text: bool) -> list[tuple[Step, Any, dict[str, Any]]]:
    """A run's `rerank:` list, each step found (retrieval.steps.resolve; `quality`, the built-in quality re-ranking,
    where the track's documents have a quality text): (the step without its parameters, its callable (for the
    quality re-ranking, the signature its parameters are checked against), its parameters as written, lists
    included)."""
    if not isinstance(value, list):
        raise InputError(path, where, "expected a list of steps, each {use: NAME, depth: N, params: {...}}")
    steps = []
    for number, step in enumerate(value, start=1):
        here = f"{where}[{number}]"
        if not isinstance(step, dict) or not isinstance(step.get("use"), str) or not step["use"]:
            raise InputError(path, here, "expected a mapping {use: NAME, depth: N, params: {...}} with a `use` name")
        unknown = sorted(set(step) - {"use", "depth", "params"})
        if unknown:
            raise InputError(path, here, f"unknown setting(s) {', '.join(unknown)} (known: use, depth, params)")
        depth = step.get("depth", DEFAULT_DEPTH)
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise InputError(path, f"{here}.depth", f"expected a whole number of at least 1, got {depth!r}")
        params = step.get("params") or {}
        if not isinstance(params, dict):
            raise InputError(path, f"{here}.params", "expected a mapping of parameter names to values or lists")
        if step["use"] == LTR_STEP:
            steps.append((Step(LTR_STEP, depth, {}, BUILT_IN), ltr_step_signature, params))
            continue
        if step["use"] == QUALITY_STEP:
            if not quality_text:
                raise InputError(path, f"{here}.use", "the quality re-ranker needs a track whose documents it can "
                                                      "judge (args, comparative)")  # fmt: skip
            steps.append((Step(QUALITY_STEP, depth, {}, BUILT_IN), quality_step_signature, params))
            continue
        try:
            function, version, source = resolve_step(step["use"], path.parent)
        except ValueError as error:
            raise InputError(path, f"{here}.use", str(error)) from None
        steps.append((Step(step["use"], depth, {}, version, source), function, params))
    return steps


def _ltr_training(path: Path, where: str, value: Any, located: Any) -> tuple[Path, Path] | None:
    """`ltr_training: {topics: FILE, qrels: FILE}`: the judged topics the ltr step learns from; None where absent."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"topics", "qrels"}:
        raise InputError(path, where, "expected a mapping {topics: FILE, qrels: FILE}")
    return located("ltr_training.topics", value["topics"]), located("ltr_training.qrels", value["qrels"])


def _expansion(path: Path, where: str, value: Any) -> list[tuple[Step | None, Any, dict[str, Any]]]:
    """A run's `expand:` list, in order: (the rewriter's step without its parameters, or None for a built-in
    expansion; the built-in's name or the rewriter's callable; its parameters as written, lists included)."""
    if not isinstance(value, list):
        raise InputError(path, where, "expected a list of steps, each {use: NAME, params: {...}}")
    steps: list[tuple[Step | None, Any, dict[str, Any]]] = []
    for number, step in enumerate(value, start=1):
        here = f"{where}[{number}]"
        if not isinstance(step, dict) or not isinstance(step.get("use"), str) or not step["use"]:
            known = ", ".join(sorted(EXPANDERS))
            raise InputError(path, here, f"expected a mapping {{use: NAME, params: {{...}}}}, NAME one of {known}, "
                                         "a query rewriter's entry point or module:callable")  # fmt: skip
        builtin = step["use"] in EXPANDERS
        allowed = {"use", "params"} if builtin else {"use", "depth", "params"}
        unknown = sorted(set(step) - allowed)
        if unknown:
            raise InputError(path, here, f"unknown setting(s) {', '.join(unknown)} (known: {', '.join(sorted(allowed))})")
        params = step.get("params") or {}
        if not isinstance(params, dict):
            raise InputError(path, f"{here}.params", "expected a mapping of parameter names to values or lists")
        if builtin:
            steps.append((None, step["use"], params))
            continue
        depth = step.get("depth", DEFAULT_DEPTH)
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise InputError(path, f"{here}.depth", f"expected a whole number of at least 1, got {depth!r}")
        try:
            function, version, source = resolve_step(step["use"], path.parent, REWRITERS)
        except ValueError as error:
            raise InputError(path, f"{here}.use", str(error)) from None
        steps.append((Step(step["use"], depth, {}, version, source, takes_feedback(function)), function, params))
    return steps


def _expansion_grid(tag: str, steps: list[tuple[Step | None, Any, dict[str, Any]]]
                    ) -> list[tuple[str, tuple[dict, ...], tuple]]:  # fmt: skip
    """(tag, the expansion steps with their settings, swept values) per combination of the values their parameters
    list; ValueError for values out of range. A built-in's settings are {use, params}; a rewriter's add its depth,
    code version, whether it takes feedback and (not part of the cache key) its module file."""
    grid: list[tuple[str, tuple[dict, ...], tuple]] = [(tag, (), ())]
    for step, used, written in steps:
        grid = [
            (step_tag, chosen_steps + (_expansion_settings(step, used, chosen),), swept + _listed(written, chosen))
            for run_tag, chosen_steps, swept in grid
            for step_tag, chosen in expand(run_tag, written)
        ]  # fmt: skip
    return grid


def _expansion_settings(step: Step | None, used: Any, chosen: dict[str, Any]) -> dict[str, Any]:
    """One expansion step's settings with the parameters `chosen` for a run."""
    if step is None:
        expander = EXPANDERS[used]
        checked = checked_params(f"the query expansion {used}", chosen, expander.defaults, expander.ranges)
        return {"use": used, "params": {**expander.defaults, **checked}}
    params = checked_step_params(step.use, used, chosen, REWRITERS)
    return {"use": step.use, "depth": step.depth, "params": params, "version": step.version,
            "feedback": step.feedback, "source": step.source}  # fmt: skip


def _step_grid(tag: str, steps: list[tuple[Step, Any, dict[str, Any]]]) -> list[tuple[str, tuple[Step, ...], tuple]]:
    """(tag, steps with their parameters, swept values) per combination of the values the steps' parameters list;
    ValueError for parameters their callables refuse."""
    grid: list[tuple[str, tuple[Step, ...], tuple]] = [(tag, (), ())]
    for step, function, written in steps:
        grid = [
            (step_tag, chosen_steps + (replace(step, params=checked_step_params(step.use, function, chosen)),),
             swept + _listed(written, chosen))
            for run_tag, chosen_steps, swept in grid
            for step_tag, chosen in expand(run_tag, written)
        ]  # fmt: skip
    return grid


def _listed(written: dict[str, Any], chosen: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """(name, value) of each parameter `written` as a list, with the value `chosen` for this run."""
    return tuple((name, chosen[name]) for name, value in written.items() if isinstance(value, list))


def _quality(path: Path, where: str, value: Any) -> dict[str, Any]:
    """A run's `quality`: false (none), true (the re-ranking's defaults) or a mapping of its settings, each a
    number or a list of them (one run per value)."""
    if isinstance(value, bool):
        return dict(QUALITY_DEFAULTS) if value else {}
    if not isinstance(value, dict) or not value:
        names = ", ".join(QUALITY_DEFAULTS)
        raise InputError(path, where, f"expected true, false or a mapping of re-ranking settings ({names})")
    return dict(value)
