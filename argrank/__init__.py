"""argrank's library: every stage of the Touché pipeline as plain functions, with no Luigi in it.

The shared stages are packages by concern — `formats` (topics, qrels, run files and their rules), `text`
(analysis, tokenization, languages), `index` (the sparse index, its statistics and shards), `retrieval`
(ranking models and search), `evaluation` (measures, results, reports) — and each track is an adapter package
under `tracks/` (args, comparative, images, perspective) for what only that track reads, ranks or scores.
`core` holds what every stage uses (errors, atomic writes, fingerprints, records, model files); `config` reads
the runs file. The Luigi tasks in the top-level `tasks/` package call into here and stay thin.
"""
