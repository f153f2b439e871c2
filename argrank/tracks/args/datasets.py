"""The ir_datasets ids of Touché Task 1 the args track reads from ir_datasets' cache (formats.ir_datasets_cache),
at the paths ir_datasets writes them: argsme.py's five files for args.me 2020-04-01 (its `argsme/2020-04-01/<portal>`
subsets, one `<portal>.json` each), `1.0.json` for version 1.0, and the Touché topics and qrels under `touche/`;
and BEIR's Touché collection: its downloaded zip (read by beir.py), queries and test qrels under
`beir/webis-touche2020/v2/` (ir_datasets' `beir` module caches the zip there as `source.zip`).

Left out: Task 1 of 2022 (`argsme/2020-04-01/processed/…`), whose corpus is a table of sentences, not args.me JSON.
"""

from __future__ import annotations

from argrank.formats.ir_datasets_cache import CachedDataset, CachedFile
from argrank.tracks.args.layout import SOURCE_FILES

ARGSME_2020 = CachedFile("argsme/2020-04-01", "docs", SOURCE_FILES)
TOPICS_2020 = CachedFile("touche/2020/task-1/queries.xml", "queries")
BEIR_TOUCHE = "beir/webis-touche2020/v2"


def _qrels(name: str) -> CachedFile:
    return CachedFile(f"touche/{name}.qrels", "qrels")


DATASETS = {
    "argsme/2020-04-01/touche-2020-task-1": CachedDataset(
        ARGSME_2020, TOPICS_2020, {"relevance": _qrels("2020/task-1/qrels")}
    ),
    "argsme/2020-04-01/touche-2020-task-1/uncorrected": CachedDataset(
        ARGSME_2020, TOPICS_2020, {"relevance": _qrels("2020/task-1/qrels-argsme-2020-04-01-uncorrected")}
    ),
    "argsme/1.0/touche-2020-task-1/uncorrected": CachedDataset(
        CachedFile("argsme/1.0.json", "docs"),
        TOPICS_2020,
        {"relevance": _qrels("2020/task-1/qrels-argsme-1.0-uncorrected")},
    ),
    "argsme/2020-04-01/touche-2021-task-1": CachedDataset(
        ARGSME_2020,
        CachedFile("touche/2021/task-1/queries.xml", "queries"),
        {"relevance": _qrels("2021/task-1/qrels-relevance"), "quality": _qrels("2021/task-1/qrels-quality")},
    ),
    BEIR_TOUCHE: CachedDataset(
        CachedFile(f"{BEIR_TOUCHE}/source.zip", "docs"),
        CachedFile(f"{BEIR_TOUCHE}/queries.json", "queries"),
        {"relevance": CachedFile(f"{BEIR_TOUCHE}/test.qrels", "qrels")},
    ),
}
