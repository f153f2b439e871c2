"""The synthetic args.me generator: real layout our readers accept, real portal split, seeded bytes, heavy tail."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from argrank.formats.topics import read_topics
from argrank.text.multilingual import shared_analyzer
from argrank.tracks.args.argsme import ingest_argsme
from argrank.tracks.args.layout import SOURCE_FILES, corpus_files
from tools.generate_argsme import main
from tools.synthetic_argsme import (
    CORPUS_FILES,
    DEFAULT_ARGUMENTS,
    MANIFEST,
    MAX_WORDS,
    NON_ARGUMENTS,
    QUESTIONS,
    REAL_COUNTS,
    SHORT_SHARE,
    TOPICS_FILE,
    generate_corpus,
    is_complete,
    portal_counts,
    premise_lengths,
)

REPO = Path(__file__).resolve().parents[3]
N = 2_000


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, object]:
    directory = tmp_path_factory.mktemp("synthetic") / "corpus"
    return directory, generate_corpus(directory, arguments=N, seed=3)


def _bytes(directory: Path) -> dict[str, bytes]:
    return {name: (directory / name).read_bytes() for name in (*CORPUS_FILES, MANIFEST)}


def test_writes_the_real_layout_that_our_readers_accept(corpus, tmp_path):
    directory, stats = corpus
    assert sorted(p.name for p in directory.iterdir()) == sorted([*CORPUS_FILES, MANIFEST])
    assert corpus_files(directory) == [directory / name for name in SOURCE_FILES]
    ingested = ingest_argsme(corpus_files(directory), tmp_path / "args.parquet")
    table = pq.read_table(tmp_path / "args.parquet")
    assert ingested.rows == table.num_rows == N == stats.arguments
    assert len(set(table.column("id").to_pylist())) == N
    assert all(i.startswith("S") and "-A" in i and len(i) == 19 for i in table.column("id").to_pylist())
    assert set(table.column("stance").to_pylist()) == {"PRO", "CON"}
    by_portal = {name: table.column("source").to_pylist().count(name.removesuffix(".json")) for name in SOURCE_FILES}
    assert by_portal == portal_counts(N) == stats.per_portal


def test_arguments_form_debates_linked_previous_to_next(corpus):
    directory, stats = corpus
    arguments = json.loads((directory / "debateorg.json").read_text(encoding="utf-8"))["arguments"]
    assert set(arguments[0]) == {"premises", "context", "id", "conclusion"}
    assert set(arguments[0]["premises"][0]) == {"text", "stance", "annotations"}
    debates: dict[str, list[dict]] = {}
    for argument in arguments:
        debates.setdefault(argument["context"]["sourceId"], []).append(argument)
    assert stats.debates > len(debates) > 100 and max(len(d) for d in debates.values()) > 2
    for source, members in debates.items():
        assert {m["context"]["discussionTitle"] for m in members} == {members[0]["conclusion"]}
        assert all(m["id"].startswith(source + "-A") for m in members)
        assert members[0]["context"]["previousArgumentInSourceId"] == ""
        assert members[-1]["context"]["nextArgumentInSourceId"] == ""
        for before, after in zip(members, members[1:]):
            assert before["context"]["nextArgumentInSourceId"] == after["id"]
            assert after["context"]["previousArgumentInSourceId"] == before["id"]
    for argument in arguments:
        words = len(argument["conclusion"].split())
        assert 2 <= words <= 15


def test_topics_are_questions_whose_words_occur_in_the_corpus(corpus):
    directory, _ = corpus
    topics = read_topics(directory / TOPICS_FILE)
    assert [t.number for t in topics] == [str(n) for n in range(1, 51)]
    assert all(t.title.endswith("?") and t.description and t.narrative for t in topics)
    analyzer = shared_analyzer("en")
    arguments = [a for name in SOURCE_FILES for a in json.loads((directory / name).read_text())["arguments"]]
    titles = {title: set(analyzer.analyze(title)) for title in {a["context"]["discussionTitle"] for a in arguments}}
    template_terms = {term for question in QUESTIONS for term in analyzer.analyze(question.format(""))}
    for topic in topics:
        theme = set(analyzer.analyze(topic.title)) - template_terms
        assert len(theme) >= 2, topic.title
        about = [a for a in arguments if theme <= titles[a["context"]["discussionTitle"]]]
        assert about, f"no debate about {topic.title}"
        premises = analyzer.analyze_many([a["premises"][0]["text"] for a in about]).to_pylist()
        assert theme <= set().union(*premises), f"premises about {topic.title} do not mention it"


def test_words_are_english_that_the_lemma_table_knows(corpus):
    directory, _ = corpus
    text = (directory / "idebate.json").read_text(encoding="utf-8")
    premises = [a["premises"][0]["text"] for a in json.loads(text)["arguments"]]
    tokens = [w.strip(".,?!").lower() for p in premises for w in p.split()][:5_000]
    assert all(t.isalpha() and t.isascii() for t in tokens)
    analyzer = shared_analyzer("en")
    stop = [t in analyzer._stop_words for t in tokens]
    assert 0.3 < sum(stop) / len(tokens) < 0.7  # function words lead, as in English
    content = [t for t, s in zip(tokens, stop) if not s]
    inflected = sum(analyzer._lemmas.get(t, t) != t for t in content) / len(content)
    assert inflected > 0.1  # forms the lookup table maps to a lemma ("years" -> "year")
    assert all(p[0].isupper() and p[-1] in ".?!" for p in premises)


def test_same_seed_same_bytes_other_seed_other_bytes(corpus, tmp_path):
    directory, _ = corpus
    again = tmp_path / "again"
    generate_corpus(again, arguments=N, seed=3)
    assert _bytes(again) == _bytes(directory)
    other = tmp_path / "other"
    generate_corpus(other, arguments=N, seed=4)
    differs = {name for name, data in _bytes(other).items() if data != _bytes(directory)[name]}
    assert set(CORPUS_FILES) <= differs


def test_lengths_have_short_non_arguments_and_a_heavy_tail(corpus):
    _, stats = corpus
    assert abs(stats.short_share - SHORT_SHARE) < 0.02
    assert stats.words_max > 10 * stats.words_median
    assert stats.words_mean > 1.4 * stats.words_median  # right-skewed
    assert 60 <= stats.words_median <= 180
    words, kind = premise_lengths(np.random.default_rng(0), 200_000)
    short = kind >= 0
    assert abs(short.mean() - SHORT_SHARE) < 0.003
    assert words[short].max() <= 6 and words[~short].min() >= 7
    assert words.max() <= MAX_WORDS and np.percentile(words, 99.99) > 5_000
    assert 100 <= np.median(words) <= 120 and 180 <= words.mean() <= 220
    assert set(NON_ARGUMENTS[k] for k in kind[short][:200]) <= set(NON_ARGUMENTS)


@pytest.mark.parametrize("arguments", [1, 4, 5, 7, 999, 2_000, 123_457, DEFAULT_ARGUMENTS, 10**7])
def test_portal_split_sums_to_n(arguments):
    counts = portal_counts(arguments)
    assert list(counts) == list(SOURCE_FILES) and sum(counts.values()) == arguments
    if arguments >= 5:
        assert min(counts.values()) >= 1
    for name, real in REAL_COUNTS.items():  # largest remainder: within one of the share, bar the at-least-one rule
        assert abs(counts[name] - real / DEFAULT_ARGUMENTS * arguments) < 1 + (len(SOURCE_FILES) - 1) * (arguments >= 5)


def test_default_split_is_the_real_corpus():
    assert portal_counts() == portal_counts(DEFAULT_ARGUMENTS) == {
        "debateorg.json": 338_620, "debatepedia.json": 21_197, "debatewise.json": 14_353,
        "idebate.json": 13_522, "parliamentary.json": 48,
    }  # fmt: skip


def test_a_manifest_only_sits_beside_a_whole_corpus(tmp_path):
    generate_corpus(tmp_path, arguments=50, seed=0, topics=3)
    assert is_complete(tmp_path, 50, 0, 3) and not is_complete(tmp_path, 51, 0, 3)
    (tmp_path / "idebate.json").unlink()
    assert not is_complete(tmp_path, 50, 0, 3)


@pytest.mark.parametrize(
    "bad",
    [["--arguments", "0"], ["--seed", "-1"], ["--topics", "0"], ["--topics", "501"], ["--arguments", "many"]],
)
def test_cli_rejects_bad_arguments_with_usage_exit_2(bad, tmp_path, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--out", str(tmp_path / "d"), *bad])
    assert exited.value.code == 2 and "error:" in capsys.readouterr().err
    assert not (tmp_path / "d").exists()


def test_cli_needs_out_and_a_folder_there(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    for args in (["--arguments", "5"], ["--out", str(tmp_path / "file")]):
        with pytest.raises(SystemExit) as exited:
            main(args)
        assert exited.value.code == 2 and "error:" in capsys.readouterr().err
