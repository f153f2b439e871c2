"""A fifth track, defined outside argrank: documents in a TSV file (`id<TAB>text`), topics and qrels in Touché's
formats, ranked, run, evaluated, reported and compared by the shared stages. docs/extending.md walks through it;
test_toy_track.py registers it through the `argrank.tracks` entry-point group, as a separate distribution would."""

from argrank.tracks.track import RankingTrack

TRACK = RankingTrack(
    name="toy",
    about="a toy track: short documents in a TSV file; nDCG@5",
    corpus_key="documents",
    default_fields=("text",),
    allowed_fields=("text",),
    tasks="toytrack.tasks",
)
