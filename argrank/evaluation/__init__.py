"""Evaluation shared by the ranking tracks: ranking measures by ir_measures' names computed through ir_measures
(trec_eval's own code) and the organisers' judged-only nDCG, the order trec_eval ranks a run in, the result types
every evaluation returns, and the tables and CSVs the CLI and the publishers print from them. Measures only one
track has (stance F1, image precision, perspective diversity) live in that track's package."""
