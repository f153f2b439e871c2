"""The runs file: per track, where its data is and which named runs to produce (method and parameters).

Paths are relative to the runs file's own folder, so a config can travel with its data.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import yaml

from argrank.core.errors import InputError
from argrank.core.grid import expand
from argrank.core.names import name_problem
from argrank.evaluation.measures import EXAMPLES, canonical
from argrank.quality.rerank import DEFAULTS as QUALITY_DEFAULTS
from argrank.quality.rerank import RANGES as QUALITY_RANGES
from argrank.formats.runfile import Q0
from argrank.formats.validation import TREC, RunRules
from argrank.retrieval.queries import QUERIES
from argrank.retrieval.registry import checked_params, resolve_params
from argrank.tracks.comparative.stance_labels import LABELS as STANCE_LABELS
from argrank.tracks.images.qrels import STANCES as IMAGE_STANCES
from argrank.tracks.perspective.crosslingual import DEFAULTS as CROSSLINGUAL_DEFAULTS
from argrank.tracks.perspective.crosslingual import RANGES as CROSSLINGUAL_RANGES
from argrank.tracks.perspective.data import SCENARIOS, SPLITS
from argrank.tracks.perspective.ranking import DEFAULT_DIVERSIFY
from argrank.tracks.perspective.translation import DICTIONARIES

MAX_RUNS_PER_TRACK = 5  # Touché accepts at most five runs per team and task.
# Each shard is a tokenize, index and rank task per run, each with its cache files: beyond a few dozen the
# bookkeeping outweighs the parallelism (500 shards of 347 arguments made 4,513 cache files).
MAX_SHARDS = 64


@dataclass(frozen=True)
class TrackRules:
    """What a track's section may say: where its documents are, what can be indexed and queried, and the
    settings only some tracks have (beyond the common ones) for the track and for each run; and the rules its
    run files are checked against."""

    corpus_key: str
    default_fields: tuple[str, ...]
    allowed_fields: tuple[str, ...] | None  # None: any field the documents have
    queries: tuple[str, ...]
    run_rules: RunRules
    track_keys: tuple[str, ...] = ()
    run_keys: tuple[str, ...] = ()
    quality_text: str | None = None  # the document column the quality model reads; None: no quality re-ranking
    stance_training_files: int | None = 1  # how many stance training files the track's model reads; None: any


_STANCE_KEYS = ("stance_training", "stance_model")
TRACKS = {
    "args": TrackRules(
        "corpus",
        ("conclusion", "premise"),
        ("conclusion", "premise"),
        QUERIES[:2],
        TREC,
        track_keys=("measures", "quality_training"),
        run_keys=("quality",),
        quality_text="premise",
    ),
    "comparative": TrackRules(
        "passages",
        ("contents",),
        None,
        QUERIES,
        RunRules(frozenset({Q0, *STANCE_LABELS})),
        track_keys=("stance_qrels", *_STANCE_KEYS, "measures", "quality_training"),
        run_keys=("stance", "quality"),
        quality_text="contents",
        stance_training_files=None,  # the task's stance set, CompSent-19, our JSONL: all read into one model
    ),
    # Images are found by their page's text near them, the search queries that found them and the whole page.
    "images": TrackRules(
        "collection",
        ("context", "queries", "page_text"),
        ("context", "queries", "page_text"),
        QUERIES[:2],
        RunRules(frozenset(IMAGE_STANCES), by_stance=True, max_per_list=10),
        track_keys=(*_STANCE_KEYS, "near_duplicate_bits"),
        run_keys=("stance", "found_weight"),
    ),
}
PERSPECTIVE = "perspective"  # its section has a shape of its own: see PerspectiveTrack
STANCE_MODEL_DEFAULTS = {"c": 1.0, "folds": 5}
# The comparative stance model's linear SVMs cross-validated best at C 0.3 on the real stance sets
# (docs/tracks/comparative.md); the images model is a logistic regression of its own.
TRACK_STANCE_DEFAULTS = {"comparative": {"c": 0.3}}
NEAR_DUPLICATE_BITS = 10  # images whose perceptual hashes differ in fewer bits are near-duplicates


@dataclass(frozen=True)
class RunSpec:
    tag: str
    method: str
    params: dict[str, float]
    query: str
    stance: bool = False
    found_weight: float = 0.0  # images: weight of "a search for this topic found the image"
    quality: dict[str, float] = field(default_factory=dict)  # the quality re-ranking's settings; none: no re-ranking


@dataclass(frozen=True)
class Track:
    """One track's section of the runs file; `corpus` is where its documents are (args.me folder, passages file)."""

    name: str
    corpus: Path
    topics: Path
    qrels: dict[str, Path] = field(default_factory=dict)
    language: str = "en"
    fields: tuple[str, ...] = ()
    depth: int = 1000
    runs: tuple[RunSpec, ...] = ()
    stance_qrels: Path | None = None
    stance_training: tuple[Path, ...] = ()
    stance_model: dict[str, float] = field(default_factory=lambda: dict(STANCE_MODEL_DEFAULTS))
    near_duplicate_bits: int = NEAR_DUPLICATE_BITS
    shards: int = 1  # row ranges of the documents tokenized, indexed and ranked as tasks of their own
    measures: tuple[str, ...] = ()  # ir_measures names to evaluate; none: the track's defaults
    quality_training: Path | None = None  # the quality model's training set (Webis-ArgQuality-20's format)


@dataclass(frozen=True)
class PerspectiveTrack:
    """The perspective track's section: a release directory and which scenarios and splits to rank.

    One ranking per scenario and split (no tags: the submission is one file per scenario and split); `params`
    are the cross-lingual ranker's (`crosslingual.DEFAULTS`).
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


@dataclass(frozen=True)
class Experiment:
    """A runs file: its tracks, under a name its outputs are published by (`outputs/experiments/<name>/`), and
    whether it is the submission, which is also published to `outputs/submission/` and held to Touché's limit
    of five runs per track."""

    name: str
    submission: bool
    tracks: dict[str, Track | PerspectiveTrack]


EXPERIMENT_KEYS = ("experiment", "submission")  # the runs file's own settings beside its tracks


def load_experiment(path: str | Path) -> Experiment:
    """Read and check a runs file; every problem is an InputError naming the offending key.

    Parsed and checked once per content: every task of a graph asks for its runs file while Luigi schedules, and
    doing it each time took a few percent of a re-run.
    """
    path = Path(path)
    try:
        content = path.read_bytes()
    except FileNotFoundError:
        raise InputError(path, "", "runs file not found") from None
    return _load_experiment(path, path.resolve(), content)


@functools.lru_cache(maxsize=32)
def _load_experiment(path: Path, resolved: Path, content: bytes) -> Experiment:
    """load_experiment of `content`, the file `resolved` (named `path` by the user, for messages)."""
    try:
        raw = yaml.load(content.decode("utf-8"), Loader=_UniqueKeyLoader)
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
        _check_name(path, "experiment", name)
    elif name_problem(name):
        problem = f"the file's stem names the experiment, but {name_problem(name)}: name it with `experiment:`"
        raise InputError(path, "", problem)
    submission = raw.get("submission", False)
    if not isinstance(submission, bool):
        raise InputError(path, "submission", "expected true or false")
    tracks = {}
    for track, settings in raw.items():
        if track in EXPERIMENT_KEYS:
            continue
        if track == PERSPECTIVE:
            tracks[track] = _perspective(path, settings)
        elif track in TRACKS:
            tracks[track] = _track(path, track, TRACKS[track], settings, submission)
        else:
            known = ", ".join([*TRACKS, PERSPECTIVE, *EXPERIMENT_KEYS])
            raise InputError(path, str(track), f"unknown track or setting (known: {known})")
    return Experiment(name, submission, tracks)


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key given twice in one mapping: plain YAML keeps the last one silently, so
    a run's second `k1` or a second track section would replace the first unnoticed."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen = set()
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:merge":
                key = self.construct_object(key_node)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r} (the second would replace the first)", key_node.start_mark
                    )
                seen.add(key)
        return super().construct_mapping(node, deep)


def _check_name(path: Path, where: str, name: Any) -> None:
    """InputError at `where` unless `name` can be part of a path (core.names)."""
    problem = name_problem(name)
    if problem:
        raise InputError(path, where, problem)


@functools.cache
def supported_languages() -> frozenset[str]:
    """The spaCy codes the analyzer can work in: those spacy-lookups-data has a lemma lookup table for."""
    return frozenset(point.name for point in entry_points(group="spacy_lookups") if "lemma_lookup" in point.load())


def _language(path: Path, where: str, value: Any) -> str:
    """A `language` setting: one supported code, or several separated by commas for a corpus that mixes them."""
    codes = [code.strip() for code in value.split(",")] if isinstance(value, str) else []
    unknown = sorted(set(codes) - supported_languages())
    if not codes or unknown or len(set(codes)) < len(codes):
        known = ", ".join(sorted(supported_languages()))
        got = f"unsupported {', '.join(map(repr, unknown))}" if unknown else f"got {value!r}"
        raise InputError(
            path, where, f"expected a language code, or several separated by commas ({got}; known: {known})"
        )
    return value


def load_config(path: str | Path) -> dict[str, Track | PerspectiveTrack]:
    """The tracks of a runs file (see load_experiment)."""
    return load_experiment(path).tracks


def _perspective(path: Path, settings: Any) -> PerspectiveTrack:
    where = PERSPECTIVE
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
        value = settings.get(key, list(PerspectiveTrack.__dataclass_fields__[key].default))
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
    if not _is_number(diversify) or not 0 <= diversify <= 1:
        raise InputError(path, f"{where}.diversify", "expected a number from 0 (off) to 1")
    implicit_stance = settings.get("implicit_stance", True)
    if not isinstance(implicit_stance, bool):
        raise InputError(path, f"{where}.implicit_stance", "expected true or false")
    dictionaries = settings.get("dictionaries", DICTIONARIES)
    if not isinstance(dictionaries, str) or not dictionaries:
        raise InputError(path, f"{where}.dictionaries", "expected the path of a folder of FreeDict dictionaries")
    return PerspectiveTrack(
        name=PERSPECTIVE,
        dictionaries=str((path.parent / dictionaries).resolve()),
        diversify=float(diversify),
        implicit_stance=implicit_stance,
        corpus=(path.parent / settings["data"]).resolve(),
        language=_language(path, f"{where}.language", settings.get("language", "de,fr,it")),
        depth=depth,
        params=params,
        **chosen,
    )


def _training_files(path: Path, where: str, value: Any, rules: TrackRules, located) -> tuple[Path, ...]:
    """`stance_training` as files: one path, or a list where the track's model reads several."""
    if value is None:
        return ()
    values = value if isinstance(value, list) and rules.stance_training_files != 1 else [value]
    if not values or (rules.stance_training_files is not None and len(values) > rules.stance_training_files):
        expected = "a path" if rules.stance_training_files == 1 else "a path or a list of paths"
        raise InputError(path, where, f"expected {expected}")
    files = tuple(located(f"stance_training[{i}]" if isinstance(value, list) else "stance_training", v)
                  for i, v in enumerate(values))  # fmt: skip
    if len(set(files)) < len(files):
        raise InputError(path, where, "a file is listed twice")
    return files


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and value < float("inf")


def _track(path: Path, name: str, rules: TrackRules, settings: Any, submission: bool) -> Track:
    where = name
    if not isinstance(settings, dict):
        raise InputError(path, where, "expected a mapping")
    known = {rules.corpus_key, "topics", "qrels", "language", "fields", "depth", "shards", "runs", *rules.track_keys}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise InputError(path, where, f"unknown setting(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    base = path.parent

    def located(key: str, value: Any) -> Path:
        if not isinstance(value, str) or not value:
            raise InputError(path, f"{where}.{key}", "expected a path")
        return (base / value).resolve()

    def optional(key: str) -> Path | None:
        return located(key, settings[key]) if settings.get(key) is not None else None

    for key in (rules.corpus_key, "topics"):
        if key not in settings:
            raise InputError(path, where, f"missing setting {key!r}")
    qrels = settings.get("qrels") or {}
    if not isinstance(qrels, dict):
        raise InputError(path, f"{where}.qrels", "expected a mapping of names to qrels files")
    if "stance" in qrels:
        raise InputError(path, f"{where}.qrels.stance", "the name 'stance' is for stance_qrels' results")
    for qrels_name in qrels:
        _check_name(path, f"{where}.qrels.{qrels_name}", qrels_name)
    fields = settings.get("fields", rules.default_fields)
    if (
        not isinstance(fields, list | tuple)
        or not fields
        or not all(isinstance(f, str) and f for f in fields)
        or (rules.allowed_fields is not None and not set(fields) <= set(rules.allowed_fields))
    ):
        allowed = ", ".join(rules.allowed_fields) if rules.allowed_fields else "the documents' field names"
        raise InputError(path, f"{where}.fields", f"expected a list drawn from {allowed}")
    depth = settings.get("depth", 1000)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 1000:
        raise InputError(path, f"{where}.depth", "expected an integer from 1 to 1000")
    runs = _runs(path, f"{where}.runs", settings.get("runs"), rules, submission)
    stance_training = _training_files(path, f"{where}.stance_training", settings.get("stance_training"), rules, located)
    if not stance_training and any(spec.stance for spec in runs):
        raise InputError(path, f"{where}.stance_training", "runs with stance need a stance training set")
    quality_training = optional("quality_training")
    if quality_training is None and any(spec.quality for spec in runs):
        raise InputError(path, f"{where}.quality_training", "runs with quality need a quality training set")
    bits = settings.get("near_duplicate_bits", NEAR_DUPLICATE_BITS)
    if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits <= 64:
        raise InputError(path, f"{where}.near_duplicate_bits", "expected an integer from 0 (off) to 64")
    shards = settings.get("shards", 1)
    if isinstance(shards, bool) or not isinstance(shards, int) or not 1 <= shards <= MAX_SHARDS:
        raise InputError(
            path,
            f"{where}.shards",
            f"expected an integer from 1 to {MAX_SHARDS} (more shards add cache files and tasks, not speed)",
        )
    measures = _measures(path, f"{where}.measures", settings.get("measures", []))
    _published_names(path, where, [spec.tag for spec in runs], list(qrels))
    return Track(
        name=name,
        corpus=located(rules.corpus_key, settings[rules.corpus_key]),
        topics=located("topics", settings["topics"]),
        qrels={str(k): located(f"qrels.{k}", v) for k, v in qrels.items()},
        language=_language(path, f"{where}.language", settings.get("language", "en")),
        fields=tuple(fields),
        depth=depth,
        runs=runs,
        stance_qrels=optional("stance_qrels"),
        stance_training=stance_training,
        stance_model=_stance_model(
            path, f"{where}.stance_model", {**TRACK_STANCE_DEFAULTS.get(name, {}), **(settings.get("stance_model") or {})}
        ),
        near_duplicate_bits=bits,
        shards=shards,
        measures=measures,
        quality_training=quality_training,
    )


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
    try:
        return tuple(dict.fromkeys(canonical(name) for name in names))
    except ValueError as error:
        raise InputError(path, where, str(error)) from None


def _stance_model(path: Path, where: str, settings: Any) -> dict[str, float]:
    """The classifier's settings: `c` (inverse regularisation, > 0) and `folds` (cross-validation, ≥ 2)."""
    if not isinstance(settings, dict):
        raise InputError(path, where, "expected a mapping with c and folds")
    unknown = sorted(set(settings) - set(STANCE_MODEL_DEFAULTS))
    if unknown:
        raise InputError(path, where, f"unknown setting(s) {', '.join(unknown)} (known: c, folds)")
    resolved = {**STANCE_MODEL_DEFAULTS, **settings}
    c, folds = resolved["c"], resolved["folds"]
    if isinstance(c, bool) or not isinstance(c, int | float) or not 0 < c < float("inf"):
        raise InputError(path, f"{where}.c", "expected a positive number")
    if isinstance(folds, bool) or not isinstance(folds, int) or folds < 2:
        raise InputError(path, f"{where}.folds", "expected an integer of at least 2")
    return {"c": float(c), "folds": folds}


def _runs(path: Path, where: str, runs: Any, rules: TrackRules, submission: bool) -> tuple[RunSpec, ...]:
    """The runs of a track, a parameter grid expanded to one run per combination; a submission has at most
    MAX_RUNS_PER_TRACK of them."""
    if not isinstance(runs, dict) or not runs:
        raise InputError(path, where, "expected a mapping of run tags to run settings")
    specs = {}
    for tag, run in runs.items():
        for spec in _run(path, f"{where}.{tag}", tag, run, rules):
            _check_name(path, f"{where}.{tag}", spec.tag)
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


def _run(path: Path, here: str, tag: Any, run: Any, rules: TrackRules) -> list[RunSpec]:
    """One entry of `runs`: a run, or one per combination of the values its parameters list."""
    _check_name(path, here, tag)
    if not isinstance(run, dict):
        raise InputError(path, here, "expected a mapping with method, params and query")
    unknown = sorted(set(run) - {"method", "params", "query", *rules.run_keys})
    if unknown:
        raise InputError(path, here, f"unknown setting(s) {', '.join(unknown)}")
    method = run.get("method", "bm25")
    query = run.get("query", "title")
    if query not in rules.queries:
        raise InputError(path, f"{here}.query", f"unknown query {query!r} (known: {', '.join(rules.queries)})")
    stance = run.get("stance", False)
    if not isinstance(stance, bool):
        raise InputError(path, f"{here}.stance", "expected true or false")
    found_weight = run.get("found_weight", 0.0)
    if isinstance(found_weight, bool) or not isinstance(found_weight, int | float) or not 0 <= found_weight < 1e9:
        raise InputError(path, f"{here}.found_weight", "expected a number of at least 0")
    params = run.get("params") or {}
    if not isinstance(params, dict):
        raise InputError(path, f"{here}.params", "expected a mapping of parameter names to numbers or lists of them")
    quality = _quality(path, f"{here}.quality", run.get("quality", False))
    specs = []
    try:
        for run_tag, chosen in expand(tag, params):
            resolved = resolve_params(method, chosen)
            for quality_tag, settings in expand(run_tag, quality) if quality else [(run_tag, {})]:
                checked = checked_params("the quality re-ranking", settings, QUALITY_DEFAULTS, QUALITY_RANGES)
                reranking = {**QUALITY_DEFAULTS, **checked} if quality else {}
                specs.append(RunSpec(quality_tag, method, resolved, query, stance, float(found_weight), reranking))
    except ValueError as error:
        raise InputError(path, here, str(error)) from None
    return specs


def _quality(path: Path, where: str, value: Any) -> dict[str, Any]:
    """A run's `quality`: false (none), true (the re-ranking's defaults) or a mapping of its settings, each a
    number or a list of them (one run per value)."""
    if isinstance(value, bool):
        return dict(QUALITY_DEFAULTS) if value else {}
    if not isinstance(value, dict) or not value:
        names = ", ".join(QUALITY_DEFAULTS)
        raise InputError(path, where, f"expected true, false or a mapping of re-ranking settings ({names})")
    return dict(value)
