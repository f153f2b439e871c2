"""Touché Task 1, argument retrieval for controversial questions: the args.me corpus's streaming ingest. Its
ranking, runs and nDCG@5 evaluation are the shared stages'."""

from argrank.tracks.adapter import RankingTrack

TRACK = RankingTrack(
    name="args",
    about="Touché Task 1: arguments from args.me for controversial questions; nDCG@5",
    corpus_key="corpus",
    default_fields=("conclusion", "premise"),
    allowed_fields=("conclusion", "premise"),
    quality_text="premise",
    gate_measures=("nDCG@5",),  # under both judgments, relevance and quality
)
