"""The perspective track's part of the experiment report: per scenario and split, relevance and diversity at every
k."""

from __future__ import annotations

import json
from pathlib import Path

from argrank.reporting.html import table, text
from argrank.tracks.perspective.evaluation import DIVERSITY, RELEVANCE, K


def perspective_section(published: Path) -> str:
    data = json.loads((published / "evaluation.json").read_text(encoding="utf-8"))
    html = []
    measures = [*RELEVANCE, *DIVERSITY]
    for name, result in data.items():
        rows = [[str(k), *(f"{result[f'{m}@{k}']:.4f}" for m in measures)] for k in K]
        caption = f"{result['queries']} queries; rKL: lower is better"
        html.append(f"<h3>{text(name)}</h3>{table(['k', *measures], rows, caption)}")
    return "".join(html)
