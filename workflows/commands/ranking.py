"""`argrank evaluate` and `argrank compare` for a ranking track (tracks.track.RankingTrack): a run file scored
against judgments in the track's format, and runs compared with paired significance tests. A track of another
shape has a module of its own for them (Track.command_line), with the same functions.

`compare` takes the runs an experiment published (`outputs/experiments/<name>/<track>/<tag>.txt`), of one or
several experiments (tags then read `<experiment>/<tag>`), and any run files given with --run (tag: the file's
stem). Every run is scored here, against the same judgments, on every judged topic (0 where a run lacks one), so
the tests pair the same topics.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from argrank.config import experiment_section
from argrank.core.errors import InputError
from argrank.core.fingerprint import file_digest
from argrank.core.layout import experiment_folder
from argrank.evaluation.comparison import Significance
from argrank.evaluation.comparison import compare as compare_runs
from argrank.evaluation.measures import MAX_CUTOFF, canonical
from argrank.evaluation.ranking import default_measures
from argrank.evaluation.report import format_table, per_pair_csv, per_topic_csv
from argrank.evaluation.reproducibility import Reproducibility, TopRanked, against_reference, undefined_note
from argrank.evaluation.results import JUDGED_TOPICS, TopicScores
from argrank.evaluation.standings import participant_files, standings
from argrank.formats.run_names import refuse_shared, run_names
from argrank.formats.runfile import iter_run, read_run, watched
from argrank.formats.topics import read_topics, topic_order
from argrank.tracks.section import TrackSection
from argrank.tracks.track import RankingTrack, RunProblem
from workflows.commands.comparison_output import show_comparisons, show_standings
from workflows.commands.output_options import written

DEFAULT_DEPTH = 5


def evaluate(track: RankingTrack, args: argparse.Namespace) -> int:
    """Each --run's scores against each --qrels (the track's measures, or those named), in one table, and its
    stance against --stance-qrels where the track has stance judgments."""
    if not args.run:
        args.usage_error(f"--track {track.name} needs --run")
    stance = track.stance_judgments
    if not (args.qrels or (stance and args.stance_qrels)):
        args.usage_error("give --qrels, --stance-qrels or both" if stance else f"--track {track.name} needs --qrels")
    if args.csv and not args.qrels:
        args.usage_error("--csv writes per-topic scores, which needs --qrels")
    for option, given in (("run", args.run), ("qrels", args.qrels or [])):
        if len(set(given)) != len(given):
            args.usage_error(f"--{option} names a file twice: {', '.join(given)}")
    try:
        names = dict(zip(args.run, run_names(args.run, args.name)))
        qrels_names = dict(zip(args.qrels or [], run_names(args.qrels or [], kind="qrels")))
    except ValueError as error:
        args.usage_error(str(error))
    if args.depth is not None and not 1 <= args.depth <= MAX_CUTOFF:
        args.usage_error(f"--depth {args.depth}: expected a cut-off of at least 1 and at most {MAX_CUTOFF:,}")
    measures = _named_measures(args)
    known = [t.number for t in read_topics(args.topics)] if args.topics else None
    judgments = {path: track.read_qrels(path, known) for path in args.qrels or []}
    stance_judged = stance.read(args.stance_qrels, known) if stance and args.stance_qrels else None
    results: dict[tuple[str, str], TopicScores] = {}
    stances = {}
    # A run scored once, by the measures one names, is read as it is scored: only its documents and scores are
    # kept (formats.runfile.iter_run), and of its stance only the judged documents' (stance.kept), not every line.
    once = track.named_measures and len(judgments) <= 1
    for path in args.run:
        kept = stance.kept(stance_judged) if stance_judged is not None else None
        run = watched(iter_run(path), *([kept] if kept else []))
        if not once:  # scored more than once, or by the track's own measures: every line is kept
            run = list(run)
        for qrels_path, qrels in judgments.items():
            try:
                results[(path, qrels_path)] = track.score(run, qrels, measures, args.depth or DEFAULT_DEPTH, args.average)
            except RunProblem as error:
                raise InputError(path, "", str(error)) from None
            except ValueError as error:  # a fractional label, or no topic shared with the run
                raise InputError(qrels_path, "", f"{error} (run {path})") from None
        if kept is not None:
            try:
                if not judgments:  # the run is read for its stance alone
                    for _ in run:
                        pass
                stances[path] = stance.evaluate(kept.lines, stance_judged)
            except ValueError as error:  # column 2 mixes Q0 and stance labels: name the run file too
                raise InputError(path, "", str(error)) from None
    single = len(args.run) == 1 and len(judgments) <= 1
    named = {(names[run], qrels_names[qrels]): scores for (run, qrels), scores in results.items()}
    if args.csv:
        table = per_topic_csv(*results.values()) if single else per_pair_csv(named)
        if written(args.csv, table):  # - : the CSV alone on standard output
            sys.stdout.write(table)
            return 0
    if args.json:
        print(json.dumps(_evaluation_json(results, stances, args.stance_qrels, single, names), indent=2))
        return 0
    if results:
        print(format_table({f"{run} / {qrels}": scores for (run, qrels), scores in named.items()}))
    for path, scores in stances.items():
        print(stance.format(f"{names[path]} / {Path(args.stance_qrels).stem}", scores))
    return 0


def _evaluation_json(results: dict[tuple[str, str], TopicScores], stances: dict, stance_qrels: str | None,
                     single: bool, names: dict[str, str]) -> dict:  # fmt: skip
    """One run on one judgments file: its scores' JSON (and its stance's), as before several could be given; else
    `{"results": [{"run", "name", "qrels", …scores}], "stance": [{"run", "name", "stance_qrels", …}]}`, `run` the
    file and `name` the run's name in tables."""
    if single:
        return {**(next(iter(results.values())).to_json() if results else {}),
                **(next(iter(stances.values())).to_json() if stances else {})}  # fmt: skip
    return {
        "results": [{"run": run, "name": names[run], "qrels": qrels, **scores.to_json()}
                    for (run, qrels), scores in results.items()],  # fmt: skip
        **({"stance": [{"run": run, "name": names[run], "stance_qrels": stance_qrels, **scores.to_json()}
                       for run, scores in stances.items()]} if stances else {}),  # fmt: skip
    }


def _named_measures(args: argparse.Namespace) -> list[str] | None:
    """The --measure names as stored (aliases resolved), or None for the default set at --depth."""
    if not getattr(args, "measure", None):
        return None
    if getattr(args, "depth", None) is not None:
        args.usage_error("--depth sets the default measures' cut-off; a --measure names its own (nDCG@10)")
    try:
        return list(dict.fromkeys(canonical(name) for name in args.measure))
    except ValueError as error:
        args.usage_error(str(error))


def compare(track: RankingTrack, args: argparse.Namespace) -> int:
    """The runs against the baseline on every measure, paired over the judged topics: each --baseline, else the
    first experiment's `baseline:`, else the first run."""
    runs_files = args.runs_file or ([] if args.run else ["runs.yaml"])
    sections = [experiment_section(path, track.name) for path in runs_files]
    qrels_name, qrels_path = _qrels(args, sections)
    runs = _runs(args, runs_files, sections)
    measures = _named_measures(args)
    if measures is None:
        configured = sections[0][1].measures if sections else ()
        measures = list(configured) or default_measures(DEFAULT_DEPTH)
    stance = track.stance_judgments
    stance_qrels = getattr(args, "stance_qrels", None) or (track.stance_qrels(sections[0][1]) if sections else None)
    shared = _shared_topics(sections, runs_files)
    stance_judged = _kept(stance.read(stance_qrels), shared) if stance and stance_qrels else None
    judged = track.read_qrels(qrels_path)
    qrels = _kept(judged, shared)
    if not qrels:
        raise InputError(qrels_path, "", "none of its judged topics is ranked by every experiment compared")
    dropped = [topic for topic in topic_order(judged) if topic not in qrels]
    participants = _participants(args, runs) if getattr(args, "participants", None) else {}
    per_topic, pooled, names, rankings, missing = {}, {}, measures, {}, {}
    # Each run is read as it is scored (as by evaluate); what else is needed of it is kept on the way: the lines of
    # stance-judged documents for stance, each topic's top for the reproducibility measures (TopRanked).
    reference = bool(getattr(args, "reference", None))
    for tag, path in {**runs, **participants}.items():
        watchers = {}
        if stance_judged is not None:
            watchers["stance"] = stance.kept(stance_judged)
        if reference and tag in runs:
            watchers["top"] = TopRanked()
        lines = watched(iter_run(path), *watchers.values())
        if not track.named_measures:  # the track's own measures may read the lines more than once
            lines = list(lines)
        try:
            result: TopicScores = track.score(lines, qrels, measures, None, JUDGED_TOPICS)
            if "stance" in watchers:
                pooled[tag] = {"stance_f1": stance.evaluate(watchers["stance"].lines, stance_judged).macro}
        except RunProblem as error:  # column 2 mixes Q0 and stance labels
            raise InputError(path, "", str(error)) from None
        except ValueError as error:
            raise InputError(path, "", f"{error} (judgments {qrels_path})") from None
        per_topic[tag], names = result.per_topic, result.measures
        missing[tag] = list(result.missing)
        if "top" in watchers:
            rankings[tag] = watchers["top"].ranking()
    topics = {"topics_dropped": dropped, "missing_topics": {tag: lacks for tag, lacks in missing.items() if lacks}}
    for note in _topic_notes(qrels_path, len(qrels), dropped, topics["missing_topics"]):
        print(f"argrank: note: {note}", file=sys.stderr)
    if participants:
        return _show_standings(args, track.name, qrels_name, per_topic, list(runs), names, pooled)
    baselines = args.baseline or [_configured_baseline(sections) or next(iter(runs))]
    try:
        significance = Significance(args.test, args.correction, args.alpha, args.permutations, args.seed, args.pairs)
        comparisons = [compare_runs(track.name, qrels_name, per_topic, baseline, names, significance, pooled)
                       for baseline in baselines]  # fmt: skip
    except ValueError as error:
        args.usage_error(str(error))
    reproduction = _reproduction(args, track, qrels, names, per_topic, rankings, baselines[0])
    shown = show_comparisons(args, [(comparison, per_topic) for comparison in comparisons], lambda: {
        **(comparisons[0].to_json() if len(comparisons) == 1 else
           {"track": track.name, "baselines": baselines, "comparisons": [c.to_json() for c in comparisons]}),
        **({"reference": args.reference, "reproducibility": _finite(reproduction[1])} if reproduction else {}),
        **topics}, [reproduction[0]] if reproduction else [])
    return shown


def _shared_topics(sections: list[tuple[str, TrackSection]], runs_files: list[str]) -> set[str] | None:
    """The topics every compared experiment ranks (each section's topics file), so that every run is scored on the
    same topics whatever the order of the runs files; None where no experiment is compared (run files only)."""
    shared = None
    for runs_file, (_, section) in zip(runs_files, sections):
        try:
            numbers = {topic.number for topic in read_topics(section.topics)}
        except InputError as error:
            raise InputError(error.path, error.where, f"{error.problem} (topics of {runs_file})") from None
        shared = numbers if shared is None else shared & numbers
    return shared


def _kept(judged: dict, topics: set[str] | None) -> dict:
    """The judgments of `topics` (all where None)."""
    return judged if topics is None else {topic: by_doc for topic, by_doc in judged.items() if topic in topics}


def _topic_notes(qrels: str, scored: int, dropped: list[str], missing: dict[str, list[str]]) -> list[str]:
    """What the means are over, where that is not simply every judged topic of every run: the judged topics left
    out because an experiment compared does not rank them, and per run the judged topics it lacks (0 each)."""
    notes = []
    if dropped:
        notes.append(f"{len(dropped)} judged topics of {qrels} are not ranked by every experiment compared and are "
                     f"left out of every run's scores: {_shown(dropped)}; each run is scored on the {scored} others")  # fmt: skip
    for tag, lacks in missing.items():
        notes.append(f"{tag} lacks {len(lacks)} of the {scored} judged topics, each counted as 0 (as Touché's "
                     f"evaluation and trec_eval -c): {_shown(lacks)}")  # fmt: skip
    return notes


def _shown(topics: list[str], count: int = 10) -> str:
    return ", ".join(topics[:count]) + (f" … ({len(topics)})" if len(topics) > count else "")


def _reproduction(args: argparse.Namespace, track: RankingTrack, qrels, measures: list[str], per_topic: dict,
                  rankings: dict, baseline: str) -> tuple[Reproducibility, dict] | None:  # fmt: skip
    """With --reference: (the table, the figures) of every run but the baseline against the reference run, the
    effects over the baseline and the reference's over --reference-baseline (default the same baseline)."""
    if not args.reference:
        if args.reference_baseline:
            args.usage_error("--reference-baseline needs --reference")
        return None
    scored = {}
    for option in ("reference", "reference_baseline"):
        path = getattr(args, option)
        if path:
            top = TopRanked()
            try:
                scores = track.score(watched(iter_run(path), top), qrels, measures, None, JUDGED_TOPICS).per_topic
            except ValueError as error:
                raise InputError(path, "", str(error)) from None
            scored[option] = (top.ranking(), scores)
    reference_ranking, reference_scores = scored["reference"]
    reference_baseline = scored["reference_baseline"][1] if "reference_baseline" in scored else per_topic[baseline]
    others = {tag: ranking for tag, ranking in rankings.items() if tag != baseline}
    result = against_reference(reference_ranking, reference_scores, reference_baseline, others, per_topic,
                               per_topic[baseline], measures)  # fmt: skip
    note = undefined_note(args.reference, result)
    if note:
        print(f"argrank: warning: {note}", file=sys.stderr)
    return Reproducibility(args.reference, args.reference_baseline or baseline, baseline, result, measures), result


def _finite(value):
    """JSON-safe: nan and infinity (an effect ratio over no effect) as null."""
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _participants(args: argparse.Namespace, ours: dict[str, str]) -> dict[str, str]:
    """Name → run file of every run in --participants (evaluation.standings.participant_files), with a warning
    for the files skipped."""
    if not ours:
        args.usage_error("--participants places runs of yours among them: give --run or --runs-file")
    folder = Path(args.participants)
    try:
        found = participant_files(folder, list(ours))
    except ValueError as error:
        args.usage_error(f"--participants {error}")
    for note in found.notes(folder):
        print(f"argrank: warning: {note}", file=sys.stderr)
    return {tag: str(path) for tag, path in found.runs.items()}


def _show_standings(args: argparse.Namespace, track: str, qrels: str, per_topic: dict, ours: list[str],
                    measures: list[str], pooled: dict) -> int:  # fmt: skip
    """Show where our runs stand among the participants' (evaluation.standings): ranked by the first measure, every
    measure and the pooled figures (stance F1) shown, ours tested on each measure."""
    try:
        significance = Significance(args.test, args.correction, args.alpha, args.permutations, args.seed)
        result = standings(track, qrels, per_topic, ours, measures, significance, pooled=pooled)
    except ValueError as error:
        args.usage_error(str(error))
    return show_standings(args, result)


def _configured_baseline(sections: list[tuple[str, TrackSection]]) -> str | None:
    """The first experiment's `baseline:` run, tagged as compare tags it."""
    if not sections or not sections[0][1].baseline:
        return None
    experiment, section = sections[0]
    return f"{experiment}/{section.baseline}" if len(sections) > 1 else section.baseline


def _qrels(args: argparse.Namespace, sections: list[tuple[str, TrackSection]]) -> tuple[str, str]:
    """(name, path) of the judgments: --qrels as a configured name or a file, else the first experiment's
    "relevance" judgments, or its first."""
    configured = sections[0][1].qrels if sections else {}
    if args.qrels in configured:
        return args.qrels, str(configured[args.qrels])
    if args.qrels:
        if not Path(args.qrels).is_file():
            known = f"a configured name ({', '.join(configured)}) or " if configured else ""
            args.usage_error(f"--qrels {args.qrels}: expected {known}a qrels file")
        return Path(args.qrels).name, args.qrels
    if not configured:
        args.usage_error("give --qrels: the experiment configures no judgments" if sections else "give --qrels")
    name = "relevance" if "relevance" in configured else next(iter(configured))
    _same_judgments(args, sections, name)
    return name, str(configured[name])


def _same_judgments(args: argparse.Namespace, sections: list[tuple[str, TrackSection]], name: str) -> None:
    """Usage error where the experiments compared judge `name` by different files: whichever came first would decide
    every run's scores."""
    first_experiment, first = sections[0][0], sections[0][1].qrels[name]
    for experiment, section in sections[1:]:
        other = section.qrels.get(name)
        if other is None or file_digest(other) != file_digest(first):
            which = f"by {other}" if other else "not at all"
            args.usage_error(f"the experiments judge {name!r} differently: {first_experiment} by {first}, {experiment} "
                             f"{which}; give --qrels FILE to score every run on one judgments file")  # fmt: skip


def _runs(args: argparse.Namespace, runs_files: list[str], sections: list[tuple[str, TrackSection]]) -> dict[str, str]:
    """Tag → run file: each experiment's published runs, then the --run files."""
    runs = {}
    for runs_file, (experiment, section) in zip(runs_files, sections):
        folder = experiment_folder(args.outputs, experiment) / section.name
        for spec in section.runs:
            path = folder / f"{spec.tag}.txt"
            if not path.is_file():
                raise InputError(path, "", f"not published: run the experiment {runs_file} first (argrank run)")
            runs[f"{experiment}/{spec.tag}" if len(sections) > 1 else spec.tag] = str(path)
    try:
        named = dict(zip(run_names(args.run or [], args.name), args.run or []))
        refuse_shared([*runs.items(), *named.items()])
    except ValueError as error:
        args.usage_error(str(error))
    return {**runs, **named}
