"""The images track's part of the experiment report: a run's PRO and CON images per topic as thumbnails, each with
its judgments."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from argrank.formats.runfile import read_run
from argrank.reporting.html import text
from argrank.tracks.images.collection import collection_root
from argrank.tracks.images.qrels import STANCES, read_image_qrels

THUMBS = "thumbs"
THUMB_SIZE = (160, 120)


def images_section(corpus: Path, qrels: Path, published: Path, tag: str, folder: Path, files: list[str]) -> str:
    """Run `tag`'s PRO and CON images per topic, judged by `qrels`; thumbnails into `folder`, named on `files`."""
    judgments = read_image_qrels(qrels)
    images = collection_root(corpus) / "images"
    lists: dict[str, dict[str, list[tuple[int, str]]]] = {}
    for line in read_run(published / f"{tag}.txt"):
        lists.setdefault(line.qid, {}).setdefault(line.q0, []).append((line.rank, line.doc))
    legend = "Green: on topic and judged for the stance it is listed under; red: judged off topic; plain: other."
    html = [f"<h3>{text(tag)}: its images</h3>", f'<p class="note">{legend}</p>']
    for topic in sorted(lists, key=lambda t: (len(t), t)):
        for stance in STANCES:
            figures = []
            for _, image in sorted(lists[topic].get(stance, [])):
                labels = judgments.get(topic, {}).get(image)
                name = f"{THUMBS}/{image}.jpg"
                if name not in files:  # an image listed for several topics is drawn once
                    _thumbnail(images / image[:3] / image / "image.webp", folder / name)
                    files.append(name)
                kind = "" if not labels else "offtopic" if labels.get("ONTOPIC") == 0 else (
                    "onstance" if labels.get("ONTOPIC") == 1 and labels.get(stance) == 1 else "")  # fmt: skip
                said = ", ".join(f"{k} {v}" for k, v in sorted(labels.items())) if labels else "unjudged"
                figures.append(
                    f'<figure class="{kind}"><img src="{text(name)}" alt="{text(image)}">'
                    f"<figcaption>{text(image)}<br>{text(said)}</figcaption></figure>"
                )
            html.append(f'<h4>topic {text(topic)}, {stance}</h4><div class="thumbs">{"".join(figures)}</div>')
    return "".join(html)


def _thumbnail(source: Path, target: Path) -> None:
    with Image.open(source) as image:
        small = image.convert("RGB")
        small.thumbnail(THUMB_SIZE)
        target.parent.mkdir(parents=True, exist_ok=True)
        small.save(target, format="JPEG", quality=80)
