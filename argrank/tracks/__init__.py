"""One package per track, for what only that track has at the edges of the shared graph: how its documents are
ingested, how its topics are queried, what it adds between ranking and the run file (stance, image selection,
scenario re-ranking) and how it is scored. Each defines its `TRACK` (track.py: data and the track's own hooks),
which the runs-file reader, the report, the graph's tasks and the command line call; section.py is a ranking
track's runs-file section, registry.py finds the tracks by name."""
