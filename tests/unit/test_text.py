"""The analyzer: spaCy tokens, lowercased, lookup lemmas, stop words and punctuation dropped, one analysis for all."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from argrank.text.analyzer import Analyzer
from argrank.text.tokenize import tokenize_table


@pytest.fixture(scope="module")
def analyzer() -> Analyzer:
    return Analyzer("en")


def test_lowercases_lemmatizes_and_drops_stop_words_and_punctuation(analyzer):
    terms = analyzer.analyze("Teachers WERE running the Schools, isn't it?! E-cigarettes cost 3.5% — today.")
    assert terms == ["teacher", "run", "school", "e", "cigarette", "cost", "3.5", "today"]


def test_capitalised_forms_get_the_same_lemma(analyzer):
    # The lookup table is keyed by lowercase forms: "Children" must not stay "children".
    assert analyzer.analyze("Children") == analyzer.analyze("children") == ["child"]


def test_batch_analysis_equals_one_by_one(analyzer):
    texts = ["Should students wear uniforms?", "", "the and of", "Nuclear energy is cheap; nuclear waste is not."]
    batch = analyzer.analyze_many(texts)
    assert batch.type == pa.list_(pa.string())
    assert batch.to_pylist() == [analyzer.analyze(t) for t in texts]
    assert batch.to_pylist()[1:3] == [[], []]


def test_a_fresh_analyzer_gives_the_same_terms(analyzer):
    text = "Zoos protect endangered species, but animals suffer in captivity."
    assert Analyzer("en").analyze(text) == analyzer.analyze(text)


def test_tokenize_table_streams_ids_and_token_lists(analyzer, tmp_path):
    source = tmp_path / "args.parquet"
    pq.write_table(
        pa.table({"id": ["b", "a", "c"], "conclusion": ["Ban zoos", None, "Vote"], "premise": ["Zoos are cruel.", "Cages!", ""]}),
        source,
    )
    out = tmp_path / "tokens.parquet"
    kept = tokenize_table(source, out, analyzer, ["conclusion", "premise"], batch_size=2)
    table = pq.read_table(out)
    assert table.column("id").to_pylist() == ["b", "a", "c"]
    assert table.column("tokens").to_pylist() == [["ban", "zoo", "zoo", "cruel"], ["cage"], ["vote"]]
    assert kept == 6
