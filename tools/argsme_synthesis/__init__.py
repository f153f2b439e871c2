"""The parts of the synthetic args.me generator, tools/synthetic_argsme.py, which documents the corpus and holds the
entry points: seeded streams, the vocabulary, debates without text, the records' text and JSON, and the topics."""
