"""A table's column as one Arrow array without a copy where it is one already.

`ChunkedArray.combine_chunks()` copies even a column of one chunk; a column mapped from its file (an index's
document ids and terms) would be read into memory again by every process that ranks.
"""

from __future__ import annotations

import pyarrow as pa


def one_array(column: pa.ChunkedArray | pa.Array) -> pa.Array:
    """The column as one array: its only chunk as it is (in a mapped file, still there), several combined."""
    if isinstance(column, pa.Array):
        return column
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()
