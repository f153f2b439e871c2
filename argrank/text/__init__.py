"""Text analysis for documents and queries alike: spaCy's rule-based tokenizer with lookup lemmas (no model
download), per-text language detection for mixed corpora, the tokenize stage that turns a document table into
token lists, and the cue words the stance scorers count."""
