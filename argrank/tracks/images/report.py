"""The images track's part of the experiment report: every run's PRO and CON images per topic as thumbnails, each
with its judgments; an image several runs list is one thumbnail file."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from argrank.formats.html import text
from argrank.formats.runfile import read_run
from argrank.tracks.images.location import collection_root
from argrank.tracks.images.qrels import STANCES, read_image_qrels

THUMBS = "thumbs"
THUMB_SIZE = (160, 120)


def images_section(corpus: Path, qrels: Path, published: Path, tags: list[str], folder: Path, files: list[str]) -> str:
    """Each run's PRO and CON images per topic, judged by `qrels`, folded per run (the first open); thumbnails into
    `folder`, each image's once however many runs and topics list it, named on `files`."""
    judgments = read_image_qrels(qrels)
    images = collection_root(corpus) / "images"
    legend = "Green: on topic and judged for the stance it is listed under; red: judged off topic; plain: other."
    html = [f'<h3>The runs\' images</h3><p class="note">{legend}</p>']
    for number, tag in enumerate(tags):
        lists: dict[str, dict[str, list[tuple[int, str]]]] = {}
        for line in read_run(published / f"{tag}.txt"):
            lists.setdefault(line.qid, {}).setdefault(line.q0, []).append((line.rank, line.doc))
        shown = sum(len(listed) for by_stance in lists.values() for listed in by_stance.values())
        html.append(f'<details{" open" if number == 0 else ""}><summary>{text(tag)}: {shown} images</summary>')
        for topic in sorted(lists, key=lambda t: (len(t), t)):
            for stance in STANCES:
                figures = [
                    _figure(image, stance, judgments.get(topic, {}).get(image), images, folder, files)
                    for _, image in sorted(lists[topic].get(stance, []))
                ]
                html.append(f'<h4>topic {text(topic)}, {stance}</h4><div class="thumbs">{"".join(figures)}</div>')
        html.append("</details>")
    return "".join(html)


def _figure(image: str, stance: str, labels: dict | None, images: Path, folder: Path, files: list[str]) -> str:
    """One listed image: its thumbnail (written the first time it is shown), framed by what its judgments say."""
    name = f"{THUMBS}/{image}.jpg"
    source = images / image[:3] / image / "image.webp"
    if not source.resolve().is_relative_to(images.resolve()):  # a link outside the collection: never published
        return f'<figure><figcaption>{text(image)}<br>not shown: a link outside the collection</figcaption></figure>'
    if name not in files:
        _thumbnail(source, folder / name)
        files.append(name)
    kind = "" if not labels else "offtopic" if labels.get("ONTOPIC") == 0 else (
        "onstance" if labels.get("ONTOPIC") == 1 and labels.get(stance) == 1 else "")  # fmt: skip
    said = ", ".join(f"{k} {v}" for k, v in sorted(labels.items())) if labels else "unjudged"
    return (
        f'<figure class="{kind}"><img src="{text(name)}" alt="{text(image)}">'
        f"<figcaption>{text(image)}<br>{text(said)}</figcaption></figure>"
    )


def _thumbnail(source: Path, target: Path) -> None:
    with Image.open(source) as image:
        small = image.convert("RGB")
        small.thumbnail(THUMB_SIZE)
        target.parent.mkdir(parents=True, exist_ok=True)
        small.save(target, format="JPEG", quality=80)
