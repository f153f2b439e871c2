"""Touché Task 1, argument retrieval for controversial questions: the args.me corpus's streaming ingest. Its
ranking, runs and nDCG@5 evaluation are the shared stages'."""
