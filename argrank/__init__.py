"""argrank's library: every stage of the Touché pipeline as plain functions, with no Luigi in it.

The shared stages are packages by concern — `formats` (topics, qrels, run files and their rules), `text`
(analysis, tokenization, languages), `index` (the sparse index, its statistics and shards), `retrieval`
(ranking models and search), `evaluation` (measures, results, reports) — and each track is a package under
`tracks/` (args, comparative, images, perspective) for what only that track reads, ranks or scores. `core` holds
what every stage uses (errors, atomic writes, fingerprints, records, model files); `config` reads the runs file,
`reporting` writes the report. The Luigi tasks in the top-level `tasks/` package call into here and stay thin, and
the command line (`workflows/`) calls both; the floors are pyproject.toml's `[tool.importlinter]`.
"""

__all__ = ["compare", "evaluate", "fuse", "participants", "reproducibility", "to_latex", "to_markdown", "tune_fusion",
           "write_run"]


def __getattr__(name: str):
    """The notebook API (argrank.api: `evaluate`, `compare`, `participants`, `reproducibility`, `fuse`,
    `tune_fusion`, `to_latex`, `to_markdown`, `write_run`), imported on first use so that importing any part of
    the library does not load the evaluation's libraries."""
    if name in __all__:
        from argrank import api

        return getattr(api, name)
    raise AttributeError(f"module 'argrank' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The API's functions beside the module's own names, for completion in a notebook (dir() and tab)."""
    return sorted({*globals(), *__all__})
