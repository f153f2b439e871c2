"""The image collection's specification, read from the YAML files in tools/specs/images/.

topic-<n>.yaml holds one topic (title, texts, queries), the web sites its pages are on and its images with their
judgments and pages, in drawing order; pages.yaml holds what all pages share (cookie banners, bylines, headlines).
`load` reads them into a `Collection` and checks them, so that a misspelt key, an unknown site or label, or a name
used twice fails here and not as a quietly different collection. tools/specs/README.md describes the format.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

SPECS = Path(__file__).resolve().parent.parent / "specs" / "images"
WEBP_QUALITY = 70
# An image's judgment for a topic, (ONTOPIC, PRO, CON), by the name the spec files use.
LABELS = {"pro": (1, 1, 0), "con": (1, 0, 1), "both": (1, 1, 1), "on-topic": (1, 0, 0), "off-topic": (0, 0, 0)}
# The keys of the files' entries: required, optional.
TOPIC_KEYS = {"number", "split", "title", "pro", "con", "neu"}, {"description", "narrative"}
SITE_KEYS = {"domain", "name", "layout", "nav", "footer"}, {"cookie", "section"}
IMAGE_KEYS = {"name", "label", "kind", "size", "params", "pages"}, {"fmt", "quality", "derive", "near", "cross"}
PAGE_KEYS = {"site", "slug", "h1", "alt", "before", "after"}, {"caption", "xmode", "empty_text", "queries", "extra"}
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class Page:
    """A web page an image is on: the site, the text before and after the image, how the page's XPath file finds the
    image, and the queries that found it."""

    site: str
    slug: str
    h1: str
    before: list  # paragraphs (str) and tagged items, see _item
    after: list
    alt: str | None  # None: the img has no alt attribute; "": an empty alt
    caption: str | None = None
    xmode: str = "img"  # img: body <img>; both: <img> and og:image; meta: og:image only; broken: see README
    empty_text: bool = False
    queries: list | None = None  # (query, topic); None: picked from the topic's queries by the stance
    extra: list = field(default_factory=list)  # queries of other topics that also found the image


@dataclass
class Spec:
    """An image: how it is drawn (kind, size and the drawing function's params), its judgments and its pages."""

    name: str
    topic: int
    label: tuple  # (ONTOPIC, PRO, CON) for the image's own topic
    kind: str
    size: tuple
    params: dict
    pages: list
    fmt: str = "webp"  # "png": PNG data saved as image.webp
    quality: int = WEBP_QUALITY
    derive: tuple | None = None  # (name of another image, scale): the same drawing, resized
    near: tuple = ()  # images this one may be a near-duplicate of
    cross: dict = field(default_factory=dict)  # other topic -> (ONTOPIC, PRO, CON), or (PRO, CON) for training


@dataclass(frozen=True)
class Collection:
    """Everything the generator draws and writes, as the spec files give it."""

    topics: dict[int, dict]  # number -> title, description and narrative (test topics only), pro, con, neu queries
    test_topics: tuple[int, ...]
    training_topics: tuple[int, ...]
    sites: dict[str, dict]
    images: list[Spec]
    cookie_banners: list[tuple[str, list[str]]]
    authors: list[str]
    months: list[str]
    headlines: list[str]


def load(folder: Path = SPECS) -> Collection:
    """The collection of folder/topic-*.yaml (by topic number) and folder/pages.yaml; ValueError if it is not valid."""
    shared = _read(folder / "pages.yaml")
    _keys(folder / "pages.yaml", shared, {"cookie_banners", "authors", "months", "headlines"})
    files = sorted(((path, _read(path)) for path in folder.glob("topic-*.yaml")), key=lambda f: f[1]["topic"]["number"])
    if not files:
        raise ValueError(f"{folder}: no topic-*.yaml")
    topics: dict[int, dict] = {}
    splits: dict[int, str] = {}
    sites: dict[str, dict] = {}
    entries = []
    for path, data in files:
        _keys(path, data, {"topic", "sites", "images"})
        topic = dict(data["topic"])
        _keys(path, topic, *TOPIC_KEYS)
        number, split = topic.pop("number"), topic.pop("split")
        if number in topics or split not in ("test", "training"):
            raise ValueError(f"{path}: topic {number} is there twice, or its split {split!r} is not test or training")
        topics[number], splits[number] = topic, split
        for name, site in data["sites"].items():
            _keys(f"{path}: site {name}", site, *SITE_KEYS)
            if name in sites:
                raise ValueError(f"{path}: site {name} is also in another topic's file")
            sites[name] = site
        entries += [(path, number, entry) for entry in data["images"]]
    training = tuple(number for number in topics if splits[number] == "training")
    images = [_spec(path, number, entry, training) for path, number, entry in entries]
    _check_references(images, sites, len(shared["cookie_banners"]))
    return Collection(
        topics=topics,
        test_topics=tuple(number for number in topics if splits[number] == "test"),
        training_topics=training,
        sites=sites,
        images=images,
        cookie_banners=[(banner["text"], banner["buttons"]) for banner in shared["cookie_banners"]],
        authors=shared["authors"],
        months=shared["months"],
        headlines=shared["headlines"],
    )


def _read(path: Path) -> dict:
    with open(path, encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_YAML_LOADER)


def _keys(where: object, mapping: dict, required: set[str], optional: Iterable[str] = ()) -> None:
    missing, unknown = required - set(mapping), set(mapping) - required - set(optional)
    if missing or unknown:
        raise ValueError(f"{where}: missing keys {sorted(missing)}, unknown keys {sorted(unknown)}")


def _label(name: object) -> tuple[int, int, int]:
    if name not in LABELS:  # YAML reads an unquoted yes, no, on or off as a boolean
        raise ValueError(f"label {name!r} is not one of {', '.join(LABELS)}")
    return LABELS[name]


def _spec(path: Path, topic: int, entry: dict, training: tuple[int, ...]) -> Spec:
    """An image entry as a Spec: names of labels as tuples, a cross judgment for a training topic as (PRO, CON)."""
    fields = dict(entry)
    try:
        _keys("keys", fields, *IMAGE_KEYS)
        cross = {}
        for other, name in fields.pop("cross", {}).items():
            cross[other] = _label(name)[1:] if other in training else _label(name)
        derive = fields.pop("derive", None)
        return Spec(
            topic=topic,
            label=_label(fields.pop("label")),
            size=tuple(fields.pop("size")),
            pages=[_page(page) for page in fields.pop("pages")],
            derive=tuple(derive) if derive else None,
            near=tuple(fields.pop("near", ())),
            cross=cross,
            **fields,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{path}: image {entry.get('name')!r}: {error}") from None


def _page(entry: dict) -> Page:
    fields = dict(entry)
    _keys(f"page {entry.get('slug')!r}", fields, *PAGE_KEYS)
    for key in ("queries", "extra"):
        if key in fields:
            fields[key] = [tuple(query) for query in fields[key]]
    before, after = fields.pop("before"), fields.pop("after")
    return Page(before=[_item(item) for item in before], after=[_item(item) for item in after], **fields)


def _item(item: str | dict) -> str | tuple:
    """A paragraph, or a tagged item as the page builder takes it: ("h2" | "h3" | "quote", text), ("li", [texts])
    or ("comment" | "reply", user, text), from the files' {h2: text}, {li: [texts]} or {comment: user, text: text}."""
    if isinstance(item, str):
        return item
    (tag, value), *rest = item.items()
    if tag in ("comment", "reply") and [key for key, _ in rest] == ["text"]:
        return tag, value, item["text"]
    if tag in ("h2", "h3", "quote", "li") and not rest:
        return tag, value
    raise ValueError(f"not a paragraph or a tagged item: {item!r}")


def _check_references(images: list[Spec], sites: dict[str, dict], banners: int) -> None:
    """Names are unique; pages name known sites; derive and near name images drawn before; cookies pick a banner."""
    seen: set[str] = set()
    for spec in images:
        if spec.name in seen:
            raise ValueError(f"image {spec.name} is there twice")
        for other in (*spec.near, *(spec.derive or ())[:1]):
            if other not in seen:
                raise ValueError(f"image {spec.name} refers to {other}, which is not drawn before it")
        for page in spec.pages:
            if page.site not in sites:
                raise ValueError(f"image {spec.name}: a page is on the unknown site {page.site}")
        seen.add(spec.name)
    for name, site in sites.items():
        if not 0 <= site.get("cookie", 0) < banners:
            raise ValueError(f"site {name}: cookie {site['cookie']} is not a banner of pages.yaml")
