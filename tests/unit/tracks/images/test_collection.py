"""Image-collection ingest: the real 50-image sample as published, and synthetic collections for each policy:
undecodable images skipped and reported, missing hashes computed the collection's way, damaged metadata named,
strays ignored."""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from PIL import Image

from argrank.core.errors import InputError
from argrank.core.table_writer import EXAMPLES
from argrank.tracks.images.collection import SCHEMA, ingest_images
from argrank.tracks.images.location import collection_digest, collection_root
from argrank.tracks.images.phash import collection_phash, parse_phash

SAMPLE = "image-retrieval/sample-collection"
PHASH = "01" * 32
PAGE_ID = "P00000000000000a1"
DOM = (
    "<html><head><title>Votes</title></head>"
    "<body><h2>Turnout</h2><p>Young people vote <img alt='Graph'></p></body></html>"
)
XPATH = "/HTML[1]/BODY[1]/P[1]/IMG[1]"


def picture(kind: str = "WEBP", size: tuple[int, int] = (40, 30)) -> bytes:
    buffer = io.BytesIO()
    Image.linear_gradient("L").resize(size).convert("RGB").save(buffer, kind)
    return buffer.getvalue()


def ranking(query: str, topic: str | int = "48", rank: int = 1) -> str:
    return json.dumps({"query": query, "topic": topic, "rank": rank})


def add_image(
    root: Path,
    image_id: str,
    data: bytes | None = None,
    phash: str | None = PHASH,
    url: str = " https://example.org/i.png \n",
    pages: dict[str, dict] | None = None,
) -> Path:
    """An image folder in the collection's layout; `pages` maps page ids to files (url, rankings, text, dom, xpaths)."""
    folder = root / "images" / image_id[:3] / image_id
    folder.mkdir(parents=True)
    if data is not None:
        (folder / "image.webp").write_bytes(data)
    if phash is not None:
        (folder / "image-phash.txt").write_text(phash + "\n")
    (folder / "image-url.txt").write_text(url)
    for page_id, files in (pages or {}).items():
        page = folder / "pages" / page_id
        (page / "snapshot").mkdir(parents=True)
        (page / "page-url.txt").write_text(files.get("url", f"https://example.org/{page_id}\n"))
        (page / "rankings.jsonl").write_text("".join(line + "\n" for line in files.get("rankings", [])))
        for name in ("text", "dom", "xpaths"):
            if name in files:
                suffix = {"text": "text.txt", "dom": "dom.html", "xpaths": "image-xpath.txt"}[name]
                (page / "snapshot" / suffix).write_text(files[name])
    return folder


def one_page(**files) -> dict[str, dict]:
    return {PAGE_ID: {"rankings": [ranking("lower voting age")], **files}}


def read(path: Path) -> list[dict]:
    return pq.read_table(path).to_pylist()


@pytest.fixture(scope="module")
def sample(shared_data, tmp_path_factory):
    out = tmp_path_factory.mktemp("images") / "images.parquet"
    stats = ingest_images(shared_data / SAMPLE, out)
    return shared_data / SAMPLE, out, stats, {row["id"]: row for row in read(out)}


def test_real_sample_all_images_in_sorted_order(sample):
    root, out, stats, rows = sample
    assert (stats.rows, stats.unreadable, stats.computed_hashes, stats.duplicates) == (50, 0, 0, 0)
    assert pq.read_schema(out).equals(SCHEMA)
    ids = sorted(path.name for path in (root / "images").glob("I??/I*"))
    assert list(rows) == ids and len(ids) == 50
    for image_id, row in rows.items():
        bits = (root / "images" / image_id[:3] / image_id / "image-phash.txt").read_text().strip()
        assert row["phash"] == int(bits, 2)
        assert row["queries"] and row["rankings"] and row["page_urls"] and row["context"]


def test_real_sample_png_under_webp_name_keeps_its_true_format_and_size(sample):
    rows = sample[3]
    assert {image_id for image_id, row in rows.items() if row["format"] != "WEBP"} == {"Ibaa25a9245a3cd96"}
    png = rows["Ibaa25a9245a3cd96"]
    assert (png["format"], png["width"], png["height"]) == ("PNG", 1024, 1284)


def test_real_sample_known_image(sample):
    row = sample[3]["I0c02739ff554ca9c"]
    assert row["rankings"] == [{"topic": "48", "query": "lower voting age stats", "rank": 68}]
    assert row["queries"] == "lower voting age stats"
    assert row["url"].startswith("https://electionsanddemocracy.ca/sites/default/files/styles/landscape/")
    assert row["page_urls"] == ["https://electionsanddemocracy.ca/canadas-elections/youth-voting-trends"]
    context = row["context"].split("\n")
    assert context[:3] == [
        "A line graph showing voter turnout from 1970 to 2019",
        "Youth Voter Trends - EN Graph",
        "Trends in Overall Voter Turnout",
    ]
    assert "voter turnout for youth (aged 18 to 24)" in row["context"]
    assert row["page_text"].startswith("Skip to main content\nUtility menu")


def test_real_sample_meta_node_image_gets_title_and_open_graph_text(sample):
    context = sample[3]["I11f32c6af7d50a3e"]["context"].split("\n")
    assert context[0] == "Italy's ruling parties call for lowering voting age to 16 | Reuters"
    assert "Italy's ruling parties call for lowering voting age to 16" in context
    assert any(line.startswith("Italy's coalition parties said on Monday") for line in context)


def test_real_sample_image_lxml_misnests_under_source_still_gets_its_caption(sample):
    context = sample[3]["I46fc855a162cbd98"]["context"].split("\n")
    assert context[0] == "Most Americans think ex-convicts, upon release, should be allowed to vote."


def test_real_sample_queries_are_distinct_in_first_seen_order(sample):
    for row in sample[3].values():
        queries = [ranking["query"] for ranking in row["rankings"]]
        assert row["queries"].split("\n") == list(dict.fromkeys(queries))


def test_real_sample_hashes_are_reproduced_to_the_bit(sample):
    root = sample[0]
    for folder in sorted((root / "images").glob("I??/I*")):
        with Image.open(folder / "image.webp") as image:  # one of them PNG data, two with alpha
            assert collection_phash(image) == parse_phash((folder / "image-phash.txt").read_text()), folder.name


def test_real_sample_with_half_its_hash_files_removed_gets_the_same_hashes(sample, tmp_path):
    """Computed hashes are the shipped ones, so a collection missing some never mixes kinds of hash."""
    root, _, _, rows = sample
    for number, folder in enumerate(sorted((root / "images").glob("I??/I*"))):
        copy = tmp_path / "images" / folder.parent.name / folder.name
        copy.mkdir(parents=True)
        shutil.copyfile(folder / "image.webp", copy / "image.webp")
        if number % 2:
            shutil.copyfile(folder / "image-phash.txt", copy / "image-phash.txt")
    stats = ingest_images(tmp_path, tmp_path / "out.parquet")
    assert (stats.rows, stats.computed_hashes) == (50, 25)
    assert {row["id"]: row["phash"] for row in read(tmp_path / "out.parquet")} == {
        image_id: row["phash"] for image_id, row in rows.items()
    }


def test_real_sample_ingest_is_byte_identical(sample, tmp_path):
    root, out, _, _ = sample
    ingest_images(root, tmp_path / "again.parquet")
    assert (tmp_path / "again.parquet").read_bytes() == out.read_bytes()


def test_synthetic_rows_join_pages_in_order(tmp_path):
    pages = {
        "P000000000000000b": {
            "url": "https://b.example/\n",
            "rankings": [ranking("q2", "07", 3), ranking("q1", 48, 9)],  # topics made canonical: "7", "48"
            "text": "Second page.\n",
        },
        "P000000000000000a": {
            "url": "https://a.example/\n",
            "rankings": [ranking("q1", "48", 2), "", ranking("q2", "48", 5)],
            "text": "First page\n",
            "dom": DOM,
            "xpaths": XPATH + "\n/HTML[1]/BODY[1]/P[9]\n",
        },
    }
    add_image(tmp_path, "I0b00000000000001", picture("PNG", (20, 10)), pages=pages)
    add_image(tmp_path, "I0a00000000000002", picture(), url="")
    stats = ingest_images(tmp_path, tmp_path / "out.parquet", batch_size=1)
    assert stats.rows == 2
    bare, full = read(tmp_path / "out.parquet")
    assert bare == {
        "id": "I0a00000000000002", "phash": int(PHASH, 2), "width": 40, "height": 30, "format": "WEBP", "url": "",
        "page_urls": [], "context": "", "queries": "", "page_text": "", "rankings": [],
    }  # no text at all, still a row
    assert (full["format"], full["width"], full["height"]) == ("PNG", 20, 10)
    assert full["url"] == "https://example.org/i.png"
    assert full["page_urls"] == ["https://a.example/", "https://b.example/"]
    assert full["rankings"] == [
        {"topic": "48", "query": "q1", "rank": 2},
        {"topic": "48", "query": "q2", "rank": 5},
        {"topic": "7", "query": "q2", "rank": 3},
        {"topic": "48", "query": "q1", "rank": 9},
    ]
    assert full["queries"] == "q1\nq2"
    assert full["page_text"] == "First page\nSecond page."
    assert full["context"] == "Graph\nTurnout\nYoung people vote"


def test_unreadable_images_are_skipped_counted_and_logged(tmp_path, caplog):
    """Bad bytes, a truncated file, none, a link to nothing and a FIFO (which would block the decoder)."""
    good = picture("PNG", (64, 64))
    add_image(tmp_path, "I0a00000000000001", good, pages=one_page())
    add_image(tmp_path, "I0a00000000000002", b"not an image at all", pages=one_page())
    add_image(tmp_path, "I0a00000000000003", good[: len(good) // 2], pages=one_page())
    add_image(tmp_path, "I0a00000000000004", None, pages=one_page())
    (add_image(tmp_path, "I0a00000000000005", None) / "image.webp").symlink_to(tmp_path / "gone.webp")
    os.mkfifo(add_image(tmp_path, "I0a00000000000006", None) / "image.webp")
    assert collection_digest(tmp_path)  # the link's own size and time, where its target's cannot be read
    with caplog.at_level(logging.INFO, logger="argrank.tracks.images.collection"):
        stats = ingest_images(tmp_path, tmp_path / "out.parquet")
    skipped = [f"I0a0000000000000{i}" for i in range(2, 7)]
    assert (stats.rows, stats.unreadable, stats.unreadable_ids) == (1, 5, skipped[:EXAMPLES])
    assert [row["id"] for row in read(tmp_path / "out.parquet")] == ["I0a00000000000001"]
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    image = tmp_path / "images" / "I0a"
    assert warnings[0].startswith(f"skipped image {image / skipped[0] / 'image.webp'}: cannot identify")
    assert warnings[1] == f"skipped image {image / skipped[1] / 'image.webp'}: image file is truncated"
    assert warnings[2] == f"skipped image {image / skipped[2] / 'image.webp'}: cannot read: No such file or directory"
    assert warnings[3] == f"skipped image {image / skipped[3] / 'image.webp'}: cannot read: a link to nothing"
    assert warnings[4].startswith(f"skipped image {image / skipped[4] / 'image.webp'}: a FIFO, not a regular file")
    assert warnings[5] == (
        f"ingested 1 images from {tmp_path}; skipped 5 unreadable (e.g. {', '.join(skipped[:EXAMPLES])}) and 0 "
        "links outside the collection; computed 0 missing perceptual hashes"
    )
    assert len(warnings) == 6


def test_links_that_lead_outside_the_collection_are_skipped_counted_and_never_read(tmp_path, caplog):
    """A page text linked to a system file, an image linked to a file outside, an image folder linked outside:
    none of them read, ingested or published; a link that stays inside is followed."""
    collection, outside = tmp_path / "collection", tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.txt").write_text("the secret text\n")
    (outside / "picture.webp").write_bytes(picture())
    folder = add_image(collection, "I0a00000000000001", picture(), pages=one_page(text="visible text\n"))
    text = folder / "pages" / PAGE_ID / "snapshot" / "text.txt"
    text.unlink()
    text.symlink_to(outside / "secret.txt")
    (add_image(collection, "I0a00000000000002", None) / "image.webp").symlink_to(outside / "picture.webp")
    stray = add_image(outside, "I0b00000000000003", picture(), pages=one_page(text="stray folder\n"))
    (collection / "images" / "I0b").mkdir()
    (collection / "images" / "I0b" / "I0b00000000000003").symlink_to(stray)
    kept = add_image(collection, "I0c00000000000004", None)
    (kept / "image.webp").symlink_to(folder / "image.webp")  # inside the collection: followed
    with caplog.at_level(logging.WARNING, logger="argrank.tracks.images.collection"):
        stats = ingest_images(collection, tmp_path / "out.parquet")
    rows = {row["id"]: row for row in read(tmp_path / "out.parquet")}
    assert sorted(rows) == ["I0a00000000000001", "I0c00000000000004"] and stats.outside == 3
    assert rows["I0a00000000000001"]["page_text"] == ""  # the linked text was never read
    assert "secret" not in str(rows) and "stray" not in str(rows)
    warned = [record.getMessage() for record in caplog.records]
    assert sum(message.startswith("skipped ") and "outside the collection" in message for message in warned) == 3


def test_missing_phash_file_is_computed_from_the_image(tmp_path, caplog):
    data = picture("WEBP", (50, 50))
    folder = add_image(tmp_path, "I0a00000000000001", data, phash=None)
    with caplog.at_level(logging.INFO, logger="argrank.tracks.images.collection"):
        stats = ingest_images(tmp_path, tmp_path / "out.parquet")
    with Image.open(io.BytesIO(data)) as image:
        expected = collection_phash(image)
    assert stats.computed_hashes == 1
    assert read(tmp_path / "out.parquet")[0]["phash"] == expected
    assert expected & 1 == 0  # the collection's hashes all end in 0
    assert f"computed the perceptual hash of {folder / 'image.webp'}: no image-phash.txt" in caplog.messages


@pytest.mark.parametrize(
    "line, where, problem",
    [
        ('{"query": "q", "topic": "48", "rank": 3', "line 2, column 40", "malformed JSON"),
        ('["q", "48", 3]', "line 2", "not a JSON object"),
        ('{"query": "q", "rank": 3}', "line 2", "missing 'topic'"),
        ('{"query": "q", "topic": "48", "rank": "3"}', "line 2", "rank '3' is not an integer"),
        ('{"query": "q", "topic": "48", "rank": 3.5}', "line 2", "rank 3.5 is not an integer"),
        ('{"query": "q", "topic": "48", "rank": true}', "line 2", "rank True is not an integer"),
        ('{"query": "q", "topic": "48", "rank": -1}', "line 2", "rank -1 is out of range"),
        ('{"query": 5, "topic": "48", "rank": 1}', "line 2", "query 5 is not a string"),
        ('{"query": "q", "topic": null, "rank": 1}', "line 2", "topic None is not a string"),
    ],
    ids=["bad-json", "array", "no-topic", "rank-text", "rank-float", "rank-bool", "rank-negative", "query", "topic"],
)
def test_malformed_ranking_line_names_file_and_line(tmp_path, line, where, problem):
    folder = add_image(tmp_path, "I0a00000000000001", picture(), pages=one_page())
    rankings = folder / "pages" / PAGE_ID / "rankings.jsonl"
    rankings.write_text(ranking("fine") + "\n" + line + "\n")
    with pytest.raises(InputError) as caught:
        ingest_images(tmp_path, tmp_path / "out.parquet")
    assert (caught.value.path, caught.value.where) == (str(rankings), where)
    assert caught.value.problem.startswith(problem)


def test_malformed_phash_and_bad_metadata_bytes_are_input_errors(tmp_path):
    folder = add_image(tmp_path, "I0a00000000000001", picture(), phash="0101", pages=one_page())
    with pytest.raises(InputError) as caught:
        ingest_images(tmp_path, tmp_path / "out.parquet")
    assert caught.value.path == str(folder / "image-phash.txt")
    assert caught.value.problem.startswith("not a perceptual hash: expected 64 characters 0 or 1")
    (folder / "image-phash.txt").write_text(PHASH)
    (folder / "pages" / PAGE_ID / "page-url.txt").write_bytes(b"https://example.org/\ncaf\xe9\n")
    with pytest.raises(InputError, match=r"page-url.txt: line 2: not valid UTF-8 \(byte 0xe9\)"):
        ingest_images(tmp_path, tmp_path / "out.parquet")


def test_crawled_text_with_bad_bytes_is_read_leniently_and_pages_may_lack_snapshots(tmp_path):
    folder = add_image(tmp_path, "I0a00000000000001", picture(), pages=one_page(text="x", dom=DOM, xpaths=XPATH))
    snapshot = folder / "pages" / PAGE_ID / "snapshot"
    (snapshot / "text.txt").write_bytes(b"caf\xe9 au lait")
    (snapshot / "dom.html").write_bytes(DOM.replace("Young", "Caf\xe9").encode("latin-1"))
    add_image(tmp_path, "I0a00000000000002", picture(), pages={PAGE_ID: {}})
    shutil.rmtree(tmp_path / "images" / "I0a" / "I0a00000000000002" / "pages" / PAGE_ID / "snapshot")
    ingest_images(tmp_path, tmp_path / "out.parquet")
    first, second = read(tmp_path / "out.parquet")
    assert first["page_text"] == "caf\ufffd au lait"
    assert first["context"] == "Graph\nTurnout\nCaf\ufffd people vote"
    assert (second["context"], second["page_text"], second["page_urls"]) == ("", "", [f"https://example.org/{PAGE_ID}"])


def test_stray_entries_are_ignored_with_a_warning(tmp_path, caplog):
    add_image(tmp_path, "I0a00000000000001", picture(), pages=one_page())
    images = tmp_path / "images"
    (images / ".DS_Store").write_bytes(b"\0\1")
    (images / "notes.txt").write_text("hello")
    (images / "Ixyz").mkdir()
    (images / "I0a" / ".DS_Store").write_bytes(b"\0")
    (images / "I0a" / "I0a00000000000001.bak").mkdir()
    (images / "I0a" / "I0a00000000000001" / "pages" / "thumbs.db").write_text("x")
    with caplog.at_level(logging.WARNING, logger="argrank.tracks.images.collection"):
        stats = ingest_images(tmp_path, tmp_path / "out.parquet")
    assert stats.rows == 1 and stats.unreadable == 0
    assert caplog.messages == [  # hidden files skipped silently; the rest named as met, in sorted order
        f"skipped {images / 'I0a' / 'I0a00000000000001' / 'pages' / 'thumbs.db'}: not a folder named P + 16 hex digits",
        f"skipped {images / 'I0a' / 'I0a00000000000001.bak'}: not a folder named I + 16 hex digits",
        f"skipped {images / 'Ixyz'}: not a folder named I + 2 hex digits",
        f"skipped {images / 'notes.txt'}: not a folder named I + 2 hex digits",
    ]


def test_same_id_in_two_shards_keeps_the_first(tmp_path):
    add_image(tmp_path, "I0a00000000000001", picture("PNG"))
    misplaced = tmp_path / "images" / "I0b" / "I0a00000000000001"
    shutil.copytree(tmp_path / "images" / "I0a" / "I0a00000000000001", misplaced)
    (misplaced / "image.webp").write_bytes(picture("WEBP"))
    stats = ingest_images(tmp_path, tmp_path / "out.parquet")
    assert (stats.rows, stats.duplicates, stats.duplicate_ids) == (1, 1, ["I0a00000000000001"])
    assert read(tmp_path / "out.parquet")[0]["format"] == "PNG"


def test_not_a_collection_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no images/ folder"):
        ingest_images(tmp_path, tmp_path / "out.parquet")
    with pytest.raises(InputError, match="nope: folder not found"):
        collection_root(tmp_path / "nope")
    assert not (tmp_path / "out.parquet").exists()


def test_failed_ingest_leaves_no_output(tmp_path):
    add_image(tmp_path, "I0a00000000000001", picture(), pages=one_page())
    add_image(tmp_path, "I0a00000000000002", picture(), pages=one_page(rankings=["{broken"]))
    out = tmp_path / "out" / "images.parquet"
    with pytest.raises(InputError, match="I0a00000000000002"):
        ingest_images(tmp_path, out, batch_size=1)  # the first image's batch was already written
    assert list(out.parent.iterdir()) == []


def test_digest_follows_paths_sizes_and_mtimes_not_location(tmp_path):
    root = tmp_path / "a"
    folder = add_image(root, "I0a00000000000001", picture(), pages=one_page(text="text"))
    before = collection_digest(root)
    shutil.copytree(root, tmp_path / "b")  # copy2 keeps modification times
    assert collection_digest(tmp_path / "b") == before
    text = folder / "pages" / PAGE_ID / "snapshot" / "text.txt"
    text.write_text("longer text")
    changed = collection_digest(root)
    assert changed != before
    (root / "images" / "I0a" / "I0a00000000000001" / "extra.txt").write_text("")
    assert collection_digest(root) not in (before, changed)
