"""A trained model's target: one folder holding the model file (core.model_file) and the report of how well it
did on held-out data, written together atomically."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from argrank.core.atomic import atomic_path
from argrank.core.model_file import save_model

MODEL_FILE = "model.zip"
REPORT_FILE = "cross-validation.json"


def save_model_folder(path: Path, model: Any, report: dict, kind: str) -> None:
    """The model of `kind` and its report, as one folder at `path`."""
    with atomic_path(path) as tmp:
        tmp.mkdir()
        save_model(model, tmp / MODEL_FILE, kind)
        (tmp / REPORT_FILE).write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def model_path(folder: str | Path) -> Path:
    return Path(folder) / MODEL_FILE


def read_report(folder: str | Path) -> dict:
    """The report a model folder holds."""
    return json.loads((Path(folder) / REPORT_FILE).read_text(encoding="utf-8"))


def log_stance_report(report: dict) -> None:
    logging.getLogger("argrank").info(
        "stance classifier: cross-validated macro-F1 %.4f on %d examples", report["cv_macro_f1"], report["examples"]
    )
