"""What every stage uses: one error type for bad input, atomic writes, content fingerprints for cache keys,
whitespace-separated record reading, the ingest table writer and the envelope model files are saved in."""
