"""read_parquet: the table pyarrow's read_table gives, without importing pyarrow.dataset."""

from __future__ import annotations

import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from argrank.core.parquet_file import read_parquet


@pytest.mark.parametrize("columns", [None, ["lists", "id"]])
def test_the_same_table_as_read_table(tmp_path, columns):
    table = pa.table({"id": ["a", "b", None], "n": [1, 2, 3], "lists": pa.array([[1], [], None], pa.list_(pa.int32()))})
    path = tmp_path / "t.parquet"
    pq.write_table(table.replace_schema_metadata({b"terms": b"x"}), path, row_group_size=2)
    read = read_parquet(path, columns)
    expected = pq.read_table(path, columns=columns)
    assert read.equals(expected) and read.schema.equals(expected.schema, check_metadata=True)
    assert read.column_names == (columns or ["id", "n", "lists"])


def test_reading_imports_no_dataset_module(tmp_path):
    pq.write_table(pa.table({"id": ["a"]}), tmp_path / "t.parquet")
    script = (
        "import sys\nfrom argrank.core.parquet_file import read_parquet\n"
        f"assert read_parquet({str(tmp_path / 't.parquet')!r}).num_rows == 1\n"
        "print('pyarrow.dataset' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
