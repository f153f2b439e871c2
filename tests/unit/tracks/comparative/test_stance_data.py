"""Stance training set readers: the task's TSV with its mention spans, CompSent-19's CSV, JSONL, telling the TSV
and the CSV apart by header, the label mappings, and every bad-input case naming file and line."""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from pathlib import Path

import pytest

from argrank.core.errors import InputError
from argrank.tracks.comparative.stance_data import StanceExample, pair_key, read_training_set, read_training_sets
from argrank.tracks.comparative.stance_labels import COMPSENT_LABELS, LABELS, NONE, TRAINING_CODES, TRAINING_LABELS

EMBEDDED = Path(__file__).resolve().parents[4] / "data" / "comparative-stance" / "stance-train.tsv"

COLUMNS = (
    "ds id question answer answer_stance answer_stance_object object_count object_1 mask_pos_1 object_2 mask_pos_2"
)
HEADER = "\t".join(COLUMNS.split())


def tsv_row(
    question: str, answer: str, stance: str, first: str, second: str, spans: tuple[str, str] = ("[]", "[]")
) -> str:
    """One line of the task's TSV, with plausible values in the columns we do not use."""
    return "\t".join(["train", "7", question, answer, stance, first, "2", first, spans[0], second, spans[1]])


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


def rejected(path: Path, where: str, problem: str) -> None:
    """Reading `path` raises InputError naming the file, the place and the problem."""
    with pytest.raises(InputError) as caught:
        read_training_set(path)
    assert caught.value.path == str(path)
    assert caught.value.where == where
    assert problem in caught.value.problem
    assert str(path) in str(caught.value)


def test_tsv_maps_every_training_code_and_keeps_file_order(tmp_path):
    rows = [tsv_row("cats or dogs?", f"answer {code}", str(code), "cats", "dogs") for code in (2, 3, 1, 0)]
    path = write(tmp_path / "train.tsv", "\n".join([HEADER, *rows]) + "\n")
    examples = read_training_set(path)
    assert [example.label for example in examples] == ["FIRST", "SECOND", "NEUTRAL", "NO"]
    assert [example.label for example in examples] == [TRAINING_CODES[code] for code in (2, 3, 1, 0)]
    assert examples[0] == StanceExample("cats or dogs?", "cats", "dogs", "answer 2", "FIRST")


def test_tsv_takes_columns_by_name_tolerates_extras_crlf_bom_and_blank_lines(tmp_path):
    header = "extra\tobject_2\tanswer\tobject_1\tanswer_stance\tquestion"
    body = "x\tdogs\tDogs are loyal.\tcats\t3\tcats or dogs?"
    path = write(tmp_path / "train.tsv", "\ufeff" + header + "\r\n\r\n" + body + "\r\n")
    [example] = read_training_set(path)
    assert example == StanceExample("cats or dogs?", "cats", "dogs", "Dogs are loyal.", "SECOND")
    assert example.first_spans == example.second_spans == ()  # no mask position columns: no spans


def test_tsv_keeps_quotes_as_text(tmp_path):
    path = write(tmp_path / "train.tsv", HEADER + "\n" + tsv_row("q", '"cats" are "better', "2", "cats", "dogs"))
    assert read_training_set(path)[0].text == '"cats" are "better'


@pytest.mark.parametrize(
    ("lines", "where", "problem"),
    [
        (["ds\tquestion\tanswer\tobject_1\tobject_2"], "line 1", "header lacks column(s) answer_stance"),
        ([HEADER.replace("ds", "answer")], "line 1", "header names column(s) answer more than once"),
        ([HEADER, tsv_row("q", "a", "2", "x", "y") + "\tmore"], "line 2", "expected 11 tab-separated fields"),
        ([HEADER, tsv_row("q", "a", "2", "x", "y"), "train\t8\tq"], "line 3", "found 3"),
        ([HEADER, tsv_row("q", "a", "4", "x", "y")], "line 2", "answer_stance 4 is not one of 0, 1, 2, 3"),
        ([HEADER, tsv_row("q", "a", "FIRST", "x", "y")], "line 2", "answer_stance 'FIRST' is not an integer"),
        ([HEADER, tsv_row("q", "  ", "1", "x", "y")], "line 2", "text is empty"),
        ([HEADER, tsv_row("q", "a", "1", "", "y")], "line 2", "object_1 is empty"),
        ([HEADER, tsv_row("q", "a", "1", "x", " ")], "line 2", "object_2 is empty"),
        ([HEADER, tsv_row("q", "a", "1", "Cats", "cats")], "line 2", "object_1 and object_2 are both 'Cats'"),
        ([HEADER, tsv_row("q", "a", "1", "x", "y"), tsv_row("q", "a\rb", "1", "x", "y")], "line 3", "malformed TSV"),
    ],
)
def test_tsv_rejects_bad_lines(tmp_path, lines, where, problem):
    rejected(write(tmp_path / "train.tsv", "\n".join(lines) + "\n"), where, problem)


def test_tsv_with_header_only_has_no_examples(tmp_path):
    rejected(write(tmp_path / "train.tsv", HEADER + "\n"), "", "no examples")


def jsonl(*records: object) -> str:
    return "".join((record if isinstance(record, str) else json.dumps(record)) + "\n" for record in records)


def record(**changes: object) -> dict:
    base = {"question": "cats or dogs?", "object_1": "cats", "object_2": "dogs", "text": "Cats purr.", "label": "FIRST"}
    return {**base, **changes}


def test_jsonl_accepts_label_names_and_codes_and_skips_blank_lines(tmp_path):
    records = [record(label=label) for label in LABELS] + [record(label=code) for code in (2, 3, 1, 0)]
    path = write(tmp_path / "train.jsonl", jsonl(records[0], "", "   ", *records[1:]))
    examples = read_training_set(path)
    assert [example.label for example in examples] == [*LABELS, "FIRST", "SECOND", "NEUTRAL", "NO"]
    assert examples[0] == StanceExample("cats or dogs?", "cats", "dogs", "Cats purr.", "FIRST")


@pytest.mark.parametrize(
    ("records", "where", "problem"),
    [
        ([record(), '{"question": "q",'], "line 2, column 18", "malformed JSON"),
        ([record(), "[" * 3000 + "]" * 3000], "line 2", "JSON nested deeper than Python's reader goes"),
        ([record(), '{"question": ' + "9" * 5000 + "}"], "line 2", "a JSON number of more than 4,300 digits"),
        ([record(), "[1, 2]"], "line 2", "not a JSON object"),
        ([{k: v for k, v in record().items() if k != "text"}], "line 1", "missing key(s) 'text'"),
        ([record(object_1=3)], "line 1", "'object_1' is not a string"),
        ([record(), record(label="first")], "line 2", "label 'first' is not one of FIRST, SECOND, NEUTRAL, NO"),
        ([record(label=7)], "line 1", "label 7 is not one of"),
        ([record(label=True)], "line 1", "label True is not one of"),
        ([record(text="")], "line 1", "text is empty"),
        ([record(object_2="\t")], "line 1", "object_2 is empty"),
    ],
)
def test_jsonl_rejects_bad_lines(tmp_path, records, where, problem):
    rejected(write(tmp_path / "train.jsonl", jsonl(*records)), where, problem)


@pytest.mark.parametrize("suffix", [".tsv", ".jsonl"])
def test_invalid_utf8_names_its_line(tmp_path, suffix):
    good = HEADER if suffix == ".tsv" else json.dumps(record())
    path = tmp_path / f"train{suffix}"
    path.write_bytes(good.encode() + b"\n" + good.encode() + b"\n" + b'{"text": "caf\xe9"}\n')
    rejected(path, "line 3", "not valid UTF-8 (byte 0xe9)")


@pytest.mark.parametrize("content", ["", "\n  \n"])
@pytest.mark.parametrize("suffix", [".tsv", ".jsonl"])
def test_empty_files_are_rejected(tmp_path, suffix, content):
    rejected(write(tmp_path / f"train{suffix}", content), "", "empty file")


def test_missing_file(tmp_path):
    rejected(tmp_path / "absent.jsonl", "", "cannot read")
    rejected(tmp_path / "absent.tsv", "", "cannot read")


def test_training_labels_extend_the_run_labels_with_none():
    assert TRAINING_LABELS == (*LABELS, "NONE") and NONE == "NONE"
    assert COMPSENT_LABELS == {"BETTER": "FIRST", "WORSE": "SECOND", "NONE": NONE}
    assert set(COMPSENT_LABELS.values()) <= set(TRAINING_LABELS)


def test_pair_key_ignores_order_and_case():
    forward = StanceExample("q", "Cats", "dogs", "t", "FIRST")
    backward = StanceExample("q", "DOGS", "cats", "t", "SECOND")
    assert pair_key(forward) == pair_key(backward) == "cats | dogs"
    assert pair_key(StanceExample("q", "cats", "mice", "t", "NO")) != pair_key(forward)


# --- mention spans in the task's TSV ---


def span(text: str, mention: str, occurrence: int = 0) -> list[int]:
    """[start, end] of the `occurrence`-th `mention` in `text`."""
    start = [match.start() for match in re.finditer(re.escape(mention), text)][occurrence]
    return [start, start + len(mention)]


def test_tsv_spans_are_read_and_point_at_the_mentions(tmp_path):
    answer = "Cats beat dogs, and cats purr."
    spans = (json.dumps([span(answer, "Cats"), span(answer, "cats")]), json.dumps([span(answer, "dogs")]))
    path = write(tmp_path / "train.tsv", HEADER + "\n" + tsv_row("cats or dogs?", answer, "2", "cats", "dogs", spans))
    [example] = read_training_set(path)
    assert example.first_spans == ((0, 4), (20, 24))
    assert example.second_spans == ((10, 14),)
    assert [example.text[start:end] for start, end in example.first_spans] == ["Cats", "cats"]
    assert [example.text[start:end] for start, end in example.second_spans] == ["dogs"]


def test_tsv_spans_move_with_the_trimmed_text_and_those_in_white_space_are_cut_or_dropped(tmp_path):
    answer = "  Cats beat dogs.   "
    spans = (json.dumps([span(answer, "Cats"), [0, 6]]), json.dumps([span(answer, "dogs"), [17, 19], [16, 18]]))
    path = write(tmp_path / "train.tsv", HEADER + "\n" + tsv_row("q", answer, "2", "cats", "dogs", spans))
    [example] = read_training_set(path)
    assert example.text == "Cats beat dogs."
    assert example.first_spans == ((0, 4), (0, 4))  # [0, 6] loses its leading white space
    assert example.second_spans == ((10, 14), (14, 15))  # [17, 19] lies wholly in the trailing white space: dropped
    assert {example.text[start:end] for start, end in example.first_spans} == {"Cats"}
    assert example.text[slice(*example.second_spans[0])] == "dogs"


def test_tsv_fields_in_csv_quoting_are_unquoted_and_spans_count_the_unquoted_answer(tmp_path):
    # The task's file quotes a field holding a quote and doubles its quotes; its spans count the field unquoted.
    answer = 'I said "cats", not dogs'
    spans = (json.dumps([span(answer, "cats")]), json.dumps([span(answer, "dogs")]))
    quoted = '"' + answer.replace('"', '""') + '"'
    row = tsv_row('"Are ""cats"" better?"', quoted, "2", '"""cats"""', "dogs", spans)
    [example] = read_training_set(write(tmp_path / "train.tsv", HEADER + "\n" + row))
    assert (example.question, example.first, example.text) == ('Are "cats" better?', '"cats"', answer)
    assert example.text[slice(*example.first_spans[0])] == "cats"
    assert example.text[slice(*example.second_spans[0])] == "dogs"


def test_tsv_with_one_mask_position_column_reads_its_spans_only(tmp_path):
    header = "question\tanswer\tanswer_stance\tobject_1\tobject_2\tmask_pos_2"
    path = write(tmp_path / "train.tsv", header + "\nq\tCats beat dogs.\t2\tcats\tdogs\t[[10, 14]]\n")
    [example] = read_training_set(path)
    assert (example.first_spans, example.second_spans) == ((), ((10, 14),))


@pytest.mark.parametrize(
    ("spans", "problem"),
    [
        (("[[0, 4]", "[]"), "mask_pos_1 '[[0, 4]' is not a JSON list of [start, end] character spans"),
        (("0", "[]"), "mask_pos_1 '0' is not a JSON list"),
        (("", "[]"), "mask_pos_1 '' is not a JSON list"),
        (("[]", "[[1, 2, 3]]"), "mask_pos_2 '[[1, 2, 3]]' is not a JSON list"),
        (("[]", "[[1.0, 2]]"), "mask_pos_2 '[[1.0, 2]]' is not a JSON list"),
        (("[]", "[[false, 2]]"), "mask_pos_2 '[[false, 2]]' is not a JSON list"),
        (("[]", '[["1", "2"]]'), "is not a JSON list"),
        (("[]", "[1, 2]"), "is not a JSON list"),
        (("[[4, 4]]", "[]"), "mask_pos_1: span [4, 4] is not a non-empty span within the answer's 15 characters"),
        (("[[5, 2]]", "[]"), "mask_pos_1: span [5, 2] is not"),
        (("[]", "[[-1, 3]]"), "mask_pos_2: span [-1, 3] is not"),
        (("[]", "[[10, 16]]"), "mask_pos_2: span [10, 16] is not a non-empty span within the answer's 15 characters"),
    ],
)
def test_tsv_rejects_bad_spans(tmp_path, spans, problem):
    good, bad = (tsv_row("q", "Cats beat dogs.", "2", "cats", "dogs", given) for given in (("[]", "[]"), spans))
    lines = [HEADER, good, bad]
    rejected(write(tmp_path / "train.tsv", "\n".join(lines) + "\n"), "line 3", problem)


# --- rows without text ---


def id_only_row(number: int) -> str:
    """A row as the task's Yahoo! Answers part has them: ids, nothing to train on."""
    return "\t".join(["yahoo", str(number), "", "", "", "", "", "", "", "", ""])


def test_tsv_rows_without_question_or_answer_are_skipped_with_one_warning(tmp_path, caplog):
    good = tsv_row("cats or dogs?", "Cats purr.", "2", "cats", "dogs")
    path = write(tmp_path / "train.tsv", "\n".join([HEADER, id_only_row(1), good, id_only_row(2), id_only_row(3)]))
    with caplog.at_level(logging.WARNING):
        examples = read_training_set(path)
    assert [example.text for example in examples] == ["Cats purr."]
    warnings = [record for record in caplog.records if record.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert warnings[0].getMessage() == f"{path}: skipped 3 rows without question or answer text"


def test_tsv_without_skipped_rows_warns_nothing(tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        read_training_set(write(tmp_path / "train.tsv", HEADER + "\n" + tsv_row("q", "a", "1", "x", "y")))
    assert not caplog.records


def test_tsv_with_only_rows_without_text_is_rejected(tmp_path):
    path = write(tmp_path / "train.tsv", "\n".join([HEADER, id_only_row(1), id_only_row(2)]) + "\n")
    rejected(path, "", "no examples: all 2 rows are without question or answer text")


def test_tsv_row_with_a_question_but_no_answer_is_an_error_not_skipped(tmp_path):
    lines = [HEADER, tsv_row("q", "a", "1", "x", "y"), tsv_row("q", "", "1", "x", "y")]
    path = write(tmp_path / "train.tsv", "\n".join(lines))
    rejected(path, "line 3", "text is empty")


# --- CompSent-19 ---

COMPSENT_HEADER = "id,domain,object_a,object_b,sentence,better_count,worse_count,none_count,most_frequent_label"


def compsent_row(first: str, second: str, sentence: str, label: str, votes: str = "1,2,2") -> str:
    """One CompSent-19 record, its sentence quoted as the CSV module does where needed; `votes` are the better,
    worse and none counts."""
    if any(character in sentence for character in ',"\n'):
        sentence = '"' + sentence.replace('"', '""') + '"'
    return ",".join(["X1", "compsci", first, second, sentence, votes, label])


COMPSENT = "\n".join(
    [
        COMPSENT_HEADER,
        compsent_row("Python", "Java", "Python is easier than Java, by far.", "BETTER"),
        compsent_row("Dell", "Intel", 'Dell chips\nrun slower than "Intel" ones.', "WORSE"),
        compsent_row("mit", "harvard", "mit, harvard", "NONE"),
    ]
)


def test_compsent_reads_records_and_maps_its_labels(tmp_path):
    examples = read_training_set(write(tmp_path / "compsent.csv", COMPSENT + "\n"))
    # Each label's share of the votes (1, 2, 2) is its agreement.
    assert examples == [
        StanceExample("", "Python", "Java", "Python is easier than Java, by far.", "FIRST", sentence=True,
                      agreement=0.2),
        StanceExample("", "Dell", "Intel", 'Dell chips\nrun slower than "Intel" ones.', "SECOND", sentence=True,
                      agreement=0.4),
        StanceExample("", "mit", "harvard", "mit, harvard", NONE, sentence=True, agreement=0.4),
    ]  # fmt: skip


def test_compsent_without_vote_counts_has_full_agreement(tmp_path):
    header = "object_a,object_b,sentence,most_frequent_label"
    path = write(tmp_path / "compsent.csv", header + "\ntea,coffee,tea beats coffee,BETTER\n")
    assert read_training_set(path) == [StanceExample("", "tea", "coffee", "tea beats coffee", "FIRST", sentence=True)]


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        (compsent_row("a", "b", "a beats b", "better"), "most_frequent_label 'better' is not one of BETTER, WORSE"),
        (compsent_row("a", "b", "a beats b", "NEUTRAL"), "most_frequent_label 'NEUTRAL' is not one of"),
        (compsent_row("a", "b", "a beats\nb", "NEUTRAL"), "most_frequent_label 'NEUTRAL' is not one of"),
        (compsent_row("a", "b", "", "NONE"), "sentence is empty"),
        (compsent_row(" ", "b", "a beats b", "NONE"), "object_a is empty"),
        (compsent_row("a", "", "a beats b", "NONE"), "object_b is empty"),
        (compsent_row("Dell", "dell", "Dell is Dell", "NONE"), "object_a and object_b are both 'Dell'"),
        ("X9,compsci,a,b,a beats b,1,2,2", "expected 9 comma-separated fields as in the header, found 8"),
        (compsent_row("a", "b", "a beats b", "BETTER", "x,2,2"), "better_count 'x' is not a whole number of 0 or more"),
        (compsent_row("a", "b", "a beats b", "NONE", "1,-2,2"), "worse_count '-2' is not a whole number"),
        (compsent_row("a", "b", "a beats b", "WORSE", "3,0,2"), "most_frequent_label WORSE has no votes in"),
        ('X9,compsci,a,b,"a beats b,1,2,2,NONE', "malformed CSV"),
        ('X9,compsci,a,b,"a beats" b,1,2,2,NONE', "malformed CSV"),
    ],
)
def test_compsent_rejects_bad_records_naming_the_line_they_start_on(tmp_path, row, problem):
    # The second record spans lines 3 and 4, so the third is on line 5 and the bad one starts on line 6.
    rejected(write(tmp_path / "compsent.csv", COMPSENT + "\n" + row + "\n"), "line 6", problem)


def test_compsent_header_lacking_a_column_is_rejected(tmp_path):
    header = COMPSENT_HEADER.removesuffix(",most_frequent_label")
    path = write(tmp_path / "compsent.csv", "\n" + header + "\nX1,d,a,b,a beats b,1,2,2\n")
    rejected(path, "line 2", "header lacks column(s) most_frequent_label")


# --- format by header ---


def test_format_is_told_by_the_header_not_the_suffix(tmp_path):
    compsent = read_training_set(write(tmp_path / "compsent.txt", "\ufeff\n" + COMPSENT + "\n"))
    assert [example.label for example in compsent] == ["FIRST", "SECOND", NONE]
    tsv = write(tmp_path / "touche.csv", HEADER + "\n" + tsv_row("cats or dogs?", "Cats purr.", "2", "cats", "dogs"))
    assert read_training_set(tsv) == [StanceExample("cats or dogs?", "cats", "dogs", "Cats purr.", "FIRST")]


@pytest.mark.parametrize("header", ["question,answer,label", "a\tb\tc", "object_a;object_b;sentence"])
def test_unknown_header_is_one_error_naming_both_formats(tmp_path, header):
    path = write(tmp_path / "train.csv", "\n" + header + "\n1,2,3\n")
    rejected(path, "line 2", "unknown header: expected the Touché stance TSV's, tab-separated, with columns question")
    with pytest.raises(InputError) as caught:
        read_training_set(path)
    assert "CompSent-19's, comma-separated, with columns object_a, object_b, sentence" in caught.value.problem


def test_read_training_sets_concatenates_files_in_order(tmp_path):
    tsv = write(tmp_path / "touche.tsv", HEADER + "\n" + tsv_row("cats or dogs?", "Cats purr.", "2", "cats", "dogs"))
    compsent = write(tmp_path / "compsent.csv", COMPSENT)
    assert [example.first for example in read_training_sets([compsent, tsv])] == ["Python", "Dell", "mit", "cats"]
    assert read_training_sets([tsv, compsent]) == read_training_set(tsv) + read_training_set(compsent)


# --- the embedded and the real files ---


def test_embedded_set_reads_with_spans_on_the_objects():
    examples = read_training_set(EMBEDDED)
    assert len(examples) == 400
    assert sum(1 for example in examples if example.first_spans or example.second_spans) == 327
    for example in examples:
        for name, spans in ((example.first, example.first_spans), (example.second, example.second_spans)):
            forms = {name.casefold() + ending for ending in ("", "s", "es")}
            assert all(example.text[start:end].casefold() in forms for start, end in spans)


def real(shared_data: Path, name: str) -> Path:
    return shared_data / "comparative-stance" / name


def test_real_compsent_set(shared_data):
    examples = read_training_set(real(shared_data, "compsent19-train.csv"))
    assert len(examples) == 5759
    assert Counter(example.label for example in examples) == {"FIRST": 1091, "SECOND": 474, NONE: 4194}
    assert all(example.question == "" and not example.first_spans and not example.second_spans for example in examples)
    assert all(0 < example.agreement <= 1 for example in examples)
    assert sum(example.agreement == 1 for example in examples) > len(examples) / 2


def shares_a_word(mention: str, name: str) -> bool:
    words = re.compile(r"\w+")
    return bool(set(words.findall(mention.casefold())) & set(words.findall(name.casefold())))


def test_real_touche_set_and_its_spans(shared_data):
    examples = read_training_set(real(shared_data, "touche-stance-train.tsv"))
    assert len(examples) == 296
    assert Counter(example.label for example in examples) == {"FIRST": 91, "SECOND": 71, "NEUTRAL": 106, "NO": 28}
    mentions = [
        (example.text[start:end], name)
        for example in examples
        for name, spans in ((example.first, example.first_spans), (example.second, example.second_spans))
        for start, end in spans
    ]
    assert len(mentions) == 1565  # every span of the file, none lost to trimming
    # Many spans are paraphrases ("the database" for RDBMS), so not all share a word: 72.3% do. Read without
    # undoing the file's CSV quoting, the spans of its 94 quoted answers slip and only 54.6% would.
    share = sum(shares_a_word(mention, name) for mention, name in mentions) / len(mentions)
    assert share > 0.7
