"""Reading a few documents' texts from an ingested table by id."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq

from argrank.core.document_texts import texts_by_id


def test_texts_by_id_reads_only_the_wanted_documents_across_batches(tmp_path):
    ids = [f"d{i:03d}" for i in range(250)]
    pq.write_table(pa.table({"id": ids, "contents": [f"text {i}" for i in range(250)]}), tmp_path / "docs.parquet")
    assert texts_by_id(tmp_path / "docs.parquet", {"d007", "d199", "missing"}, "contents", batch_size=16) == {
        "d007": "text 7",
        "d199": "text 199",
    }
