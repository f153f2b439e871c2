"""Property tests of the readers (hypothesis): any bytes give a correct parse or one clear InputError, never a
traceback of another kind. Inputs are built from the formats' own pieces (fields, separators, labels, JSON and XML
fragments) mixed with arbitrary text, so most examples are near-misses of a valid file."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from argrank.core.errors import InputError
from argrank.formats.qrels import read_qrels
from argrank.formats.runfile import read_run
from argrank.formats.topics import read_topics
from argrank.formats.validation import validate_run
from argrank.tracks.comparative.stance_qrels import read_stance_qrels
from argrank.tracks.images.qrels import read_image_qrels, read_image_training
from argrank.tracks.perspective.data import read_predictions, read_queries

PIECES = st.sampled_from(
    ["1", "51", "Q0", "0", "2", "-2", "1.5", "nan", "inf", "FIRST", "NO", "PRO", "CON", "ONTOPIC", "doc-1", "S1-A2",
     '"a tag"', "tag", "\t", " ", "  ", "\r", "\x00", "\u00a0", "é", "\ufeff"]
)  # fmt: skip
LINES = st.lists(st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=8).map(" ".join), max_size=12)
FILES = st.one_of(LINES.map("\n".join), st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
JSON_LINES = st.lists(
    st.one_of(
        st.fixed_dictionaries({"query_id": st.one_of(st.text(max_size=4), st.integers()),
                               "text": st.text(max_size=10),
                               "relevant_candidates": st.lists(st.integers(-2, 5), max_size=4)}),
        st.fixed_dictionaries({"query_id": st.text(max_size=4),
                               "relevant_candidates": st.one_of(st.lists(st.integers(0, 5), max_size=4), st.text())}),
        st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
        st.integers(),
    ).map(json.dumps),
    max_size=6,
)  # fmt: skip
XML = st.lists(
    st.sampled_from(["<topics>", "</topics>", "<topic>", "</topic>", "<number>1</number>", "<number>x</number>",
                     "<title>Is it?</title>", "<title></title>", "<objects>a, b</objects>", "<!DOCTYPE x [",
                     "<!ENTITY e 'x'>", "]>", "&e;", "<?xml version='1.0'?>", "<", ">", "text"]),
    max_size=12,
).map("".join)  # fmt: skip

READERS: dict[str, Callable[[Path], object]] = {
    "run": read_run,
    "validated run": validate_run,
    "qrels": read_qrels,
    "stance qrels": read_stance_qrels,
    "image qrels": read_image_qrels,
    "image training": read_image_training,
    "topics": read_topics,
    "perspective queries": read_queries,
    "perspective predictions": read_predictions,
}
RELAXED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _read(reader: Callable[[Path], object], text: str) -> None:
    """Write `text` to a file and read it: a result or an InputError naming that file, nothing else."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.txt"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        try:
            reader(path)
        except InputError as error:
            assert error.path == str(path), error


@RELAXED
@given(text=FILES, reader=st.sampled_from([name for name in READERS if "perspective" not in name and name != "topics"]))
def test_line_readers_parse_or_name_the_problem(text, reader):
    _read(READERS[reader], text)


@RELAXED
@given(
    text=st.one_of(JSON_LINES.map("\n".join), FILES),
    reader=st.sampled_from(["perspective queries", "perspective predictions"]),
)
def test_json_line_readers_parse_or_name_the_problem(text, reader):
    _read(READERS[reader], text)


@RELAXED
@given(text=st.one_of(XML, FILES))
def test_the_topics_reader_parses_or_names_the_problem(text):
    _read(READERS["topics"], text)
