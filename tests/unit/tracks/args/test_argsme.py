"""args.me ingest: both layouts, ids kept exactly, determinism, batching, every bad-input case, the policies."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from argrank.core.errors import InputError
from argrank.tracks.args.argsme import _READ_SIZE, SCHEMA, ingest_argsme
from argrank.tracks.args.layout import SOURCE_FILES, corpus_files

EXCERPT = "touche-task1/args-me-excerpt-debatewise.json"


def argument(arg_id: str, *texts: str, stance: str = "PRO", **context: str) -> dict:
    """One argument as the corpus writes it; `texts` become premises (default: one non-empty premise)."""
    premises = [{"text": text, "stance": stance, "annotations": []} for text in texts or (f"text of {arg_id}",)]
    return {"premises": premises, "context": context, "id": arg_id, "conclusion": f"conclusion of {arg_id}"}


def write_json(path: Path, arguments: list) -> Path:
    path.write_text(json.dumps({"arguments": arguments}, indent=2), encoding="utf-8")
    return path


GOOD = argument("good")
GOOD_JSON = json.dumps(GOOD)


def ingest(tmp_path: Path, *files: Path, **kwargs):
    out = tmp_path / "out" / "args.parquet"
    stats = ingest_argsme(list(files), out, **kwargs)
    return stats, pq.read_table(out)


def assert_rejected(path: Path, tmp_path: Path, where: str, problem: str) -> None:
    """Ingesting `path` fails naming the file, the place and the problem, and leaves no output behind."""
    out = tmp_path / "args.parquet"
    with pytest.raises(InputError) as caught:
        ingest_argsme([path], out)
    assert caught.value.path == str(path)
    assert caught.value.where == where
    assert problem in caught.value.problem
    assert str(path) in str(caught.value)
    assert not out.exists()


def test_real_excerpt_ingests_completely_with_ids_kept(shared_data, tmp_path):
    path = tmp_path / "debatewise.json"  # as named in the real corpus, which names the source
    path.write_bytes((shared_data / EXCERPT).read_bytes())
    expected = json.loads(path.read_text(encoding="utf-8"))["arguments"]
    stats, table = ingest(tmp_path, path)
    assert table.schema == SCHEMA
    assert stats.rows == table.num_rows == len(expected) == 15
    assert (stats.duplicates, stats.empty) == (0, 0)
    assert table.column("id").to_pylist() == [a["id"] for a in expected]
    assert table.column("premise").to_pylist() == ["\n".join(p["text"] for p in a["premises"]) for a in expected]
    assert table.column("stance").to_pylist() == [a["premises"][0]["stance"] for a in expected]
    assert set(table.column("source").to_pylist()) == {"debatewise"}
    first = table.slice(0, 1).to_pylist()[0]
    assert first["id"] == "665a55a3-2019-04-19T12:46:15Z-00000-000"
    assert first["source_url"] == "https://debatewise.org/debates/3085-physical-fitness-is-better-than-mental-fitness/"
    assert first["previous_id"] is None  # "" in the corpus
    assert first["next_id"] == "665a55a3-2019-04-19T12:46:15Z-00002-000"


def five_file_corpus(directory: Path) -> None:
    directory.mkdir(exist_ok=True)
    for number, name in enumerate(SOURCE_FILES):
        write_json(directory / name, [argument(f"S{number:08x}-A{i:09x}", sourceId=f"S{number:08x}") for i in range(2)])


def test_corpus_files_five_file_layout_in_fixed_order(tmp_path):
    five_file_corpus(tmp_path)
    write_json(tmp_path / "args-me.json", [])  # the split layout wins when complete
    assert corpus_files(tmp_path) == [tmp_path / name for name in SOURCE_FILES]


def test_corpus_files_single_file_layout(tmp_path):
    write_json(tmp_path / "args-me.json", [])
    assert corpus_files(tmp_path) == [tmp_path / "args-me.json"]


def test_corpus_files_partial_five_file_set_names_the_missing(tmp_path):
    five_file_corpus(tmp_path)
    (tmp_path / "idebate.json").unlink()
    (tmp_path / "debatewise.json").unlink()
    write_json(tmp_path / "args-me.json", [])
    with pytest.raises(InputError, match="missing debatewise.json, idebate.json") as caught:
        corpus_files(tmp_path)
    assert caught.value.path == str(tmp_path)


def test_corpus_files_neither_layout(tmp_path):
    with pytest.raises(InputError, match="args-me.json"):
        corpus_files(tmp_path)


def test_five_file_layout_rows(tmp_path):
    five_file_corpus(tmp_path / "corpus")
    stats, table = ingest(tmp_path, *corpus_files(tmp_path / "corpus"))
    assert stats.rows == 10
    assert table.column("source").to_pylist() == [Path(name).stem for name in SOURCE_FILES for _ in range(2)]
    assert table.column("id").to_pylist() == [f"S{n:08x}-A{i:09x}" for n in range(5) for i in range(2)]
    assert table.column("source_id").to_pylist() == [f"S{n:08x}" for n in range(5) for _ in range(2)]


def test_single_file_layout_rows(tmp_path):
    old_style = "665a55a3-2019-04-19T12:46:15Z-00000-000"
    full_context = {
        "sourceId": "s1",
        "previousArgumentInSourceId": "p1",
        "acquisitionTime": "2019-04-18T18:17:20Z",
        "discussionTitle": "dt",
        "sourceTitle": "st",
        "sourceUrl": "https://example.org/1",
        "nextArgumentInSourceId": "n1",
    }
    arguments = [
        argument("S197beaca-A971412e6", "first premise", "second premise", stance="CON", **full_context),
        argument(old_style, sourceId="s2"),  # older versions lack most context fields
        {"id": "no-context", "conclusion": "", "premises": [{"text": "t", "stance": "PRO"}]},
    ]
    write_json(tmp_path / "args-me.json", arguments)
    stats, table = ingest(tmp_path, *corpus_files(tmp_path))
    assert table.to_pylist() == [
        {
            "id": "S197beaca-A971412e6",
            "conclusion": "conclusion of S197beaca-A971412e6",
            "premise": "first premise\nsecond premise",
            "stance": "CON",
            "source": "args-me",
            "source_id": "s1",
            "discussion_title": "dt",
            "source_title": "st",
            "source_url": "https://example.org/1",
            "acquisition_time": "2019-04-18T18:17:20Z",
            "previous_id": "p1",
            "next_id": "n1",
        },
        {
            "id": old_style,
            "conclusion": f"conclusion of {old_style}",
            "premise": f"text of {old_style}",
            "stance": "PRO",
            "source": "args-me",
            "source_id": "s2",
            **dict.fromkeys(
                ["discussion_title", "source_title", "source_url", "acquisition_time", "previous_id", "next_id"]
            ),
        },
        {
            "id": "no-context",
            "conclusion": "",
            "premise": "t",
            "stance": "PRO",
            "source": "args-me",
            **dict.fromkeys(
                ["source_id", "discussion_title", "source_title", "source_url", "acquisition_time", "previous_id"]
                + ["next_id"]
            ),
        },
    ]


def test_output_is_byte_identical_across_runs(tmp_path):
    five_file_corpus(tmp_path / "corpus")
    files = corpus_files(tmp_path / "corpus")
    ingest_argsme(files, tmp_path / "a.parquet")
    ingest_argsme(files, tmp_path / "b.parquet")
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()


def test_batch_boundaries_do_not_change_the_table(tmp_path):
    five_file_corpus(tmp_path / "corpus")
    files = corpus_files(tmp_path / "corpus")
    write_json(files[2], [argument(f"w{i}") for i in range(5)] + [argument("w0"), argument("blank", " ")])
    small_stats, small = ingest(tmp_path / "small", *files, batch_size=2)
    one_stats, one = ingest(tmp_path / "one", *files)
    assert small_stats == one_stats
    assert small.num_rows == 13
    assert small.equals(one)


@pytest.mark.parametrize(
    ("content", "where", "problem"),
    [
        ('{"arguments": [%s, {"id": "b"' % GOOD_JSON, "argument #2", "premature EOF"),
        ('{"arguments": [%s,, {}]}' % GOOD_JSON, "argument #2", "unallowed token"),
        ('{"arguments": [] } trailing', "argument #1", "trailing garbage"),
        ("", "argument #1", "premature EOF"),
        ('[{"id": "a"}]', "top level", '"arguments" array'),
        ('{"args": [{"id": "a"}]}', "top level", '"arguments" array'),
        ('{"arguments": {"id": "a"}}', "top level", '"arguments" array'),
    ],
    ids=[
        "truncated",
        "stray-comma",
        "trailing-garbage",
        "empty-file",
        "array",
        "no-arguments-key",
        "arguments-not-array",
    ],
)
def test_malformed_json_names_file_and_argument(tmp_path, content, where, problem):
    path = tmp_path / "debatewise.json"
    path.write_text(content, encoding="utf-8")
    assert_rejected(path, tmp_path, where, problem)


@pytest.mark.parametrize("depth", [101, 100_000])
def test_a_field_nested_too_deep_is_refused_before_it_is_built(tmp_path, depth):
    """ijson's work and memory grow with the square of a value's depth (100,000 levels took 24 GB)."""
    junk = json.dumps({**argument("deep"), "junk": "OPEN"}).replace('"OPEN"', "[" * depth + "]" * depth)
    path = tmp_path / "debatewise.json"
    path.write_text('{"arguments": [' + GOOD_JSON + ", " + junk + "]}", encoding="utf-8")
    assert_rejected(path, tmp_path, "argument #2", "JSON nested deeper than 100 levels (at byte offset")


def test_a_file_nested_too_deep_without_arguments_is_refused(tmp_path):
    path = tmp_path / "debatewise.json"
    path.write_text('{"x": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert_rejected(path, tmp_path, "argument #1", "JSON nested deeper than 100 levels")


def test_malformed_json_counts_arguments_across_the_file(tmp_path):
    path = tmp_path / "args-me.json"
    text = json.dumps({"arguments": [argument(f"a{i}") for i in range(1233)]}, indent=2)
    path.write_text(text[: text.rindex("}", 0, text.rindex("]"))], encoding="utf-8")  # cut inside #1233
    with pytest.raises(InputError, match=r"argument #1233: malformed JSON"):
        ingest_argsme([path], tmp_path / "args.parquet")


@pytest.mark.parametrize(
    "bad",
    [b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82"],
    ids=["invalid-byte", "overlong", "surrogate", "cut-sequence"],
)
@pytest.mark.parametrize("place", ["past-first-chunk", "across-chunk-boundary"])
def test_non_utf8_names_line_and_byte_offset(tmp_path, bad, place):
    # Premises full of multi-byte characters, some split by the scanner's chunk boundaries: those are valid.
    arguments = [argument(f"a{i}", "caf\u00e9 \u201cquoted\u201d " * 3000) for i in range(60)]
    data = json.dumps({"arguments": arguments}, indent=2, ensure_ascii=False).encode("utf-8")
    if place == "across-chunk-boundary":  # the bad sequence starts in the first chunk's last byte
        at = _READ_SIZE - 1
        space = data.rindex(b" ", 0, at)
        data = data[:space] + b"x" * (at - space) + data[space:]
    else:
        at = data.index(b"caf", data.index(b'"a46"'))  # in argument #48 (id a47)
    path = tmp_path / "idebate.json"
    path.write_bytes(data[:at] + bad + data[at:])
    with pytest.raises(InputError) as caught:
        ingest_argsme([path], tmp_path / "args.parquet")
    number = data[:at].count(b'"id": ') + 1
    line = data[:at].count(b"\n") + 1
    assert caught.value.path == str(path)
    assert caught.value.where == f"argument #{number}, line {line}, byte offset {at}"
    assert caught.value.problem == "invalid UTF-8"


def test_non_utf8_outside_a_string(tmp_path):
    path = tmp_path / "idebate.json"
    path.write_bytes(b'{\n"arguments": [\n\xff\n]}')
    with pytest.raises(InputError, match=r"idebate.json: argument #1, line 3, byte offset 17: invalid UTF-8"):
        ingest_argsme([path], tmp_path / "args.parquet")


@pytest.mark.parametrize(
    ("bad", "where", "problem"),
    [
        ({"premises": GOOD["premises"], "conclusion": "c"}, "argument #2", '"id"'),
        ({"id": "", "premises": GOOD["premises"], "conclusion": "c"}, "argument #2", '"id"'),
        ({"id": 7, "premises": GOOD["premises"], "conclusion": "c"}, "argument #2", '"id"'),
        ({"id": "x", "conclusion": "c"}, "argument #2 (id 'x')", '"premises"'),
        ({"id": "x", "premises": [], "conclusion": "c"}, "argument #2 (id 'x')", '"premises"'),
        ({"id": "x", "premises": {"text": "t"}, "conclusion": "c"}, "argument #2 (id 'x')", '"premises"'),
        ({"id": "x", "premises": ["t"], "conclusion": "c"}, "argument #2 (id 'x')", '"text"'),
        ({"id": "x", "premises": [{"stance": "PRO"}], "conclusion": "c"}, "argument #2 (id 'x')", '"text"'),
        (argument("x", stance="NEUTRAL"), "argument #2 (id 'x')", "'NEUTRAL' is not PRO or CON"),
        ({"id": "x", "premises": [{"text": "t"}], "conclusion": "c"}, "argument #2 (id 'x')", "None is not PRO or CON"),
        ({"id": "x", "premises": GOOD["premises"]}, "argument #2 (id 'x')", '"conclusion"'),
        ({**argument("x"), "context": "c"}, "argument #2 (id 'x')", '"context"'),
        (argument("x", sourceUrl=5), "argument #2 (id 'x')", '"sourceUrl"'),
        ("just a string", "argument #2", "not a JSON object"),
    ],
    ids=[
        "no-id",
        "empty-id",
        "numeric-id",
        "no-premises",
        "empty-premises",
        "premises-object",
        "premise-string",
        "no-text",
        "bad-stance",
        "no-stance",
        "no-conclusion",
        "context-string",
        "context-number",
        "not-object",
    ],
)
def test_bad_argument_names_file_number_and_id(tmp_path, bad, where, problem):
    path = write_json(tmp_path / "debateorg.json", [GOOD, bad, argument("after")])
    assert_rejected(path, tmp_path, where, problem)


@pytest.mark.parametrize("hidden", [" ", "\t", "\n", "\u2028", "\u200b", "\x00"])
def test_an_id_with_white_space_or_an_invisible_character_is_refused_naming_it(tmp_path, hidden):
    """Such an id passed ingest and crashed the run's writer two stages later; a NUL went unseen."""
    unsafe = f"abc{hidden}def"
    path = write_json(tmp_path / "debateorg.json", [GOOD, argument(unsafe), argument("after")])
    assert_rejected(path, tmp_path, f"argument #2 (id {unsafe!r})", f"holds U+{ord(hidden):04X}")


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="nothing.json: cannot read"):
        ingest_argsme([tmp_path / "nothing.json"], tmp_path / "args.parquet")


@pytest.mark.parametrize("arguments", [[], [argument("a", ""), argument("b", " \n")]])
def test_a_corpus_without_text_is_one_error_naming_it_and_writes_nothing(tmp_path, arguments):
    """Not an empty table, which ended in a ZeroDivisionError three stages later."""
    path = write_json(tmp_path / "args-me.json", arguments)
    with pytest.raises(InputError) as raised:
        ingest_argsme([path], tmp_path / "args.parquet")
    assert str(raised.value) == f"{path}: no arguments with premise text: nothing to index"
    assert list(tmp_path.iterdir()) == [path]


def test_duplicates_and_empty_texts_are_dropped_counted_and_logged(tmp_path, caplog):
    first = write_json(
        tmp_path / "debatewise.json",
        [argument("a", "first a"), argument("blank", " \n\t"), argument("b"), argument("a", "second a")],
    )
    second = write_json(
        tmp_path / "idebate.json",
        [argument("b", "b again"), argument("none", ""), argument("c"), argument("blank", "now has text")],
    )
    with caplog.at_level(logging.WARNING, logger="argrank.core.table_writer"):
        stats, table = ingest(tmp_path, first, second)
    assert table.column("id").to_pylist() == ["a", "b", "c", "blank"]
    assert table.column("premise").to_pylist()[0] == "first a"
    assert (stats.rows, stats.duplicates, stats.empty) == (4, 2, 2)
    assert (stats.duplicate_ids, stats.empty_ids) == (["a", "b"], ["blank", "none"])
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        f"{tmp_path}: dropped 2 arguments with an id seen before (kept the first), e.g. a, b",
        f"{tmp_path}: dropped 2 arguments with empty premise text, e.g. blank, none",
    ]  # the corpus named: its folder


def test_no_warning_for_a_clean_corpus(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="argrank.core.table_writer"):
        ingest(tmp_path, write_json(tmp_path / "args-me.json", [argument("a"), argument("b")]))
    assert not caplog.records
