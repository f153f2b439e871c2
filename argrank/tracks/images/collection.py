"""Streaming ingest of the Touché image-retrieval collection: one Parquet row per image.

Layout: `images/I<2 hex>/I<16 hex>/` per image with `image.webp`, `image-phash.txt`, `image-url.txt` and
`pages/P<16 hex>/` per page showing it (`page-url.txt`, `rankings.jsonl`, `snapshot/text.txt`, `dom.html`,
`image-xpath.txt`). The full collection holds about 56,000 images and MB-size DOMs, so images are read one at
a time, in sorted folder order (the same input gives a byte-identical table), and written in batches.

Policies:
- an image Pillow cannot decode (missing, unknown format, truncated) is skipped with a warning and counted:
  it could be neither shown nor hashed, and one bad crawl must not stop a long ingest;
- an entry whose name does not fit the layout (.DS_Store, a backup copy) is skipped with a warning, not an
  InputError: it holds no image the collection names, so the images it sits beside are still whole;
- the small machine-written files (hashes, URLs, rankings, XPaths) must be exact UTF-8 and well formed, else
  InputError names the file and line: a damaged one means the copy of the collection is damaged; crawled page
  text and DOMs are decoded leniently, as crawled pages are messy;
- an image without any text is kept (no blank-text policy): its rankings can still find it;
- nothing outside the collection is read: a link (folder, image or page file) that leads outside it is skipped
  with a warning and counted, as an unreadable image is;
- an image without `image-phash.txt` gets the hash computed the collection's way (`phash.collection_phash`,
  the shipped values to the bit), so hashes of one origin and the other can be compared.
"""

from __future__ import annotations

import logging
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Iterator

import lxml.html
import pyarrow as pa
from lxml import etree
from PIL import Image

from argrank.core.errors import InputError
from argrank.core.input_file import check_regular
from argrank.core.records import read_utf8
from argrank.core.table_writer import EXAMPLES, IngestStats, write_rows
from argrank.formats.json_value import parse_json
from argrank.tracks.images.dom_context import context_text
from argrank.tracks.images.location import collection_root
from argrank.tracks.images.phash import collection_phash, parse_phash

log = logging.getLogger(__name__)

IMAGE_FILE = "image.webp"  # the name only: a few hold other formats, which Pillow detects from the bytes
RANKING = pa.struct([("topic", pa.string()), ("query", pa.string()), ("rank", pa.int32())])
SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("phash", pa.uint64()),
        ("width", pa.int32()),
        ("height", pa.int32()),
        ("format", pa.string()),
        ("url", pa.string()),
        ("page_urls", pa.list_(pa.string())),
        ("context", pa.string()),
        ("queries", pa.string()),
        ("page_text", pa.string()),
        ("rankings", pa.list_(RANKING)),
    ]
)

_SHARD = re.compile(r"I[0-9a-f]{2}")
_IMAGE = re.compile(r"I[0-9a-f]{16}")
_PAGE = re.compile(r"P[0-9a-f]{16}")
_RANKING_KEYS = ("query", "topic", "rank")
_INT32_MAX = 2**31 - 1
_HTML = lxml.html.HTMLParser(encoding="utf-8", huge_tree=True)  # text is decoded (leniently) before parsing


@dataclass
class ImageIngestStats(IngestStats):
    """IngestStats plus the images skipped as unreadable (the first few ids as examples) and the hashes computed
    because image-phash.txt was missing."""

    unreadable: int = 0
    unreadable_ids: list[str] = field(default_factory=list)
    computed_hashes: int = 0
    outside: int = 0  # links that lead outside the collection, skipped


def ingest_images(location: str | Path, out_path: str | Path, batch_size: int = 500) -> ImageIngestStats:
    """Write every readable image of the collection at `location` to Parquet at `out_path` (SCHEMA).

    Of images sharing an id the first wins (`table_writer`); one summary line is logged at the end.
    """
    root = collection_root(location)
    counts = ImageIngestStats()
    walk = _Walk((root / "images").resolve(), counts)  # the images folder may itself lead elsewhere (a big disk)
    written = write_rows(_rows(root, walk), SCHEMA, out_path, None, "images", root, batch_size=batch_size)
    stats = replace(counts, **asdict(written))
    examples = f" (e.g. {', '.join(stats.unreadable_ids)})" if stats.unreadable else ""
    log.log(
        logging.WARNING if stats.unreadable or stats.outside else logging.INFO,
        "ingested %d images from %s; skipped %d unreadable%s and %d links outside the collection; computed %d "
        "missing perceptual hashes",
        stats.rows,
        root,
        stats.unreadable,
        examples,
        stats.outside,
        stats.computed_hashes,
    )
    return stats


@dataclass
class _Walk:
    """The collection's images folder, resolved, and the counts, while its folders are walked."""

    root: Path
    counts: ImageIngestStats

    def inside(self, path: Path) -> bool:
        """False (warned and counted) for a link that leads outside the collection (a link to nothing is left to
        the readers, which report it). Every folder on the way was checked when it was entered, so only the entry
        itself can be such a link."""
        if path.is_symlink() and path.exists() and not path.resolve().is_relative_to(self.root):
            log.warning("skipped %s: a link to %s, outside the collection", path, path.resolve())
            self.counts.outside += 1
            return False
        return True


def _rows(root: Path, walk: _Walk) -> Iterator[tuple]:
    for shard in _folders(root / "images", _SHARD, "I + 2 hex digits", walk):
        for folder in _folders(shard, _IMAGE, "I + 16 hex digits", walk):
            row = _image_row(folder, walk)
            if row is not None:
                yield row


def _folders(parent: Path | None, name: re.Pattern[str], expected: str, walk: _Walk) -> Iterator[Path]:
    """Sub-folders of `parent` named like `name`, sorted; others are skipped with a warning (hidden ones silently),
    and so are links outside the collection."""
    if parent is None or not parent.is_dir():
        return
    for path in sorted(parent.iterdir()):
        if path.is_dir() and name.fullmatch(path.name):
            if walk.inside(path):
                yield path
        elif not path.name.startswith("."):
            log.warning("skipped %s: not a folder named %s", path, expected)


def _image_row(folder: Path, walk: _Walk) -> tuple | None:
    """One row in SCHEMA's order, or None (counted, logged) where the image cannot be decoded or leads outside."""
    counts = walk.counts
    stored = _stored_phash(_within(folder / "image-phash.txt", walk))
    path = folder / IMAGE_FILE
    if not walk.inside(path):
        return None
    try:
        check_regular(path)  # a FIFO would block the decoder; a link to nothing is one more unreadable image
        image_format, width, height, computed = _decode(path, stored is None)
    except (OSError, Image.DecompressionBombError, InputError) as error:  # UnidentifiedImageError is an OSError
        reason = error.problem if isinstance(error, InputError) else getattr(error, "strerror", None) or error
        log.warning("skipped image %s: %s", path, reason)
        counts.unreadable += 1
        if len(counts.unreadable_ids) < EXAMPLES:
            counts.unreadable_ids.append(folder.name)
        return None
    if stored is None:
        log.info("computed the perceptual hash of %s: no image-phash.txt", path)
        counts.computed_hashes += 1
    page_urls, contexts, texts, rankings = [], [], [], []
    pages = _within(folder / "pages", walk)
    for page in _folders(pages, _PAGE, "P + 16 hex digits", walk):
        snapshot = _within(page / "snapshot", walk)
        page_urls.append(_read_line(_within(page / "page-url.txt", walk)))
        rankings.extend(_read_rankings(_within(page / "rankings.jsonl", walk)))
        texts.append(_read_lenient(_within(snapshot and snapshot / "text.txt", walk)).strip())
        contexts.append(_page_context(snapshot, walk))
    context = _distinct(line for text in contexts for line in text.split("\n"))
    queries = _distinct(ranking["query"] for ranking in rankings)
    return (
        folder.name,
        stored if stored is not None else computed,
        width,
        height,
        image_format,
        _read_line(_within(folder / "image-url.txt", walk)),
        [url for url in page_urls if url],
        "\n".join(context),
        "\n".join(queries),
        "\n".join(text for text in texts if text),
        rankings,
    )


def _decode(path: Path, compute_hash: bool) -> tuple[str, int, int, int | None]:
    """Format, width, height and (if asked) the collection's hash; decodes every pixel, so a truncated file fails."""
    with Image.open(path) as image:
        image.load()
        return image.format, image.width, image.height, collection_phash(image) if compute_hash else None


def _stored_phash(path: Path | None) -> int | None:
    """The collection's hash of the image, None if the file is missing; InputError if it is malformed."""
    if path is None or not path.is_file():
        return None
    try:
        return parse_phash(read_utf8(path))
    except ValueError as error:
        raise InputError(path, "", f"not a perceptual hash: {error}") from None


def _read_line(path: Path | None) -> str:
    """A one-value metadata file, stripped; "" if missing."""
    return read_utf8(path).strip() if path is not None and path.is_file() else ""


def _read_lenient(path: Path | None) -> str:
    """Crawled text, bad bytes replaced; "" if missing."""
    if path is None or not path.is_file():
        return ""
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError as error:
        raise InputError(path, "", f"cannot read: {error.strerror}") from None


def _within(path: Path | None, walk: _Walk) -> Path | None:
    """`path`, or None (read as a missing file or folder) where it, or the folder it is in, is None or a link
    outside the collection (warned and counted)."""
    return path if path is not None and walk.inside(path) else None


def _page_context(snapshot: Path | None, walk: _Walk) -> str:
    """What the page's DOM says about the image (`dom_context`); "" without a DOM, XPaths or any markup."""
    if snapshot is None:
        return ""
    xpath_file, dom_file = _within(snapshot / "image-xpath.txt", walk), _within(snapshot / "dom.html", walk)
    if xpath_file is None or dom_file is None or not (xpath_file.is_file() and dom_file.is_file()):
        return ""
    xpaths = read_utf8(xpath_file).splitlines()
    try:
        dom = lxml.html.document_fromstring(_read_lenient(dom_file).encode("utf-8"), parser=_HTML)
    except etree.ParserError:  # nothing but white space or comments
        return ""
    return context_text(dom, xpaths)


def _read_rankings(path: Path | None) -> list[dict[str, Any]]:
    """Every ranking line of a page, in order; [] if the file is missing."""
    if path is None or not path.is_file():
        return []
    lines = enumerate(read_utf8(path).split("\n"), start=1)
    return [_ranking(_parse_json(line, path, number), path, number) for number, line in lines if line.strip()]


def _parse_json(line: str, path: Path, number: int) -> Any:
    return parse_json(line, path, f"line {number}")


def _ranking(value: Any, path: Path, number: int) -> dict[str, Any]:
    """{"topic", "query", "rank"} checked: query a string, topic a string (or integer), rank a 32-bit integer ≥ 0."""

    def bad(problem: str) -> InputError:
        return InputError(path, f"line {number}", problem)

    if not isinstance(value, dict):
        raise bad("not a JSON object")
    missing = [key for key in _RANKING_KEYS if key not in value]
    if missing:
        raise bad(f"missing {', '.join(repr(key) for key in missing)}")
    query, topic, rank = (value[key] for key in _RANKING_KEYS)
    if not isinstance(query, str):
        raise bad(f"query {query!r} is not a string")
    if isinstance(topic, bool) or not isinstance(topic, (str, int)):
        raise bad(f"topic {topic!r} is not a string")
    if isinstance(rank, bool) or not isinstance(rank, int):
        raise bad(f"rank {rank!r} is not an integer")
    if not 0 <= rank <= _INT32_MAX:
        raise bad(f"rank {rank} is out of range")
    topic = str(topic)
    # Canonical like topic numbers elsewhere ("7", not "07"), so searches match the topics file.
    return {"topic": str(int(topic)) if topic.isascii() and topic.isdigit() else topic, "query": query, "rank": rank}


def _distinct(texts: Iterable[str]) -> list[str]:
    """Non-empty texts, each once, in first-seen order."""
    return list(dict.fromkeys(text for text in texts if text))
