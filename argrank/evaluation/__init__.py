"""Evaluation shared by the ranking tracks: nDCG and judged@k with trec_eval's semantics, the result types
every evaluation returns, and the tables and CSVs the CLI and the publishers print from them. Measures only
one track has (stance F1, image precision, perspective diversity) live in that track's package."""
