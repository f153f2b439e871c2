"""The text an image's stance is read from: what its pages say right around it, and the searches that found it.

The whole page text helps find an image but not read its stance: a page argues many things, mostly far from the
image, and on crawled pages much of it is navigation and cookie banners.
"""

from __future__ import annotations

from pathlib import Path

from argrank.core.document_texts import texts_by_id

STANCE_FIELDS = ("context", "queries")


def stance_texts(table_path: str | Path, ids: set[str]) -> dict[str, str]:
    """image → its STANCE_FIELDS joined by newlines, for the images in `ids` that the ingested table holds."""
    parts = [texts_by_id(table_path, ids, field) for field in STANCE_FIELDS]
    return {image: "\n".join(part[image] or "" for part in parts) for image in parts[0]}
