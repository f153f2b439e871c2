"""The image collection's spec files (tools/specs/images/) load and are checked, and the generator still builds from
them what data/images/ holds: the judgments, topics.xml and every page's files. No image is drawn here, so no
Pillow or libwebp version enters; `python -m tools.make_image_collection --out DIR` and `diff -r` check the images."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from tools.image_collection.spec import LABELS, SPECS, load
from tools.make_image_collection import image_id, judgments, page_files, qrels_text, topics_xml, training_text

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "data" / "images"


@pytest.fixture(scope="module")
def collection():
    return load()


def test_the_spec_files_load_into_the_collection_the_readme_describes(collection):
    assert len(collection.images) == 95
    assert len({s.name for s in collection.images}) == 95
    assert collection.test_topics == (1, 2, 3, 4) and collection.training_topics == (5, 6)
    assert Counter(s.topic for s in collection.images) == {1: 17, 2: 16, 3: 15, 4: 17, 5: 16, 6: 14}
    assert {s.label for s in collection.images} <= set(LABELS.values())
    pages = [page for s in collection.images for page in s.pages]
    assert len(pages) == 96 and len(collection.sites) == 66
    layouts = Counter(collection.sites[page.site]["layout"] for page in pages)
    assert layouts == {"news": 22, "blog": 20, "campaign": 15, "explainer": 14, "shop": 13, "gov": 5, "forum": 4,
                       "petition": 3}  # fmt: skip
    assert Counter(page.xmode for page in pages) == {"img": 74, "both": 14, "meta": 7, "broken": 1}
    comments = [item for page in pages for item in page.after if isinstance(item, tuple) and item[0] == "comment"]
    assert comments and all(len(item) == 3 for item in comments)


def test_judgments_and_topics_are_those_in_data_images(collection):
    qrels, training = judgments(collection)
    assert len(qrels) == 69 and len(training) == 31
    assert qrels_text(qrels).encode() == (DATA / "qrels.qrels").read_bytes()
    assert training_text(training).encode() == (DATA / "collection" / "training-qrels.txt").read_bytes()
    assert topics_xml(collection).encode() == (DATA / "collection" / "topics.xml").read_bytes()


def test_every_page_is_built_as_data_images_holds_it(collection):
    written = 0
    for image in collection.images:
        folder = DATA / "collection" / "images" / image_id(image.name)[:3] / image_id(image.name)
        first_url = None
        for k in range(len(image.pages)):
            page = page_files(collection, image, k, first_url)
            first_url = page.image_url
            for name, text in page.files.items():
                assert text.encode() == (folder / "pages" / page.page_id / name).read_bytes(), (image.name, k, name)
                written += 1
        assert (folder / "image-url.txt").read_text(encoding="utf-8") == first_url
    assert written == 5 * 96


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("    alt: ", "    alt_text: ", "missing keys ['alt'], unknown keys ['alt_text']"),
        ("    label: pro\n", "    label: yes\n", "label True is not one of pro, con"),
        ("      - site: greenstreets\n", "      - site: nowhere\n", "unknown site nowhere"),
        ("  - name: t1-pro-no2-chart\n", "  - name: t1-pro-protest\n", "t1-pro-protest is there twice"),
    ],
)
def test_a_wrong_spec_file_fails_to_load(tmp_path, old, new, message):
    folder = tmp_path / "images"
    shutil.copytree(SPECS, folder)
    path = folder / "topic-1.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load(folder)
