"""arrow_kernels: pyarrow.compute's own callers and options, and its functions' results, without its import."""

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given
from hypothesis import strategies as st

from argrank.core import arrow_kernels
from argrank.core.arrow_kernels import RankOptions, SortOptions, cast, index_in, kernel, take

short_texts = st.lists(st.text(alphabet="abc\u00e9", max_size=3) | st.none(), max_size=30)


def test_the_options_classes_and_the_caller_are_pyarrow_computes_own():
    for name in arrow_kernels.__all__:
        if name[0].isupper():
            assert getattr(arrow_kernels, name) is getattr(pc, name), name
    assert arrow_kernels.call_function is pc.call_function


@given(values=short_texts, value_set=st.lists(st.text(alphabet="abc\u00e9", max_size=3), unique=True, max_size=10))
def test_index_in_is_pyarrow_computes_with_the_missing_filled_in(values, value_set):
    values, value_set = pa.array(values, pa.string()), pa.array(value_set, pa.string())
    found = index_in(values, value_set, missing=-1)
    assert found.type == pa.int32() and found.null_count == 0
    assert found.equals(pc.index_in(values, value_set=value_set).fill_null(-1))


@given(values=st.lists(st.floats(allow_nan=False) | st.integers(-(2**31), 2**31 - 1), max_size=20))
def test_cast_is_pyarrow_computes_checked_cast(values):
    floats = pa.array([float(v) for v in values], pa.float64())
    assert cast(floats, pa.string()).equals(pc.cast(floats, pa.string()))
    whole = pa.array([int(v) for v in values if float(v).is_integer() and abs(v) < 2**31], pa.int64())
    assert cast(whole, pa.int32()).equals(pc.cast(whole, pa.int32()))


def test_cast_refuses_a_value_that_does_not_fit():
    with pytest.raises(pa.ArrowInvalid):
        cast(pa.array([1.5]), pa.int32())
    with pytest.raises(pa.ArrowInvalid):
        cast(pa.array([2**40]), pa.int32())


@given(values=short_texts, picks=st.lists(st.integers(0, 29), max_size=40))
def test_take_is_the_methods_take_for_arrays_and_tables(values, picks):
    array = pa.array(values, pa.string())
    indices = pa.array([i for i in picks if i < len(values)], pa.int64())
    assert take(array, indices).equals(array.take(indices))
    table = pa.table({"text": array, "row": pa.array(range(len(values)), pa.int64())})
    assert take(table, indices).equals(table.take(indices))


@given(values=short_texts)
def test_kernel_passes_its_options_or_the_functions_defaults(values):
    array = pa.array(values, pa.string())
    assert kernel("unique", array).equals(pc.unique(array))
    assert kernel("dictionary_encode", array).equals(pc.dictionary_encode(array))
    dense = RankOptions("ascending", tiebreaker="dense")
    assert kernel("rank", array, options=dense).equals(pc.rank(array, sort_keys="ascending", tiebreaker="dense"))
    table = pa.table({"text": array, "row": pa.array(range(len(values)), pa.int64())})
    keys = [("text", "descending"), ("row", "ascending")]
    assert kernel("sort_indices", table, options=SortOptions(keys)).equals(pc.sort_indices(table, sort_keys=keys))
    separator = pa.scalar("|", pa.string())
    joined = kernel("binary_join_element_wise", array, array, separator)
    assert joined.equals(pc.binary_join_element_wise(array, array, separator))
