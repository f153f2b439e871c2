"""tracks/images/report.py: each run's images as thumbnails framed by their judgments, one file per image."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PIL import Image

from argrank.core.errors import InputError
from argrank.formats.runfile import RunLine, write_run
from argrank.tracks.images.report import THUMB_SIZE, THUMBS, images_section

COLLECTION = Path(__file__).resolve().parents[4] / "data" / "images" / "collection"
ON = "I1b7a3b6947f0c2a6"  # judged on topic, PRO and not CON for topics 1 and 2, below
OFF = "I00257f28f0415133"  # judged off topic
OTHER = "I9cb3b780008d59cf"  # not judged for topic 1
QRELS = "".join(
    f"{topic} {aspect} {image} {label}\n"
    for topic, image, labels in (("1", ON, (1, 1, 0)), ("2", ON, (1, 1, 0)), ("1", OFF, (0, 0, 0)))
    for aspect, label in zip(("ONTOPIC", "PRO", "CON"), labels)
)


@pytest.fixture
def folders(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS, encoding="utf-8")
    (tmp_path / "published").mkdir()
    (tmp_path / "report").mkdir()
    return tmp_path / "qrels.txt", tmp_path / "published", tmp_path / "report"


def _run(published: Path, tag: str, listed: list[tuple[str, str, str, int]]) -> None:
    """Run `tag`: (topic, stance, image, rank) each."""
    write_run(published / f"{tag}.txt", [RunLine(q, s, image, rank, 100.0 - rank, tag) for q, s, image, rank in listed])


def _figures(html: str) -> list[tuple[str, str, str]]:
    """(class, image, caption) of every figure in order."""
    found = re.findall(r'<figure class="([^"]*)"><img src="[^"]*" alt="([^"]*)"><figcaption>[^<]*<br>([^<]*)<', html)
    return [(kind, image, said) for kind, image, said in found]


def test_each_image_is_framed_by_what_its_judgments_say_under_the_stance_it_is_listed(folders):
    qrels, published, report = folders
    _run(published, "r", [("1", "PRO", OFF, 2), ("1", "PRO", ON, 1), ("1", "CON", OTHER, 1), ("2", "CON", ON, 1)])
    files: list[str] = []
    html = images_section(COLLECTION, qrels, published, ["r"], report, files)
    assert _figures(html) == [
        ("onstance", ON, "CON 0, ONTOPIC 1, PRO 1"),  # topic 1 PRO, rank 1: on topic and PRO
        ("offtopic", OFF, "CON 0, ONTOPIC 0, PRO 0"),  # topic 1 PRO, rank 2
        ("", OTHER, "unjudged"),  # topic 1 CON
        ("", ON, "CON 0, ONTOPIC 1, PRO 1"),  # topic 2 CON: on topic, but not CON
    ]
    assert html.index("<h4>topic 1, PRO</h4>") < html.index("<h4>topic 1, CON</h4>") < html.index("topic 2, PRO")
    assert "<summary>r: 4 images</summary>" in html


def test_an_image_gets_one_thumbnail_file_whatever_lists_it_and_it_fits_the_thumbnail_size(folders):
    qrels, published, report = folders
    _run(published, "a", [("1", "PRO", ON, 1), ("2", "CON", ON, 1)])
    _run(published, "b", [("3", "PRO", ON, 1), ("3", "CON", OTHER, 1)])
    files: list[str] = []
    html = images_section(COLLECTION, qrels, published, ["a", "b"], report, files)
    assert files == [f"{THUMBS}/{ON}.jpg", f"{THUMBS}/{OTHER}.jpg"]
    assert sorted(path.name for path in (report / THUMBS).iterdir()) == sorted([f"{ON}.jpg", f"{OTHER}.jpg"])
    for name in files:
        with Image.open(report / name) as thumbnail:
            assert thumbnail.format == "JPEG" and thumbnail.mode == "RGB"
            assert thumbnail.width <= THUMB_SIZE[0] and thumbnail.height <= THUMB_SIZE[1]
            assert thumbnail.width == THUMB_SIZE[0] or thumbnail.height == THUMB_SIZE[1]  # scaled down to touch it
    assert html.count(f'src="{THUMBS}/{ON}.jpg"') == 3


def test_a_thumbnail_already_on_the_files_list_is_not_written_again(folders):
    qrels, published, report = folders
    _run(published, "r", [("1", "PRO", ON, 1)])
    files = [f"{THUMBS}/{ON}.jpg"]
    html = images_section(COLLECTION, qrels, published, ["r"], report, files)
    assert files == [f"{THUMBS}/{ON}.jpg"] and not (report / THUMBS).exists()
    assert f'src="{THUMBS}/{ON}.jpg"' in html


def test_only_the_first_run_is_open_and_topics_come_in_numeric_order_images_in_rank_order(folders):
    qrels, published, report = folders
    _run(published, "first", [("10", "PRO", OTHER, 1), ("2", "PRO", OFF, 2), ("2", "PRO", ON, 1)])
    _run(published, "second", [("1", "CON", ON, 1)])
    html = images_section(COLLECTION, qrels, published, ["first", "second"], report, [])
    assert html.count("<details open>") == 1 and html.count("<details>") == 1
    assert html.index("<details open><summary>first: 3 images</summary>") < html.index("<summary>second: 1 images")
    first = html[: html.index("<details><summary>second")]
    assert first.index("<h4>topic 2, PRO</h4>") < first.index("<h4>topic 10, PRO</h4>")
    assert first.index(f'alt="{ON}"') < first.index(f'alt="{OFF}"')  # rank 1 before rank 2
    assert "<h4>topic 2, CON</h4>" in first  # each topic shows both stances, an empty one too


def test_a_tag_with_markup_is_escaped_and_a_corpus_that_is_no_collection_is_an_input_error(folders, tmp_path):
    qrels, published, report = folders
    _run(published, "a<b", [("1", "PRO", ON, 1)])
    html = images_section(COLLECTION, qrels, published, ["a<b"], report, [])
    assert "<summary>a&lt;b: 1 images</summary>" in html
    with pytest.raises(InputError, match="no images/ folder"):
        images_section(tmp_path, qrels, published, ["a<b"], report, [])


def test_an_image_linked_outside_the_collection_is_never_published_as_a_thumbnail(folders, tmp_path):
    qrels, published, report = folders
    collection = tmp_path / "collection"
    shutil.copytree(COLLECTION, collection)
    secret = tmp_path / "private.webp"
    shutil.copy(collection / "images" / ON[:3] / ON / "image.webp", secret)
    linked = collection / "images" / ON[:3] / ON / "image.webp"
    linked.unlink()
    linked.symlink_to(secret)
    _run(published, "r", [("1", "PRO", ON, 1), ("1", "PRO", OFF, 2)])
    files: list[str] = []
    html = images_section(collection, qrels, published, ["r"], report, files)
    assert files == [f"{THUMBS}/{OFF}.jpg"] and not (report / THUMBS / f"{ON}.jpg").exists()
    assert f"{ON}<br>not shown: a link outside the collection" in html
