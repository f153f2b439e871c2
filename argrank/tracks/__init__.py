"""One adapter package per track, for what only that track has at the edges of the shared graph: how its
documents are ingested, how its topics are queried, what it adds between ranking and the run file (stance,
image selection, scenario re-ranking) and how it is scored."""
