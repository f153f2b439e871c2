"""The images track as the rest of the system sees it (tracks.track): images ranked by their pages' text with the
shared stages, 10 PRO and 10 CON chosen per topic (with a stance model trained on judged images), and scored by
the precision of those lists instead of ranking measures."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argrank.core.errors import InputError
from argrank.formats.html import text
from argrank.formats.validation import RunRules
from argrank.tracks.images.evaluation import AVERAGE, ImageScores, evaluate_images
from argrank.tracks.images.qrels import STANCES, read_image_qrels
from argrank.tracks.images.report import images_section
from argrank.tracks.section import RunSpec, TrackSection, is_number
from argrank.tracks.stance_settings import (
    STANCE_MODEL_DEFAULTS,
    check_stance_training,
    read_stance_model,
    read_stance_switch,
)
from argrank.tracks.track import RankingTrack, RunProblem

NEAR_DUPLICATE_BITS = 10  # images whose perceptual hashes differ in fewer bits are near-duplicates
TRAINING_FILE = "training-qrels.txt"  # the stance training set a TIRA input folder may bring


@dataclass(frozen=True)
class ImageSection(TrackSection):
    """The images section: the shared keys, the stance training set (judged images: `topic PRO|CON image rating`)
    with the classifier's settings, and how near two images' hashes must be to count as one."""

    stance_training: Path | None = None
    stance_model: dict[str, float] = field(default_factory=lambda: dict(STANCE_MODEL_DEFAULTS))
    near_duplicate_bits: int = NEAR_DUPLICATE_BITS


@dataclass(frozen=True)
class ImageRun(RunSpec):
    stance: bool = False  # the lists chosen by the trained stance model (else by cue words)
    found_weight: float = 0.0  # weight of "a search for this topic found the image"


@dataclass(frozen=True, eq=False)
class ImagesTrack(RankingTrack):
    def read_own(self, path: Path, where: str, settings: dict, located) -> dict[str, Any]:
        training = settings.get("stance_training")
        bits = settings.get("near_duplicate_bits", NEAR_DUPLICATE_BITS)
        if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits <= 64:
            raise InputError(path, f"{where}.near_duplicate_bits", "expected an integer from 0 (off) to 64")
        return {
            "stance_training": located("stance_training", training) if training is not None else None,
            "stance_model": read_stance_model(
                path, f"{where}.stance_model", settings.get("stance_model"), STANCE_MODEL_DEFAULTS
            ),
            "near_duplicate_bits": bits,
        }

    def read_run(self, path: Path, where: str, run: dict) -> dict[str, Any]:
        found_weight = run.get("found_weight", 0.0)
        if not is_number(found_weight) or not 0 <= found_weight < 1e9:
            raise InputError(path, f"{where}.found_weight", "expected a number of at least 0")
        return {"stance": read_stance_switch(path, where, run), "found_weight": float(found_weight)}

    def check_section(self, path: Path, section: ImageSection) -> None:
        check_stance_training(path, section.name, section.stance_training, section.runs)

    def for_tira(self, section: ImageSection, given: Path, topics: Path) -> ImageSection:
        """An image collection brings its own stance training set or none: the configured one judges images of
        another collection (a stance run then falls back to untrained stance)."""
        training = given / TRAINING_FILE
        section = super().for_tira(section, given, topics)
        return dataclasses.replace(section, stance_training=training if training.is_file() else None)

    def read_qrels(self, path: str | Path, known: list[str] | None = None) -> Any:
        return read_image_qrels(path, known)

    def score(self, run, qrels, measures, depth, average):
        """The four precisions of the 10 PRO and 10 CON images (measures and depth do not apply)."""
        try:
            return evaluate_images(run, qrels, average or AVERAGE)
        except ValueError as error:  # column 2 is not PRO or CON, or no judged topic in the run
            raise RunProblem(str(error)) from None

    def result_type(self):
        return ImageScores

    def report_extras(self, section: ImageSection, published: Path, evaluations, folder: Path, files) -> str:
        """Which figures are in-sample and why, then every run's images, with the first judgments file's labels."""
        if not section.qrels:
            return ""
        qrels = next(iter(section.qrels.values()))
        tags = [spec.tag for spec in section.runs]
        images = images_section(section.corpus, qrels, published, tags, folder, files)
        return in_sample_notes(evaluations) + images


def in_sample_notes(evaluations: dict) -> str:
    """A line per run and judgments file with in-sample figures: the comparison tables above show them unmarked."""
    lines = [
        f"{tag} / {name}, {' and '.join(scores.in_sample.measures)}: {scores.in_sample.note}"
        for tag, run in evaluations.items()
        for name, scores in run.judgments.items()
        if scores.in_sample is not None
    ]
    return "".join(f"<p>{text(line)}</p>" for line in lines)


TRACK = ImagesTrack(
    name="images",
    rerank_steps=False,  # its runs are chosen images per stance, not a ranking
    about="image retrieval for arguments: 10 PRO and 10 CON images per topic; precision@10 on-topic, "
    "argumentative, on-stance",
    corpus_key="collection",
    # Images are found by their page's text near them, the search queries that found them and the whole page.
    default_fields=("context", "queries", "page_text"),
    allowed_fields=("context", "queries", "page_text"),
    run_rules=RunRules(frozenset(STANCES), by_stance=True, max_per_list=10),
    track_keys=("stance_training", "stance_model", "near_duplicate_bits"),
    run_keys=("stance", "found_weight"),
    section_type=ImageSection,
    run_type=ImageRun,
    evaluate_options=("run", "name", "qrels", "topics", "csv", "json", "average"),
    compare_options=("run", "name", "qrels", "participants", "reference", "reference_baseline"),
    gate_measures=("on_stance@10",),
)
