"""The perspective track's part of the experiment report: per scenario and split, relevance and diversity at every
k, in-sample figures marked with the reason under their table."""

from __future__ import annotations

import json
from pathlib import Path

from argrank.evaluation.in_sample import InSample, marked
from argrank.formats.html import table, text
from argrank.tracks.perspective.evaluation import DIVERSITY, RELEVANCE, K


def perspective_section(published: Path) -> str:
    data = json.loads((published / "evaluation.json").read_text(encoding="utf-8"))
    html = []
    measures = [*RELEVANCE, *DIVERSITY]
    for name, result in data.items():
        in_sample = InSample.from_json(result)
        rows = [[str(k), *(marked(f"{result[f'{m}@{k}']:.4f}", f"{m}@{k}", in_sample) for m in measures)] for k in K]
        caption = f"{result['queries']} queries; rKL: lower is better"
        note = f"<p>{text(in_sample.note)}</p>" if in_sample else ""
        html.append(f"<h3>{text(name)}</h3>{table(['k', *measures], rows, caption)}{note}")
    return "".join(html)
