"""The Touché file formats every ranking track shares: topics (XML or JSONL), qrels, TREC run files, and the
submission rules a run file is checked against before it counts as written."""
