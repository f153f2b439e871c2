"""The benchmark's measured work, one stage per process: `python -m bench.stages STAGE PARAMS.json RESULT.json`.

Each stage runs alone in a fresh interpreter so its peak RSS is its own; times are taken inside, around the
work (interpreter start and imports excluded; the driver adds the wall time from spawn to exit). Every stage
writes a JSON result; the driver turns them into the table.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from itertools import cycle, islice
from pathlib import Path
from typing import TYPE_CHECKING

import bench.peers  # noqa: F401  (registers the peers' stages)
from argrank import kernels
from bench.agreement import TOP
from bench.harness import STAGES, again, best_of, held_bytes, phase_fields, stage, tree_bytes
from bench.inputs import in_index_order, read_queries
from bench.measure import Phases
from bench.ours import term_lookup, top_k_loop

if TYPE_CHECKING:
    from argrank.tracks.perspective.data import Query

# ---------------------------------------------------------------------------------------------------- stages


@stage
def generate(params: dict, phases: Phases) -> dict:
    """The synthetic args.me corpus (five files, topics.xml, manifest) in params['directory'], unless a complete one
    of the same parameters and generator version is already there."""
    from dataclasses import asdict

    from tools import synthetic_argsme

    directory = Path(params["directory"])
    sizes = {key: params[key] for key in ("arguments", "seed", "topics")}
    if synthetic_argsme.is_complete(directory, **sizes):
        manifest = json.loads((directory / synthetic_argsme.MANIFEST).read_text(encoding="utf-8"))
        return {"reused": True, "stats": manifest.get("stats"), "bytes": tree_bytes(directory)}
    with phases.phase("generate"):
        stats = synthetic_argsme.generate_corpus(directory, **sizes)
    return {
        "reused": False,
        "seconds": phases.phases["generate"]["seconds"],
        "stats": asdict(stats),
        "bytes": tree_bytes(directory),
    }


@stage
def ingest(params: dict, phases: Phases) -> dict:
    from argrank.tracks.args.argsme import ingest_argsme
    from argrank.tracks.args.layout import corpus_files

    files = corpus_files(params["corpus"])
    with phases.phase("ingest"):
        stats = ingest_argsme(files, params["out"])
    seconds = phases.phases["ingest"]["seconds"]
    size = sum(Path(f).stat().st_size for f in files)
    return {
        "seconds": seconds,
        "cpu_seconds": phases.phases["ingest"]["cpu_seconds"],
        "arguments": stats.rows,
        "duplicates_dropped": stats.duplicates,
        "empty_dropped": stats.empty,
        "input_bytes": size,
        "output_bytes": tree_bytes(params["out"]),
        "arguments_per_second": stats.rows / seconds,
        "input_mib_per_second": size / 2**20 / seconds,
    }


@stage
def tokenize(params: dict, phases: Phases) -> dict:
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from argrank.text.multilingual import make_analyzer
    from argrank.text.tokenize import tokenize_table

    with phases.phase("analyzer"):
        analyzer = make_analyzer(params["language"])
    with phases.phase("tokenize_table"):
        kept = tokenize_table(
            in_path=Path(params["in"]), out_path=Path(params["out"]), analyzer=analyzer, fields=params["fields"]
        )
    seconds = phases.phases["tokenize_table"]["seconds"]
    # Not timed: the input's size in whitespace-separated words and characters, for a second rate (read without
    # pre_buffer, which would keep the whole table until the end and so raise the stage's peak RSS).
    words = chars = 0
    source = pq.ParquetFile(params["in"], pre_buffer=False)
    for batch in source.iter_batches(columns=params["fields"]):
        for column in batch.columns:
            column = pc.fill_null(column, "")
            words += pc.sum(pc.list_value_length(pc.utf8_split_whitespace(column))).as_py() or 0
            chars += pc.sum(pc.utf8_length(column)).as_py() or 0
    documents = source.metadata.num_rows
    spacy_per_word = _spacy_tokens_per_word(params["in"], params["fields"], params["language"])
    return {
        "seconds": seconds,
        "cpu_seconds": phases.phases["tokenize_table"]["cpu_seconds"],
        "analyzer_seconds": phases.phases["analyzer"]["seconds"],
        "documents": documents,
        "tokens_kept": kept,
        # spaCy tokens (stop words and punctuation included) per whitespace word, counted on a sample of documents
        # (the analyzer tokenizes each distinct chunk once, so the stage itself cannot count them).
        "spacy_tokens_per_word_sample": spacy_per_word,
        "spacy_tokens_estimate": round(words * spacy_per_word) if spacy_per_word else None,
        "spacy_tokens_per_second_estimate": words * spacy_per_word / seconds if spacy_per_word else None,
        "input_words": words,
        "input_characters": chars,
        "kept_tokens_per_second": kept / seconds,
        "tokens_per_second": kept / seconds,  # the index tokens tokenize_table reports, per second of it
        # The target's figure: per CPU-second, so other work on a shared machine does not move it.
        "tokens_per_cpu_second": kept / phases.phases["tokenize_table"]["cpu_seconds"],
        "words_per_second": words / seconds,
        "documents_per_second": documents / seconds,
        "output_bytes": tree_bytes(params["out"]),
    }


def _spacy_tokens_per_word(path: str, fields: list[str], language: str, sample: int = 5_000) -> float | None:
    """spaCy tokens (of the lowercased text, as the analyzer tokenizes it) per whitespace word, on up to `sample`
    documents spread over the table; None for a mixed-language setting."""
    if "," in language:
        return None
    import pyarrow.parquet as pq
    import spacy

    from argrank.text.tokenize import document_texts

    tokenizer = spacy.blank(language).tokenizer
    source = pq.ParquetFile(path, pre_buffer=False)
    step = max(1, source.metadata.num_rows // sample)
    tokens = words = 0
    for batch in source.iter_batches(columns=fields):
        texts = document_texts(batch.take(list(range(0, batch.num_rows, step))), fields).to_pylist()
        tokens += sum(len(tokenizer(text.lower())) for text in texts)
        words += sum(len(text.split()) for text in texts)
    return tokens / words if words else None


@stage
def index(params: dict, phases: Phases) -> dict:
    from argrank.index.build import index_codes, read_token_codes
    from argrank.index.store import save_index

    with phases.phase("load_tokens"):  # as BuildIndex reads them: a row group at a time, to codes
        tokens = read_token_codes(params["tokens"])
    with phases.phase("build_index"):
        first = best_of(1, lambda: index_codes(tokens))
    with phases.phase("build_again"):  # the build's figure is the fastest of the repeats, as for its peers
        builds = again(first, params.get("build_repeats", 1), lambda: index_codes(tokens))
    built = builds.result
    with phases.phase("save_index"):
        save_index(built, Path(params["out"]))
    p = phases.phases
    return {
        "seconds": p["load_tokens"]["seconds"] + p["build_index"]["seconds"] + p["save_index"]["seconds"],
        "cpu_seconds": sum(p[n]["cpu_seconds"] for n in ("load_tokens", "build_index", "save_index")),
        **builds.fields("build"),
        "load_seconds": p["load_tokens"]["seconds"],
        "save_seconds": p["save_index"]["seconds"],
        "peak_rss_through_build_bytes": phases.peak_through("load_tokens", "build_index"),
        "build_rss_increase_bytes": p["build_index"]["peak_rss_bytes"] - p["build_index"]["rss_before_bytes"],
        # What the build holds (scale.md): the token codes it reads and the index it makes.
        "holds": {**{f"tokens.{k}": v for k, v in held_bytes(tokens).items()},
                  **{f"index.{k}": v for k, v in held_bytes(built).items()}},  # fmt: skip
        "documents": built.num_docs,
        "terms": len(built.terms),
        "postings": int(built.postings.nnz),
        "tokens": built.total_length,
        "output_bytes": tree_bytes(params["out"]),
    }


@stage
def integrity(params: dict, phases: Phases) -> dict:
    """What the cache's damage checks cost on the stages' outputs at this size (core.integrity): recording them as a
    stage does once written (each file hashed), the check Luigi makes while it schedules (a `stat` per file), every
    file hashed again (`argrank run --verify-cache` and the nightly, or where every file's times changed), and reading the token table with its Parquet page
    checksums checked against reading it without (the best of three each)."""
    import pyarrow.parquet as pq

    from argrank.core.integrity import damage, forget_written, record_written
    from argrank.core.parquet_file import open_parquet

    targets = [Path(target) for target in params["targets"]]
    with phases.phase("record"):
        for target in targets:
            record_written(target)
    checks = best_of(3, lambda: [damage(target) for target in targets])
    hashed = best_of(3, lambda: [damage(target, deep=True) for target in targets])
    checked = best_of(3, lambda: open_parquet(params["tokens"]).read())
    unchecked = best_of(3, lambda: pq.ParquetFile(params["tokens"]).read())
    for target in targets:
        forget_written(target)
    assert checks.result == hashed.result == [None] * len(targets), "the stages' outputs read as damaged"
    return {
        "bytes": sum(tree_bytes(target) for target in targets),
        "files": sum(len(list(target.rglob("*"))) if target.is_dir() else 1 for target in targets),
        **phase_fields(phases, "record", "record"),
        **checks.fields("check"),
        **hashed.fields("check_hashed"),
        **checked.fields("read_checked"),
        **unchecked.fields("read_unchecked"),
    }


@stage
def rank(params: dict, phases: Phases) -> dict:
    """The pipeline's rank stage (load, analyse, rank_topics) and, on the same index, our bare 50-topic loop."""
    from argrank.formats.topics import read_topics
    from argrank.index.store import load_index
    from argrank.retrieval.formulations import title
    from argrank.retrieval.registry import make_ranker
    from argrank.retrieval.search import rank_topics
    from argrank.text.multilingual import make_analyzer

    bm25 = {"k1": params["k1"], "b": params["b"]}
    with phases.phase("load_index"):
        loaded = load_index(Path(params["index"]))
    with phases.phase("analyzer"):
        analyzer = make_analyzer(params["language"])
    topics = read_topics(params["topics"])
    with phases.phase("analyse_queries"):
        queries = [{"number": t.number, "tokens": analyzer.analyze(t.title)} for t in topics]
    Path(params["queries_out"]).write_text(json.dumps(queries), encoding="utf-8")
    with phases.phase("make_ranker"):
        ranker = make_ranker(loaded, "bm25", bm25)
    with phases.phase("term_lookup"):  # the term → id map is built on first use
        term_lookup(loaded, ranker)(queries[0]["tokens"] if queries else [])
    with phases.phase("top_k_loop"):
        runs = best_of(params["repeats"], lambda: top_k_loop(loaded, ranker, queries, params["depth"]))
    top = {q["number"]: [] for q in queries}  # the peers' top 10 are compared with these (bench.agreement)
    top.update({number: loaded.doc_ids.take(docs[:TOP]).to_pylist() for number, (docs, _) in runs.result.items()})
    Path(params["top_out"]).write_text(json.dumps(top), encoding="utf-8")
    with phases.phase("rank_topics"):
        table = rank_topics(
            index=loaded, analyzer=analyzer, topics=topics, ranker=ranker, query=title, depth=params["depth"]
        )
    p = phases.phases
    stage_phases = ("load_index", "analyzer", "make_ranker", "rank_topics")
    return {
        # The pipeline's RankTopics work: load the index, build analyzer and ranker, rank_topics (analysis included).
        "seconds": sum(p[n]["seconds"] for n in stage_phases),
        "cpu_seconds": sum(p[n]["cpu_seconds"] for n in stage_phases),
        "load_index_seconds": p["load_index"]["seconds"],
        "analyzer_seconds": p["analyzer"]["seconds"],
        "analyse_queries_seconds": p["analyse_queries"]["seconds"],
        "make_ranker_seconds": p["make_ranker"]["seconds"],
        "term_lookup_seconds": p["term_lookup"]["seconds"],
        "rank_topics_seconds": p["rank_topics"]["seconds"],
        **runs.fields("top_k"),
        # Which build of the kernels scored (the `kernels` setting, auto here).
        "kernels": [kernels.name(ranker.kernels)],
        "topics": len(topics),
        "topics_with_results": len(runs.result),
        "query_terms": sum(len(q["tokens"]) for q in queries),
        "ranked_rows": table.num_rows,
        "documents": loaded.num_docs,
        # What ranking holds (scale.md): the loaded index, and the ranker's per-posting and per-document arrays
        # (the scores a topic accumulates among them).
        "holds": {**{f"index.{k}": v for k, v in held_bytes(loaded).items()},
                  **{f"ranker.{k}": v for k, v in held_bytes(ranker).items() if not k.startswith("index.")}},  # fmt: skip
    }


@stage
def ours_subset(params: dict, phases: Phases) -> dict:
    """Our index and BM25 on the first `subset` documents in index order; rankings kept for the identity check."""
    from argrank.index.build import build_index
    from argrank.retrieval.registry import make_ranker

    with phases.phase("load_tokens"):
        ids, tokens = in_index_order(params["tokens"], limit=params["subset"])
    with phases.phase("build_index"):
        built = build_index(ids, tokens)
    queries = read_queries(params["queries"])
    with phases.phase("make_ranker"):
        ranker = make_ranker(built, "bm25", {"k1": params["k1"], "b": params["b"]})
        term_lookup(built, ranker)(queries[0]["tokens"] if queries else [])
    with phases.phase("top_k_loop"):
        runs = best_of(params["repeats"], lambda: top_k_loop(built, ranker, queries, params["depth"]))
    results = runs.result
    rankings = {
        number: [[doc, score] for doc, score in zip(built.doc_ids.take(docs).to_pylist(), scores.tolist())]
        for number, (docs, scores) in results.items()
    }
    Path(params["rankings_out"]).write_text(json.dumps(rankings), encoding="utf-8")
    return {
        "documents": built.num_docs,
        **phase_fields(phases, "build_index", "build"),
        "make_ranker_seconds": phases.phases["make_ranker"]["seconds"],
        **runs.fields("top_k"),
        "peak_rss_through_build_bytes": phases.peak_through("load_tokens", "build_index"),
    }


@stage
def session_rerun(params: dict, phases: Phases) -> dict:
    """The re-run after a k1 change in a running Python session, as a notebook makes it with
    `workflows.run.run_experiment`: a first call finds the full run's outputs complete, then for each of the
    runs files in params['changed'] (each a new k1) the file is changed and the call made again. The figure is
    the median of those calls by CPU-seconds (`median`: its position), as one short call varies from run to run."""
    from workflows.run import run_experiment

    runs_file, outputs = Path(params["runs_file"]), params["outputs"]
    with phases.phase("unchanged"):
        run_experiment(runs_file, outputs, params["workers"])
    reruns = []
    for i, changed in enumerate(params["changed"]):
        runs_file.write_text(changed, encoding="utf-8")
        with phases.phase(f"rerun-{i}"):
            run_experiment(runs_file, outputs, params["workers"])
        reruns.append(phase_fields(phases, f"rerun-{i}", "rerun"))
    median = sorted(range(len(reruns)), key=lambda i: reruns[i]["rerun_cpu_seconds"])[len(reruns) // 2]
    rerun = reruns[median]
    return {**rerun, **phase_fields(phases, "unchanged", "unchanged"), "median": median, "reruns": reruns,
            "seconds": rerun["rerun_seconds"], "cpu_seconds": rerun["rerun_cpu_seconds"]}  # fmt: skip


@stage
def fusion(params: dict, phases: Phases) -> dict:
    """`argrank fuse --method wsum --norm min-max --optimize nDCG@5 --cv 5` as a library call on `copies` runs of
    50 topics: the published runs, then copies of them whose scores a seeded noise of ±5 % moves (other rankings
    of the same documents), until there are `copies`. Reading the runs and qrels is not timed."""
    import numpy as np

    from argrank.evaluation.fusion import ranked
    from argrank.evaluation.fusion_tuning import tuned
    from argrank.formats.qrels import read_qrels
    from argrank.formats.runfile import read_run

    published = [ranked(read_run(path)) for path in params["runs"]]
    qrels = read_qrels(params["qrels"])
    rng = np.random.default_rng(params["seed"])
    runs = list(published)
    while len(runs) < params["copies"]:
        source = published[len(runs) % len(published)]
        runs.append({topic: sorted(((doc, score * (1 + 0.05 * rng.standard_normal())) for doc, score in docs),
                                   key=lambda pair: (-pair[1], pair[0])) for topic, docs in source.items()})  # fmt: skip
    names = [f"run{i}" for i in range(len(runs))]
    with phases.phase("tune"):
        report = tuned(runs, names, qrels, "wsum", "min-max", "nDCG@5", params["folds"], params["seed"], 1000)
    tune = phases.phases["tune"]
    return {"runs": len(runs), "topics": len({topic for run in runs for topic in run}), "folds": params["folds"],
            "seconds": tune["seconds"], "cpu_seconds": tune["cpu_seconds"], "cv_mean": report["cv_mean"],
            "cv_best_single_mean": report["cv_best_single_mean"], "best_single_mean": report["best_single_mean"]}  # fmt: skip


def release_queries(queries: Sequence[Query], count: int) -> list[Query]:
    """The first `count` queries in file order, cycled where the file has fewer: synthetic queries of the real
    count. A repeat keeps its text and property under a fresh id, since rankings are keyed by query id."""
    if not queries:
        return []
    return [
        query if i < len(queries) else replace(query, query_id=f"{query.query_id}-repeat{i // len(queries)}")
        for i, query in enumerate(islice(cycle(queries), count))
    ]


@stage
def perspective(params: dict, phases: Phases) -> dict:
    """The perspective track at release size in one process: the release loaded as cross-validation loads it, the
    ranker learned from the training queries, then per scenario its property evidence and the ranking of
    params['queries'] queries (RankPerspective's score function and depth)."""
    from argrank.tracks.perspective import ranking
    from argrank.tracks.perspective.cross_validation import LANGUAGES, load_release
    from argrank.tracks.perspective.crosslingual import build_ranker
    from argrank.tracks.perspective.data import SCENARIOS, query_file, read_corpus, read_queries
    from argrank.tracks.perspective.translation import DICTIONARIES, read_lexicon

    data, count, depth = params["data"], params["queries"], params["depth"]
    with phases.phase("prepare"):
        release = load_release(data)
    with phases.phase("read_queries"):
        corpus = read_corpus(data)
        baseline = read_queries(query_file(data, "baseline", "train"), corpus)
        perspective_queries = read_queries(query_file(data, "explicit", "train"), corpus)
        del corpus
    index, documents, analyzer = release.index, release.documents, release.analyzer
    with phases.phase("ranker"):
        training = ranking.training_from_queries(baseline, perspective_queries, release.position)
        lexicon = read_lexicon(DICTIONARIES, LANGUAGES)
        languages, categories = (documents.column(name).to_pylist() for name in ("language", "topic"))
        ranker = build_ranker(index, languages, categories, training.issues, {}, analyzer, lexicon, training.questions)

    diversify = ranking.DEFAULT_DIVERSIFY  # the explicit scenario's, as the track ranks it by default
    scenarios = {}
    for scenario in SCENARIOS:
        source = baseline if scenario == "baseline" else perspective_queries
        queries = release_queries(source, count)
        diversity = diversify if scenario == "explicit" else 0.0
        columns = ranking.allowed_columns(scenario)
        with phases.phase(f"evidence_{scenario}"):  # the implicit classifiers are fitted here
            evidence = ranking.PropertyEvidence(scenario, documents.select(columns), training)
        with phases.phase(f"rank_{scenario}"):
            rankings = ranking.rank_scenario(queries, ranker.score_text, evidence, index.doc_ids, depth, diversity)
        built, ranked = phases.phases[f"evidence_{scenario}"], phases.phases[f"rank_{scenario}"]
        seconds = built["seconds"] + ranked["seconds"]
        lengths = [len(ids) for ids in rankings.values()]
        scenarios[scenario] = {
            "queries": len(rankings),
            "distinct_texts": len({query.text for query in queries}),
            "file_queries": len(source),
            "diversity": diversity,
            "property_models": len(evidence.guesser.models) if evidence.guesser else 0,
            "seconds": seconds,
            "evidence_seconds": built["seconds"],
            "rank_seconds": ranked["seconds"],
            "cpu_seconds": built["cpu_seconds"] + ranked["cpu_seconds"],
            "queries_per_second": len(rankings) / seconds if seconds > 0 else None,
            "ids_per_query_min": min(lengths, default=0),
            "ids_per_query_max": max(lengths, default=0),
            "peak_rss_bytes": phases.peak_through(f"evidence_{scenario}", f"rank_{scenario}"),
        }
        del evidence, rankings
    p = phases.phases
    return {
        "seconds": sum(record["seconds"] for record in p.values()),
        "prepare_seconds": p["prepare"]["seconds"],
        "read_queries_seconds": p["read_queries"]["seconds"],
        "ranker_seconds": p["ranker"]["seconds"],
        "documents": index.num_docs,
        "terms": len(index.terms),
        "issues": len(training.issues),
        "train_queries": {"baseline": len(baseline), "perspective": len(perspective_queries)},
        "queries": count,
        "depth": depth,
        "scenarios": scenarios,
    }


def main(argv: list[str]) -> int:
    name, params_path, result_path = argv
    import pyarrow as pa

    pa.set_memory_pool(pa.system_memory_pool())  # as in every process running the graph (tasks/__init__.py)
    params = json.loads(Path(params_path).read_text(encoding="utf-8"))
    phases = Phases()
    result = STAGES[name](params, phases)
    result.update(phases.result())
    from argrank.core.atomic import atomic_write_text

    atomic_write_text(result_path, json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
