"""tracks/perspective/ingest.py: the corpus as a document table with languages and profiles; bad lines named."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from argrank.core.errors import InputError
from argrank.tracks.perspective.data import ISSUES, PROFILE_COLUMNS
from argrank.tracks.perspective.ingest import LANGUAGE, SCHEMA, TEXT, ingest_perspective

EMBEDDED = Path(__file__).resolve().parents[4] / "data" / "perspective"
LANGUAGES = ["de", "fr", "it"]
PROFILE = {
    "gender": "Weiblich", "age": "35-49", "residence": "Land", "civil_status": "Verheiratet",
    "denomination": "Konfessionslos", "education": "Fachhochschule", "political_spectrum": "Mitte-Rechts",
    ISSUES: ["Restriktive Migrationspolitik", "Ausgebauter Umweltschutz"],
}  # fmt: skip
ARGUMENTS = [
    (1042, "Die Steuern sind zu hoch und der Staat muss sparen, bevor er mehr von uns verlangt.", "AGAINST"),
    (7, "Il faut investir dans les transports publics, car ils sont bons pour le climat et pour nous.", "FAVOR"),
    (123456789012, "Non è giusto che i giovani paghino per una riforma che non li aiuta per niente.", "AGAINST"),
]


def _corpus(folder: Path, arguments=ARGUMENTS, profile=PROFILE) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        {"argument_id": key, "argument": text, "stance": stance, "topic": "Economy", "demographic_profile": profile}
        for key, text, stance in arguments
    ]
    (folder / "corpus.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return folder


def test_the_schema_is_id_text_language_stance_topic_and_every_profile_column():
    assert SCHEMA.names == ["id", TEXT, LANGUAGE, "stance", "topic", *PROFILE_COLUMNS]
    assert SCHEMA.field(ISSUES).type == pa.list_(pa.string())
    assert all(SCHEMA.field(name).type == pa.string() for name in SCHEMA.names if name != ISSUES)


def test_each_argument_is_a_row_in_file_order_with_its_language_and_profile(tmp_path):
    stats = ingest_perspective(_corpus(tmp_path / "release"), tmp_path / "docs.parquet", LANGUAGES)
    table = pq.read_table(tmp_path / "docs.parquet")
    assert stats.rows == table.num_rows == 3 and table.schema == SCHEMA
    rows = table.to_pylist()
    assert [row["id"] for row in rows] == ["1042", "7", "123456789012"]
    assert [row[LANGUAGE] for row in rows] == ["de", "fr", "it"]
    assert [row[TEXT] for row in rows] == [text for _, text, _ in ARGUMENTS]
    assert [row["stance"] for row in rows] == ["AGAINST", "FAVOR", "AGAINST"]
    assert rows[0] == {"id": "1042", TEXT: ARGUMENTS[0][1], LANGUAGE: "de", "stance": "AGAINST", "topic": "Economy",
                       **PROFILE}  # fmt: skip


def test_the_release_folder_and_its_corpus_file_give_the_same_table_every_time(tmp_path):
    release = _corpus(tmp_path / "release")
    ingest_perspective(release, tmp_path / "a.parquet", LANGUAGES)
    ingest_perspective(release / "corpus.jsonl", tmp_path / "b.parquet", LANGUAGES)
    assert pq.read_table(tmp_path / "a.parquet").equals(pq.read_table(tmp_path / "b.parquet"))


def test_languages_are_only_those_given_the_first_being_the_fallback(tmp_path):
    release = _corpus(tmp_path / "release", [(1, "12345 67890", "FAVOR"), (2, ARGUMENTS[1][1], "FAVOR")])
    ingest_perspective(release, tmp_path / "docs.parquet", ["it", "fr"])
    assert pq.read_table(tmp_path / "docs.parquet")[LANGUAGE].to_pylist() == ["it", "fr"]


def test_an_argument_given_twice_keeps_the_first(tmp_path):
    arguments = [*ARGUMENTS[:2], (1042, "Ein anderer Text mit demselben Schlüssel, der nicht gelesen wird.", "FAVOR")]
    stats = ingest_perspective(_corpus(tmp_path / "release", arguments), tmp_path / "docs.parquet", LANGUAGES)
    table = pq.read_table(tmp_path / "docs.parquet")
    assert stats.rows == 2 and table["id"].to_pylist() == ["1042", "7"]
    assert table[TEXT][0].as_py() == ARGUMENTS[0][1]


def test_a_blank_argument_is_dropped_by_the_ingest_policy_and_counted(tmp_path):
    arguments = [ARGUMENTS[0], (5, "   ", "FAVOR"), ARGUMENTS[1]]
    stats = ingest_perspective(_corpus(tmp_path / "release", arguments), tmp_path / "docs.parquet", LANGUAGES)
    assert (stats.rows, stats.empty, stats.empty_ids) == (2, 1, ["5"])


@pytest.mark.parametrize(
    ("profile", "problem"),
    [
        ({key: value for key, value in PROFILE.items() if key != "education"}, "education"),
        ({**PROFILE, ISSUES: "Umweltschutz"}, "a list of strings"),
    ],
)
def test_a_bad_profile_is_named_with_its_line_and_nothing_is_written(tmp_path, profile, problem):
    release = _corpus(tmp_path / "release", ARGUMENTS[:1], profile)
    with pytest.raises(InputError, match=f"line 1 .argument 1042.*{problem}"):
        ingest_perspective(release, tmp_path / "docs.parquet", LANGUAGES)
    assert not (tmp_path / "docs.parquet").exists()


def test_the_embedded_corpus_ingests_whole_with_three_languages(tmp_path):
    stats = ingest_perspective(EMBEDDED, tmp_path / "docs.parquet", LANGUAGES)
    table = pq.read_table(tmp_path / "docs.parquet")
    assert stats.rows == table.num_rows == 314 and stats.duplicates == stats.empty == 0
    assert len(set(table["id"].to_pylist())) == 314
    assert set(table[LANGUAGE].to_pylist()) == set(LANGUAGES)
    assert all(isinstance(issues, list) for issues in table[ISSUES].to_pylist())
