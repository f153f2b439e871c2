"""`make bench`: the benchmark of argrank's stages against its targets and its peers (see bench/README.md)."""
