"""Retrieval: the registry of ranking models (one module each under `models/`), query formulation and
analysis, top-k search over an index, and the merge of shard rankings into the unsharded one."""
