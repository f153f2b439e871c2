"""The comparative track's part of the experiment report: stance F1 per run (in-sample ones marked, with the reason
under the table), and the confusion of each stance run's labels with the judged ones."""

from __future__ import annotations

from pathlib import Path

from argrank.evaluation.in_sample import marked, notes
from argrank.evaluation.results import RunScores
from argrank.formats.html import table, text
from argrank.formats.runfile import read_run
from argrank.tracks.comparative.stance_evaluation import confusion, stance_pairs
from argrank.tracks.comparative.stance_labels import LABELS
from argrank.tracks.comparative.stance_qrels import read_stance_qrels


def stance_section(stance_qrels: Path | None, published: Path, evaluations: dict[str, RunScores]) -> str:
    """Stance F1 per run, and for each run with stance the confusion of its labels with `stance_qrels`'."""
    rows = [
        [tag, marked(_number(run.stance.macro), "stance_f1", run.stance.in_sample) if run.stance else "-",
         str(run.stance.pairs) if run.stance else "-", _number((run.classifier or {}).get("cv_macro_f1"))]
        for tag, run in evaluations.items()
    ]  # fmt: skip
    html = ["<h3>stance</h3>", table(["run", "stance macro-F1", "pairs", "classifier CV macro-F1"], rows)]
    marks = notes(run.stance.in_sample for run in evaluations.values() if run.stance)
    html += [f"<p>{text(note)}</p>" for note in marks]
    if stance_qrels is None:
        return "".join(html)
    judged = read_stance_qrels(stance_qrels)
    for tag, run in evaluations.items():
        if run.stance is None or run.stance.macro is None:
            continue
        matrix = confusion(stance_pairs(read_run(published / f"{tag}.txt"), judged))
        body = [[f"judged {label}", *(str(matrix[label][predicted]) for predicted in LABELS)] for label in LABELS]
        html.append(table(["", *(f"run says {label}" for label in LABELS)], body, f"{tag}: stance confusion"))
    return "".join(html)


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"
