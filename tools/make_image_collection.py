"""Write the embedded image collection (data/images/) in the real Touché image-retrieval layout.

Everything here was written for this project: the drawings are made with Pillow from simple shapes,
the web pages, captions and search queries are our own English, and the judgments were assigned by
hand as the pages were written. What to draw and write is data: tools/specs/images/ holds each topic's
texts, sites and images with their judgments and pages (tools/specs/README.md); the package
tools/image_collection/ reads it, draws the images and builds the pages. Run from the repository root:

    PYTHONPATH=. .venv/bin/python -m tools.make_image_collection [--out DIR]

The output is deterministic: every random choice comes from a generator seeded with a hash of the
image's name, WebP and PNG are written with fixed settings and nothing depends on the clock, so a
second run writes byte-identical files (with the same Pillow, libwebp and FreeType; the text on the
images uses Pillow's built-in font, so no system font is needed). The script checks its own output
before it finishes and exits with status 1 if a check fails: every XPath resolves to the image's node
under lxml (except the one that deliberately does not), every image found by a topic's query is judged
for that topic, and only the near-duplicate pairs the spec names (`near`) are fewer than
MIN_DISTINCT_BITS apart. data/images/README.md describes the data.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import io
import json
import random
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import lxml.html
import numpy as np
from PIL import Image

from argrank.tracks.images.phash import collection_phash, format_phash, hamming
from tools.image_collection import charts, scenes
from tools.image_collection.pages import build_page, image_url, pick_queries
from tools.image_collection.spec import Collection, Spec, load

DATA = Path(__file__).resolve().parent.parent / "data" / "images"
WEBP_METHOD = 6
# Drawings made from the same template (two bar charts, two cartoons) can hash alike. Each image takes the
# first layout variant (colours, orientation, which side the title or the balloon is on) whose hash is at
# least this many bits from every image written before it; only the deliberate near-duplicate pairs
# are closer.
MIN_DISTINCT_BITS = 16
MAX_VARIANTS = 60
NEAR_BITS = 6  # a deliberate near-duplicate pair is at most this many bits apart

# Each kind of image, the function that draws it: f(rng, w, h, **params).
KINDS = {
    "protest": scenes.draw_protest, "poster": charts.draw_poster, "bar": charts.draw_barchart,
    "line": charts.draw_linechart, "info": charts.draw_infographic, "proscons": charts.draw_proscons,
    "balance": charts.draw_balance, "checklist": charts.draw_checklist, "timetable": charts.draw_timetable,
    "forecast": charts.draw_forecast, "nocar": charts.draw_nocar, "calendar": charts.draw_calendar,
    "map": charts.draw_zone_map, "cartoon": scenes.draw_cartoon, "photo": scenes.draw_photo,
}  # fmt: skip


# --------------------------------------------------------------------------------------------------
# ids and randomness


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def image_id(name: str) -> str:
    return "I" + _digest("argrank-images/image/" + name)[:16]


def page_id(name: str) -> str:
    return "P" + _digest("argrank-images/page/" + name)[:16]


def rng_for(name: str) -> random.Random:
    return random.Random(int(_digest("argrank-images/seed/" + name)[:16], 16))


# --------------------------------------------------------------------------------------------------
# images


def render(spec_: Spec, variant: int) -> Image.Image:
    rng = rng_for(spec_.name if variant == 0 else f"{spec_.name}/variant/{variant}")
    w, h = spec_.size
    return KINDS[spec_.kind](rng, w, h, **spec_.params).convert("RGB")


def stored_hash(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as im:
        return collection_phash(im)


def encode(im: Image.Image, spec_: Spec) -> bytes:
    buf = io.BytesIO()
    if spec_.fmt == "png":
        im.quantize(colors=24, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
            buf, "PNG", optimize=True)
    else:
        im.save(buf, "WEBP", quality=spec_.quality, method=WEBP_METHOD)
    return buf.getvalue()


def draw(spec_: Spec, drawn: dict[str, Image.Image], hashes: dict[str, int]) -> tuple[Image.Image, bytes, int, str]:
    """The image, its file's bytes and their hash, and a problem ("" if none): a derived image resized from the
    drawing it derives from, any other one the first layout variant far enough from the images drawn before."""
    if spec_.derive:  # the same drawing as another image, resized and recompressed
        base_name, _scale = spec_.derive
        im = drawn[base_name].resize(spec_.size, Image.Resampling.LANCZOS)
        data = encode(im, spec_)
        return im, data, stored_hash(data), ""
    best = None
    others = [hashes[n] for n in hashes if n not in spec_.near]
    for variant in range(MAX_VARIANTS):
        im = render(spec_, variant)
        data = encode(im, spec_)
        value = stored_hash(data)
        gap = int(hamming(np.array(others, dtype=np.uint64), value).min()) if others else 64
        if best is None or gap > best[0]:
            best = (gap, im, data, value)
        if gap >= MIN_DISTINCT_BITS:
            break
    gap, im, data, value = best
    problem = ""
    if gap < MIN_DISTINCT_BITS:
        problem = f"{spec_.name}: no layout variant at least {MIN_DISTINCT_BITS} bits from the others (best {gap})"
    return im, data, value, problem


# --------------------------------------------------------------------------------------------------
# pages


@dataclass
class PageFiles:
    """One page of an image: its id, its files (path under pages/<id>/ -> text), the image URL it uses, its XPaths
    with the nodes they should reach, and the topics whose queries found the image there."""

    page_id: str
    files: dict[str, str]
    image_url: str
    xpaths: list[str]
    targets: list[tuple[str, str]]
    topics: set[int]


def page_files(collection: Collection, spec_: Spec, k: int, first_url: str | None) -> PageFiles:
    """The k-th page of the image; `first_url`, the image's URL on its first page, is its URL on the later ones."""
    pg = spec_.pages[k]
    site = collection.sites[pg.site]
    rng = rng_for(f"{spec_.name}/page/{k}")
    img_url = image_url(site, spec_, pg, rng)  # drawn on every page, so that each page's rng goes on the same way
    if first_url is not None:
        img_url = first_url
    url = f"https://{site['domain']}/{pg.slug}"
    dom, text, xpaths, targets = build_page(collection, spec_, pg, img_url, url, rng)
    queries = pick_queries(collection, spec_, pg, rng) + list(pg.extra)
    lines = [json.dumps({"query": q, "topic": str(t), "rank": rng.randint(1, 100)}, ensure_ascii=False,
                        separators=(",", ":")) for q, t in queries]
    files = {
        "page-url.txt": url,
        "rankings.jsonl": "\n".join(lines) + "\n",
        "snapshot/dom.html": dom,
        "snapshot/text.txt": text,
        "snapshot/image-xpath.txt": "\n".join(xpaths) + "\n",
    }
    return PageFiles(page_id(f"{spec_.name}/{k}"), files, img_url, xpaths, targets, {t for _, t in queries})


def xpath_problems(name: str, dom: Path, xpaths: list[str], targets: list[tuple[str, str]]) -> list[str]:
    """Check every XPath the way the pipeline reads it: lowercased, under lxml, on the written file."""
    problems = []
    tree = lxml.html.parse(str(dom))
    for xp, (kind, expected) in zip(xpaths, targets):
        found = tree.xpath(xp.lower())
        if kind == "missing":
            if found:
                problems.append(f"{name}: deliberate broken XPath resolves: {xp}")
            continue
        if len(found) != 1:
            problems.append(f"{name}: {xp} -> {len(found)} nodes")
            continue
        node = found[0]
        value = node.get("src") if kind == "img" else node.get("content")
        if node.tag != kind or value != expected or (kind == "meta" and node.get("property") != "og:image"):
            problems.append(f"{name}: {xp} -> <{node.tag}> {value}")
    return problems


# --------------------------------------------------------------------------------------------------
# topics and judgments


def topics_xml(collection: Collection) -> str:
    out = ["<topics>"]
    for number in (*collection.test_topics, *collection.training_topics):
        t = collection.topics[number]
        out += ["<topic>", f"<number>{number}</number>", f"<title>{html.escape(t['title'], quote=False)}</title>"]
        for part in ("description", "narrative"):
            if part in t:
                out += [f"<{part}>", html.escape(t[part], quote=False), f"</{part}>"]
        out.append("</topic>")
    out.append("</topics>")
    return "\n".join(out) + "\n"


Judgments = dict[tuple[int, str], tuple[int, ...]]  # (topic, image id) -> labels


def judgments(collection: Collection) -> tuple[Judgments, Judgments]:
    """The judgments of the test topics, (ONTOPIC, PRO, CON), and of the training topics, (PRO, CON), from each
    image's label for its own topic and its cross judgments for others."""
    qrels: Judgments = {}
    training: Judgments = {}
    for s in collection.images:
        iid = image_id(s.name)
        if s.topic in collection.test_topics:
            qrels[(s.topic, iid)] = s.label
        else:
            training[(s.topic, iid)] = (s.label[1], s.label[2])
        for other, label in s.cross.items():
            (qrels if other in collection.test_topics else training)[(other, iid)] = label
    return qrels, training


def qrels_text(qrels: Judgments) -> str:
    """qrels.qrels: `topic ASPECT imageId 0|1`, sorted by topic and image id."""
    return "".join(f"{t} {aspect} {iid} {value}\n"
                   for (t, iid), label in sorted(qrels.items())
                   for aspect, value in zip(("ONTOPIC", "PRO", "CON"), label))


def training_text(training: Judgments) -> str:
    """training-qrels.txt: `topic PRO|CON imageId 0|1`, sorted by topic and image id."""
    return "".join(f"{t} {stance} {iid} {rating}\n"
                   for (t, iid), (pro, con) in sorted(training.items())
                   for stance, rating in (("PRO", pro), ("CON", con)))


def near_duplicate_problems(collection: Collection, hashes: dict[str, int]) -> list[str]:
    """Print the pairs closer than MIN_DISTINCT_BITS; problems if one is not a `near` pair of the spec, or a `near`
    pair is more than NEAR_BITS apart."""
    expected = {(other, s.name) for s in collection.images for other in s.near}
    names = list(hashes)
    arr = np.array([hashes[n] for n in names], dtype=np.uint64)
    close, problems = [], []
    for i, name in enumerate(names):
        dist = hamming(arr[i + 1 :], hashes[name])
        for j in np.nonzero(dist < MIN_DISTINCT_BITS)[0]:
            close.append((name, names[i + 1 + j], int(dist[j])))
    for a, b, dist in close:
        print(f"near-duplicate: {a} {b} hamming {dist}")
        if (a, b) not in expected:
            problems.append(f"unexpected near-duplicate {a} {b} ({dist} bits)")
    for a, b in expected:
        if not any((x, y) == (a, b) and dist <= NEAR_BITS for x, y, dist in close):
            problems.append(f"near-duplicate pair {a} {b} too far apart")
    return problems


# --------------------------------------------------------------------------------------------------
# writing


def write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DATA, help=f"folder of collection/ and qrels.qrels ({DATA})")
    out = parser.parse_args(argv).out
    collection = load()
    ids = {s.name: image_id(s.name) for s in collection.images}
    assert len(set(ids.values())) == len(ids)

    root = out / "collection"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)

    hashes: dict[str, int] = {}
    problems: list[str] = []
    page_ids: set[str] = set()
    drawn: dict[str, Image.Image] = {}
    for s in collection.images:
        folder = root / "images" / ids[s.name][:3] / ids[s.name]
        im, data, value, problem = draw(s, drawn, hashes)
        if problem:
            problems.append(problem)
        drawn[s.name] = im
        assert im.size == tuple(s.size), (s.name, im.size)
        write(folder / "image.webp", data)
        hashes[s.name] = value
        write(folder / "image-phash.txt", format_phash(value) + "\n")

        topics_seen: set[int] = set()
        url_of_image = None
        for k in range(len(s.pages)):
            page = page_files(collection, s, k, url_of_image)
            url_of_image = page.image_url
            assert page.page_id not in page_ids
            page_ids.add(page.page_id)
            for name, text in page.files.items():
                write(folder / "pages" / page.page_id / name, text)
            topics_seen |= page.topics
            dom = folder / "pages" / page.page_id / "snapshot" / "dom.html"
            problems += xpath_problems(s.name, dom, page.xpaths, page.targets)
        write(folder / "image-url.txt", url_of_image)
        for other in sorted(topics_seen - {s.topic}):
            if other not in s.cross:
                problems.append(f"{s.name}: found by topic {other} but not judged for it")

    qrels, training = judgments(collection)
    write(root / "topics.xml", topics_xml(collection))
    write(root / "training-qrels.txt", training_text(training))
    write(out / "qrels.qrels", qrels_text(qrels))
    problems += near_duplicate_problems(collection, hashes)

    print(f"{len(collection.images)} images, {len(page_ids)} pages, {len(qrels)} judged (topic, image) pairs in "
          f"qrels.qrels, {len(training)} in training-qrels.txt")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
