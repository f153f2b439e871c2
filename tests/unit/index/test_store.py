"""The index's own CSR container against scipy's: the same matrix, the same row sums, empty rows included."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyarrow as pa
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from argrank.index.build import build_index
from argrank.index.store import Postings, save_index

DENSE = st.integers(1, 6).flatmap(
    lambda columns: st.lists(st.lists(st.integers(0, 3), min_size=columns, max_size=columns), min_size=0, max_size=8)
)


def postings_of(dense: list[list[int]]) -> Postings:
    columns = len(dense[0]) if dense else 1
    matrix = sp.csr_matrix(np.array(dense, dtype=np.int32).reshape(len(dense), columns))
    return Postings(matrix.indptr, matrix.indices, matrix.data, matrix.shape)


@settings(max_examples=200, deadline=None)
@given(DENSE)
def test_postings_are_the_matrix_they_hold_and_sum_its_rows(dense):
    postings = postings_of(dense)
    expected = np.array(dense, dtype=np.int64).reshape(postings.shape)
    np.testing.assert_array_equal(postings.matrix().toarray(), expected)
    assert postings.row_sums().dtype == np.int64
    np.testing.assert_array_equal(postings.row_sums(), expected.sum(axis=1))
    assert postings.nnz == np.count_nonzero(expected)


def test_the_matrix_shares_the_arrays():
    postings = postings_of([[0, 2], [1, 0]])
    postings.matrix().data[0] = 7
    assert postings.data[0] == 7


def test_loading_an_index_imports_no_scipy(tmp_path):
    """Why the container exists: a ranking process, or a graph with nothing to do, starts without scipy."""
    table = pa.table({"id": ["b", "a"], "tokens": [["x", "y"], ["x"]]})
    save_index(build_index(table["id"], table["tokens"]), tmp_path / "index")
    code = (
        "import sys\n"
        "from argrank.index.store import load_index\n"
        f"index = load_index({str(tmp_path / 'index')!r})\n"
        "assert index.collection_frequencies.tolist() == [2, 1]\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy'))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
