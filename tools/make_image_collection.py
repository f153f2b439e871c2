"""Write the embedded image collection (data/images/) in the real Touché image-retrieval layout.

Everything here was written for this project: the drawings are made with Pillow from simple shapes,
the web pages, captions and search queries are our own English, and the judgments were assigned by
hand as the pages were written. Run from the repository root:

    PYTHONPATH=. .venv/bin/python -m tools.make_image_collection

The output is deterministic: every random choice comes from a generator seeded with a hash of the
image's name, WebP and PNG are written with fixed settings and nothing depends on the clock, so a
second run writes byte-identical files (with the same Pillow, libwebp and FreeType; the text on the
images uses Pillow's built-in font, so no system font is needed). The script checks its own output
before it finishes and exits with status 1 if a check fails: every XPath resolves to the image's node
under lxml (except the one that deliberately does not), every image found by a topic's query is judged
for that topic, and only the two deliberate near-duplicate pairs are fewer than MIN_DISTINCT_BITS apart.
data/images/README.md describes the data.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import random
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont, ImageOps

from argrank.tracks.images.phash import collection_phash, format_phash, hamming

DATA = Path(__file__).resolve().parent.parent / "data" / "images"
COLLECTION = DATA / "collection"
QRELS = DATA / "qrels.qrels"

WEBP_QUALITY = 70
WEBP_METHOD = 6
# Drawings made from the same template (two bar charts, two cartoons) can hash alike. Each image takes the
# first layout variant (colours, orientation, which side the title or the balloon is on) whose hash is at
# least this many bits from every image written before it; only the two deliberate near-duplicate pairs
# are closer.
MIN_DISTINCT_BITS = 16
MAX_VARIANTS = 60

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
# drawing helpers (Pillow's embedded font: ASCII plus a few Latin-1 and curly quotes only)

_FONTS: dict[int, ImageFont.FreeTypeFont] = {}


def font(size: int) -> ImageFont.FreeTypeFont:
    if size not in _FONTS:
        _FONTS[size] = ImageFont.load_default(size=size)
    return _FONTS[size]


def rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return tuple(int(h[i : i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


def gradient(w: int, h: int, top: str, bottom: str) -> Image.Image:
    t = np.linspace(0.0, 1.0, h)[:, None, None]
    a, b = np.array(rgb(top), dtype=float), np.array(rgb(bottom), dtype=float)
    arr = (a * (1 - t) + b * t) * np.ones((1, w, 1))
    return Image.fromarray(arr.round().astype(np.uint8), "RGB")


def wrap(draw: ImageDraw.ImageDraw, text: str, fnt, width: float) -> list[str]:
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split()
        line = ""
        for word in words:
            trial = f"{line} {word}".strip()
            if not line or draw.textlength(trial, font=fnt) <= width:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def text_box(draw, box, text, fill="#000000", size=40, min_size=9, align="center", stroke=0,
             stroke_fill=None, valign="middle"):
    """Draw text wrapped into box, shrinking the font until it fits."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    while True:
        fnt = font(size)
        lines = wrap(draw, text, fnt, w)
        line_h = int(size * 1.18)
        widest = max(draw.textlength(line, font=fnt) for line in lines)
        if (line_h * len(lines) <= h and widest <= w) or size <= min_size:
            break
        size -= 1
    total = line_h * len(lines)
    y = y0 + {"top": 0, "middle": (h - total) // 2, "bottom": h - total}[valign]
    for line in lines:
        lw = draw.textlength(line, font=fnt)
        x = {"center": x0 + (w - lw) / 2, "left": x0, "right": x1 - lw}[align]
        draw.text((x, y), line, font=fnt, fill=fill, stroke_width=stroke, stroke_fill=stroke_fill)
        y += line_h
    return size


def arrow(draw, x, y, length, direction, colour, width=10):
    """A thick arrow whose tail is at (x, y)."""
    dx, dy = {"up": (0, -1), "down": (0, 1), "right": (1, 0), "left": (-1, 0)}[direction]
    tip = (x + dx * length, y + dy * length)
    head = width * 2.2
    base = (tip[0] - dx * head, tip[1] - dy * head)
    draw.line([(x, y), base], fill=colour, width=width)
    px, py = -dy, dx
    draw.polygon([tip, (base[0] + px * head * 0.8, base[1] + py * head * 0.8),
                  (base[0] - px * head * 0.8, base[1] - py * head * 0.8)], fill=colour)


def tick(draw, x, y, s, colour="#2e8b57"):
    draw.line([(x, y + s * 0.55), (x + s * 0.38, y + s * 0.9), (x + s, y + s * 0.1)], fill=colour,
              width=max(3, int(s / 5)))


def cross(draw, x, y, s, colour="#c0392b"):
    wdt = max(3, int(s / 5))
    draw.line([(x, y), (x + s, y + s)], fill=colour, width=wdt)
    draw.line([(x + s, y), (x, y + s)], fill=colour, width=wdt)


def person(draw, x, ground, scale, shirt, skin="#e0b590", hair="#4a3020", child=False, arms="down"):
    """A simple figure standing on `ground`, centred on x; returns the positions of its hands."""
    s = scale * (0.75 if child else 1.0)
    head_r = 11 * s
    body_h = 38 * s
    leg_h = 34 * s
    hip = ground - leg_h
    shoulder = hip - body_h
    draw.line([(x - 5 * s, hip), (x - 8 * s, ground)], fill="#333344", width=max(2, int(6 * s)))
    draw.line([(x + 5 * s, hip), (x + 8 * s, ground)], fill="#333344", width=max(2, int(6 * s)))
    draw.rounded_rectangle([x - 12 * s, shoulder, x + 12 * s, hip + 2 * s], radius=int(6 * s), fill=shirt)
    cy = shoulder - head_r - 1
    draw.ellipse([x - head_r, cy - head_r, x + head_r, cy + head_r], fill=skin)
    draw.chord([x - head_r, cy - head_r, x + head_r, cy + head_r * 0.4], 180, 360, fill=hair)
    if arms == "up":
        hands = [(x - 16 * s, shoulder - 26 * s), (x + 16 * s, shoulder - 26 * s)]
    else:
        hands = [(x - 20 * s, hip), (x + 20 * s, hip)]
    for hx, hy in hands:
        draw.line([(x - 10 * s if hx < x else x + 10 * s, shoulder + 4 * s), (hx, hy)], fill=skin,
                  width=max(2, int(5 * s)))
    return hands, cy - head_r


def placard(draw, cx, top, w, h, text, board="#ffffff", ink="#b22222", stick=40):
    draw.line([(cx, top + h), (cx, top + h + stick)], fill="#8b5a2b", width=5)
    draw.rectangle([cx - w / 2, top, cx + w / 2, top + h], fill=board, outline="#555555", width=2)
    text_box(draw, (cx - w / 2 + 6, top + 4, cx + w / 2 - 6, top + h - 4), text, fill=ink, size=40)


def balloon(draw, box, tail, text, size=28):
    x0, y0, x1, y1 = box
    draw.polygon([((x0 + x1) / 2 - 14, y1 - 8), ((x0 + x1) / 2 + 14, y1 - 8), tail], fill="#ffffff",
                 outline="#222222")
    draw.ellipse(box, fill="#ffffff", outline="#222222", width=3)
    draw.polygon([((x0 + x1) / 2 - 12, y1 - 10), ((x0 + x1) / 2 + 12, y1 - 10),
                  (tail[0] * 0.8 + (x0 + x1) / 2 * 0.2, tail[1] * 0.8 + (y1 - 10) * 0.2)], fill="#ffffff")
    pad_x, pad_y = (x1 - x0) * 0.16, (y1 - y0) * 0.2
    text_box(draw, (x0 + pad_x, y0 + pad_y, x1 - pad_x, y1 - pad_y), text, fill="#111111", size=size)


def buildings(draw, rng, w, ground, palette, min_h=60, max_h=160):
    x = -10
    while x < w:
        bw = rng.randint(50, 110)
        bh = rng.randint(min_h, max_h)
        colour = rng.choice(palette)
        draw.rectangle([x, ground - bh, x + bw, ground], fill=colour)
        for wy in range(ground - bh + 12, ground - 20, 26):
            for wx in range(x + 10, x + bw - 14, 22):
                draw.rectangle([wx, wy, wx + 10, wy + 13], fill="#f3ecd2" if rng.random() < 0.5 else "#8fa6b8")
        x += bw + rng.randint(0, 6)


def tree(draw, x, ground, s):
    draw.rectangle([x - 4 * s, ground - 40 * s, x + 4 * s, ground], fill="#6b4a2b")
    draw.ellipse([x - 24 * s, ground - 80 * s, x + 24 * s, ground - 30 * s], fill="#3f8f3a")


def car(draw, x, y, s, colour):
    draw.rounded_rectangle([x, y - 18 * s, x + 70 * s, y], radius=int(6 * s), fill=colour)
    draw.polygon([(x + 14 * s, y - 18 * s), (x + 22 * s, y - 32 * s), (x + 50 * s, y - 32 * s),
                  (x + 58 * s, y - 18 * s)], fill=colour)
    draw.polygon([(x + 20 * s, y - 19 * s), (x + 25 * s, y - 29 * s), (x + 47 * s, y - 29 * s),
                  (x + 52 * s, y - 19 * s)], fill="#cfe3f1")
    for wx in (x + 16 * s, x + 54 * s):
        draw.ellipse([wx - 8 * s, y - 8 * s, wx + 8 * s, y + 8 * s], fill="#222222")


def giraffe(draw, x, ground, s):
    body = "#d9a441"
    draw.line([(x - 18 * s, ground - 50 * s), (x - 20 * s, ground)], fill=body, width=int(5 * s) or 1)
    draw.line([(x + 18 * s, ground - 50 * s), (x + 20 * s, ground)], fill=body, width=int(5 * s) or 1)
    draw.ellipse([x - 30 * s, ground - 75 * s, x + 30 * s, ground - 45 * s], fill=body)
    draw.line([(x + 20 * s, ground - 65 * s), (x + 38 * s, ground - 140 * s)], fill=body, width=int(10 * s) or 1)
    draw.ellipse([x + 30 * s, ground - 152 * s, x + 56 * s, ground - 136 * s], fill=body)
    for dx, dy in ((-12, -62), (6, -58), (-2, -68), (16, -66)):
        draw.ellipse([x + dx * s, ground + dy * s, x + (dx + 7) * s, ground + (dy + 6) * s], fill="#8a5a1e")


def bear(draw, x, ground, s, colour="#6b4226"):
    draw.ellipse([x - 40 * s, ground - 55 * s, x + 40 * s, ground - 5 * s], fill=colour)
    draw.ellipse([x + 25 * s, ground - 70 * s, x + 60 * s, ground - 38 * s], fill=colour)
    draw.ellipse([x + 28 * s, ground - 76 * s, x + 38 * s, ground - 66 * s], fill=colour)
    for lx in (-30, -12, 10, 26):
        draw.rectangle([x + lx * s, ground - 15 * s, x + (lx + 10) * s, ground], fill=colour)


def lion(draw, x, ground, s):
    draw.ellipse([x - 45 * s, ground - 60 * s, x + 35 * s, ground - 10 * s], fill="#d89b3c")
    draw.ellipse([x + 10 * s, ground - 95 * s, x + 70 * s, ground - 35 * s], fill="#8a4f1d")
    draw.ellipse([x + 22 * s, ground - 83 * s, x + 58 * s, ground - 47 * s], fill="#e3aa4f")
    draw.ellipse([x + 31 * s, ground - 72 * s, x + 35 * s, ground - 68 * s], fill="#222222")
    draw.ellipse([x + 45 * s, ground - 72 * s, x + 49 * s, ground - 68 * s], fill="#222222")
    for lx in (-38, -20, 4, 20):
        draw.rectangle([x + lx * s, ground - 18 * s, x + (lx + 10) * s, ground], fill="#d89b3c")


def turtle(draw, x, y, s):
    draw.ellipse([x - 50 * s, y - 30 * s, x + 50 * s, y + 30 * s], fill="#4f8a3c")
    draw.ellipse([x + 42 * s, y - 14 * s, x + 72 * s, y + 10 * s], fill="#7fb069")
    for fx, fy in ((-40, -32), (30, -32), (-40, 22), (30, 22)):
        draw.ellipse([x + fx * s, y + fy * s, x + (fx + 18) * s, y + (fy + 12) * s], fill="#7fb069")


def bag(draw, x, y, s, colour="#f4f4f4"):
    draw.polygon([(x, y), (x + 30 * s, y), (x + 34 * s, y + 40 * s), (x - 4 * s, y + 40 * s)], fill=colour,
                 outline="#b0b0b0")
    draw.arc([x + 4 * s, y - 14 * s, x + 26 * s, y + 10 * s], 180, 360, fill="#b0b0b0", width=2)


def desk(draw, w, ground, colour="#a0703f"):
    draw.rectangle([w * 0.2, ground - 70, w * 0.85, ground - 58], fill=colour)
    draw.rectangle([w * 0.22, ground - 58, w * 0.25, ground], fill=colour)
    draw.rectangle([w * 0.8, ground - 58, w * 0.83, ground], fill=colour)


# --------------------------------------------------------------------------------------------------
# image kinds


def draw_protest(rng, w, h, slogan, signs=(), sky=("#8fbfe8", "#e6f2fb"), board="#ffffff",
                 ink="#b22222", children=False, palette=("#c9b79c", "#b7a58a", "#d8cbb5", "#a9b4bd")):
    im = gradient(w, h, *sky)
    d = ImageDraw.Draw(im)
    ground = int(h * 0.86)
    buildings(d, rng, w, int(h * 0.62), list(palette), 40, int(h * 0.35))
    d.rectangle([0, int(h * 0.62), w, h], fill="#9a9a94")
    shirts = ["#2f6690", "#d1495b", "#edae49", "#00798c", "#6a4c93", "#3a7d44", "#8d6a9f"]
    n = max(5, w // 70)
    xs = [int(w * (i + 0.5) / n) for i in range(n)]
    scale = h / 300
    for i, x in enumerate(xs):
        person(d, x + rng.randint(-8, 8), ground + rng.randint(-6, 10), scale * rng.uniform(0.95, 1.1),
               rng.choice(shirts), skin=rng.choice(["#e0b590", "#c68e5e", "#8d5a3b", "#f1c9a5"]),
               child=children and i % 2 == 0, arms="up")
    bw, bh = w * 0.62, h * 0.26
    top = h * 0.08
    d.line([(w / 2 - bw / 2 + 14, top + bh), (w / 2 - bw / 2 + 14, top + bh + h * 0.32)], fill="#8b5a2b", width=6)
    d.line([(w / 2 + bw / 2 - 14, top + bh), (w / 2 + bw / 2 - 14, top + bh + h * 0.32)], fill="#8b5a2b", width=6)
    d.rectangle([w / 2 - bw / 2, top, w / 2 + bw / 2, top + bh], fill=board, outline="#444444", width=3)
    text_box(d, (w / 2 - bw / 2 + 10, top + 6, w / 2 + bw / 2 - 10, top + bh - 6), slogan, fill=ink, size=60,
             stroke=1, stroke_fill=ink)
    slots = [w * 0.1, w * 0.9]
    for sx, text in zip(slots, signs):
        placard(d, sx, h * 0.3, w * 0.17, h * 0.15, text, board="#fffbe6", ink="#222222", stick=int(h * 0.14))
    return im


def draw_poster(rng, w, h, lines, bg="#ffffff", border=None, icon=None, icon_colour="#c0392b"):
    """lines: (text, relative height of its band, colour)."""
    im = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(im)
    if border:
        d.rectangle([6, 6, w - 7, h - 7], outline=border, width=10)
    y = h * 0.08
    usable = h * 0.84
    if icon:
        ih = usable * 0.3
        cx, cy, r = w / 2, y + ih / 2, ih * 0.45
        if icon == "paw":
            d.ellipse([cx - r * 0.6, cy - r * 0.1, cx + r * 0.6, cy + r * 0.9], fill=icon_colour)
            for ox, oy in ((-0.8, -0.5), (-0.3, -0.9), (0.3, -0.9), (0.8, -0.5)):
                d.ellipse([cx + ox * r - r * 0.25, cy + oy * r - r * 0.25, cx + ox * r + r * 0.25,
                           cy + oy * r + r * 0.25], fill=icon_colour)
        elif icon == "star":
            pts = []
            for k in range(10):
                rad = r if k % 2 == 0 else r * 0.45
                ang = np.pi / 2 + k * np.pi / 5
                pts.append((cx + rad * np.cos(ang), cy - rad * np.sin(ang)))
            d.polygon(pts, fill=icon_colour)
        elif icon == "bag":
            bag(d, cx - r * 0.5, cy - r * 0.5, r / 30, colour=icon_colour)
        elif icon == "ark":
            d.polygon([(cx - r, cy), (cx + r, cy), (cx + r * 0.7, cy + r * 0.6), (cx - r * 0.7, cy + r * 0.6)],
                      fill=icon_colour)
            d.rectangle([cx - r * 0.5, cy - r * 0.5, cx + r * 0.3, cy], fill="#e9d8a6")
            giraffe(d, cx + r * 0.55, cy, r / 160)
        elif icon == "sun":
            d.ellipse([cx - r * 0.6, cy - r * 0.6, cx + r * 0.6, cy + r * 0.6], fill=icon_colour)
            for k in range(8):
                ang = k * np.pi / 4
                d.line([(cx + r * 0.75 * np.cos(ang), cy + r * 0.75 * np.sin(ang)),
                        (cx + r * np.cos(ang), cy + r * np.sin(ang))], fill=icon_colour, width=4)
        elif icon == "animals":
            giraffe(d, cx - r, cy + r, r / 110)
            lion(d, cx + r * 0.2, cy + r, r / 90)
        elif icon == "scales":
            d.line([(cx, cy - r), (cx, cy + r)], fill=icon_colour, width=5)
            d.line([(cx - r, cy - r * 0.6), (cx + r, cy - r * 0.6)], fill=icon_colour, width=5)
            for sx in (cx - r, cx + r):
                d.chord([sx - r * 0.4, cy - r * 0.4, sx + r * 0.4, cy + r * 0.2], 0, 180, fill=icon_colour)
        y += ih
        usable -= ih
    total = sum(rel for _, rel, _ in lines)
    for text, rel, colour in lines:
        band = usable * rel / total
        text_box(d, (w * 0.08, y, w * 0.92, y + band), text, fill=colour, size=int(band * 0.8),
                 stroke=1 if rel >= 2 else 0, stroke_fill=colour)
        y += band
    return im


THEMES = [("#ffffff", "#222222", "#444444"), ("#eef3f8", "#1b263b", "#415a77"), ("#1b263b", "#ffffff", "#c9d6e3"),
          ("#fff8e7", "#3d2b1f", "#7f5539"), ("#2b2d42", "#edf2f4", "#8d99ae")]


def draw_barchart(rng, w, h, title, labels, values, unit="", arrow_dir=None, arrow_colour="#2e8b57",
                  bar="#4a78a8", note=None):
    bg, ink, axis = rng.choice(THEMES)
    horizontal = rng.random() < 0.4
    im = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(im)
    title_top = rng.random() < 0.7
    ty = (6, h * 0.17) if title_top else (h * 0.83, h - 6)
    text_box(d, (12, ty[0], w - 12, ty[1]), title, fill=ink, size=26)
    off = 0 if title_top else -h * 0.14
    vmax = max(values) * 1.15
    n = len(values)
    if horizontal:
        left, right, top, bottom = w * 0.26, w * (0.74 if arrow_dir else 0.92), h * 0.22 + off, h * 0.9 + off
        d.line([(left, top), (left, bottom)], fill=axis, width=2)
        slot = (bottom - top) / n
        for i, (lab, val) in enumerate(zip(labels, values)):
            y0, y1 = top + slot * i + slot * 0.15, top + slot * (i + 1) - slot * 0.15
            x1 = left + (right - left) * val / vmax
            d.rectangle([left, y0, x1, y1], fill=bar)
            text_box(d, (x1 + 4, y0, x1 + 70, y1), f"{val:g}{unit}", fill=ink, size=16, align="left")
            text_box(d, (8, y0, left - 6, y1), lab, fill=ink, size=15, align="right")
    else:
        left, right, top, bottom = w * 0.12, w * (0.78 if arrow_dir else 0.95), h * 0.24 + off, h * 0.82 + off
        d.line([(left, top), (left, bottom), (right, bottom)], fill=axis, width=2)
        slot = (right - left) / n
        for i, (lab, val) in enumerate(zip(labels, values)):
            x0 = left + slot * i + slot * 0.18
            x1 = left + slot * (i + 1) - slot * 0.18
            y0 = bottom - (bottom - top) * val / vmax
            d.rectangle([x0, y0, x1, bottom], fill=bar)
            text_box(d, (x0 - 10, y0 - 22, x1 + 10, y0 - 2), f"{val:g}{unit}", fill=ink, size=16)
            text_box(d, (left + slot * i, bottom + 4, left + slot * (i + 1), bottom + h * 0.09), lab,
                     fill=ink, size=15)
    if arrow_dir:
        ax = w * 0.88
        if arrow_dir == "up":
            arrow(d, ax, bottom - 4, (bottom - top) * 0.8, "up", arrow_colour, width=max(8, w // 40))
        else:
            arrow(d, ax, top + 4, (bottom - top) * 0.8, "down", arrow_colour, width=max(8, w // 40))
    if note:
        ny = (h * 0.91, h - 4) if title_top else (h * 0.74, h * 0.82)
        text_box(d, (12, ny[0], w - 12, ny[1]), note, fill=axis, size=13)
    return im


def draw_linechart(rng, w, h, title, labels, values, arrow_dir=None, colour="#1f77b4",
                   arrow_colour="#2e8b57", note=None):
    bg, ink, axis = rng.choice(THEMES)
    filled = rng.random() < 0.5
    im = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(im)
    text_box(d, (12, 6, w - 12, h * 0.17), title, fill=ink, size=26)
    left, right, top, bottom = w * 0.12, w * (0.8 if arrow_dir else 0.95), h * 0.24, h * 0.82
    for k in range(5):
        gy = top + (bottom - top) * k / 4
        d.line([(left, gy), (right, gy)], fill=axis, width=1)
    d.line([(left, top), (left, bottom), (right, bottom)], fill=axis, width=2)
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    lo, hi = lo - span * 0.3, hi + span * 0.3
    pts = []
    for i, val in enumerate(values):
        x = left + (right - left) * (i + 0.5) / len(values)
        y = bottom - (bottom - top) * (val - lo) / (hi - lo)
        pts.append((x, y))
        text_box(d, (x - 30, bottom + 4, x + 30, bottom + h * 0.09), labels[i], fill=ink, size=14)
    if filled:
        d.polygon(pts + [(pts[-1][0], bottom), (pts[0][0], bottom)], fill=colour)
    d.line(pts, fill=colour, width=4)
    for x, y in pts:
        d.ellipse([x - 5, y - 5, x + 5, y + 5], fill=colour)
    if arrow_dir:
        ax = w * 0.9
        if arrow_dir == "up":
            arrow(d, ax, bottom - 4, (bottom - top) * 0.8, "up", arrow_colour, width=max(8, w // 40))
        else:
            arrow(d, ax, top + 4, (bottom - top) * 0.8, "down", arrow_colour, width=max(8, w // 40))
    if note:
        text_box(d, (12, h * 0.91, w - 12, h - 4), note, fill=axis, size=13)
    return im


def draw_infographic(rng, w, h, title, rows, bg="#f4f1ea", title_bg="#264653"):
    """rows: (label, mark, colour) with mark one of up, down, tick, cross or None."""
    im = Image.new("RGB", (w, h), rng.choice([bg, "#ffffff", "#e9ecef", title_bg]))
    d = ImageDraw.Draw(im)
    title_top = rng.random() < 0.6
    ty = 0 if title_top else h * 0.8
    d.rectangle([0, ty, w, ty + h * 0.2], fill=title_bg)
    text_box(d, (14, ty + 6, w - 14, ty + h * 0.2 - 6), title, fill="#ffffff", size=30)
    if rng.random() < 0.45:  # tiles side by side
        col = w * 0.92 / len(rows)
        y_top = h * 0.24 if title_top else h * 0.04
        for i, (label, mark, colour) in enumerate(rows):
            x0 = w * 0.04 + col * i
            d.rounded_rectangle([x0 + 4, y_top, x0 + col - 4, y_top + h * 0.72], radius=10,
                                fill=rng.choice(["#ffffff", "#fdf0d5", "#e0fbfc"]))
            s = min(col * 0.45, h * 0.22)
            mx, my = x0 + col / 2, y_top + h * 0.2
            if mark == "up":
                arrow(d, mx, my + s / 2, s, "up", colour, width=max(6, int(s / 5)))
            elif mark == "down":
                arrow(d, mx, my - s / 2, s, "down", colour, width=max(6, int(s / 5)))
            elif mark == "tick":
                tick(d, mx - s / 2, my - s / 2, s, colour)
            elif mark == "cross":
                cross(d, mx - s / 2, my - s / 2, s, colour)
            text_box(d, (x0 + 10, y_top + h * 0.36, x0 + col - 10, y_top + h * 0.7), label, fill="#222222", size=26)
        return im
    band = h * 0.76 / len(rows)
    for i, (label, mark, colour) in enumerate(rows):
        y0 = (h * 0.22 if title_top else h * 0.02) + band * i
        d.rounded_rectangle([w * 0.05, y0 + 4, w * 0.95, y0 + band - 4], radius=10, fill="#ffffff")
        text_box(d, (w * 0.09, y0 + 8, w * 0.72, y0 + band - 8), label, fill="#222222", size=30, align="left")
        s = min(band * 0.6, w * 0.12)
        mx, my = w * 0.82, y0 + band / 2
        if mark == "up":
            arrow(d, mx, my + s / 2, s, "up", colour, width=max(6, int(s / 5)))
        elif mark == "down":
            arrow(d, mx, my - s / 2, s, "down", colour, width=max(6, int(s / 5)))
        elif mark == "tick":
            tick(d, mx - s / 2, my - s / 2, s, colour)
        elif mark == "cross":
            cross(d, mx - s / 2, my - s / 2, s, colour)
    return im


def draw_proscons(rng, w, h, title, left_head, left, right_head, right, left_colour="#2e8b57",
                  right_colour="#c0392b"):
    im = Image.new("RGB", (w, h), rng.choice(["#ffffff", "#f1f1f1", "#fdf6e3"]))
    d = ImageDraw.Draw(im)
    stacked = rng.random() < 0.5  # the two lists one above the other, heads as filled side bars
    # Variants enough that four such charts hash apart: the title on a dark band or not, either list first, the
    # heads on the other side (right of the stacked lists, under the side-by-side ones).
    if rng.random() < 0.5:
        d.rectangle([0, 0, w, h * 0.16], fill="#34495e")
        text_box(d, (10, 6, w - 10, h * 0.15), title, fill="#ffffff", size=28)
    else:
        text_box(d, (10, 6, w - 10, h * 0.15), title, fill="#222222", size=28)
    lists = [(left_head, left, left_colour, tick), (right_head, right, right_colour, cross)]
    if rng.random() < 0.5:
        lists.reverse()
    flip = rng.random() < 0.5
    if stacked:
        head_x, list_x = ((w * 0.7, w * 0.97), (w * 0.03, w * 0.7)) if flip else ((w * 0.03, w * 0.3),
                                                                                (w * 0.3, w * 0.97))
        for k, (head, items, colour, mark) in enumerate(lists):
            y0 = h * 0.18 + k * h * 0.41
            y1 = y0 + h * 0.38
            d.rectangle([head_x[0], y0, head_x[1], y1], fill=colour)
            text_box(d, (head_x[0] + w * 0.01, y0 + 4, head_x[1] - w * 0.01, y1 - 4), head, fill="#ffffff", size=22)
            d.rectangle([list_x[0], y0, list_x[1], y1], outline=colour, width=2)
            row = (y1 - y0 - 6) / max(len(items), 1)
            for i, item in enumerate(items):
                y = y0 + 3 + row * i
                s = min(row * 0.55, 16)
                mark(d, list_x[0] + w * 0.02, y + row / 2 - s / 2, s, colour)
                text_box(d, (list_x[0] + w * 0.02 + s + 8, y + 1, list_x[1] - w * 0.02, y + row - 1), item,
                         fill="#222222", size=17, align="left")
        return im
    head_y, list_y = ((h * 0.83, h * 0.95), (h * 0.18, h * 0.83)) if flip else ((h * 0.18, h * 0.3),
                                                                            (h * 0.3, h * 0.95))
    for col, (head, items, colour, mark) in enumerate(lists):
        x0 = w * 0.04 + col * w * 0.48
        x1 = x0 + w * 0.44
        d.rectangle([x0, head_y[0], x1, head_y[1]], fill=colour)
        text_box(d, (x0 + 6, head_y[0] + 3, x1 - 6, head_y[1] - 3), head, fill="#ffffff", size=22)
        d.rectangle([x0, list_y[0], x1, list_y[1]], outline=colour, width=2)
        row = (list_y[1] - list_y[0] - h * 0.02) / max(len(items), 1)
        for i, item in enumerate(items):
            y = list_y[0] + h * 0.01 + row * i
            s = min(row * 0.5, 18)
            mark(d, x0 + 8, y + row / 2 - s / 2, s, colour)
            text_box(d, (x0 + 16 + s, y + 2, x1 - 6, y + row - 2), item, fill="#222222", size=18, align="left")
    return im


def draw_balance(rng, w, h, title, left, right, tilt=0.0):
    im = gradient(w, h, "#fdf6e3", "#efe4c8")
    d = ImageDraw.Draw(im)
    text_box(d, (10, 6, w - 10, h * 0.17), title, fill="#3b3b3b", size=34, stroke=1, stroke_fill="#3b3b3b")
    cx = w / 2
    d.polygon([(cx - 40, h * 0.93), (cx + 40, h * 0.93), (cx, h * 0.85)], fill="#7a5c3a")
    d.line([(cx, h * 0.86), (cx, h * 0.3)], fill="#7a5c3a", width=8)
    ly, ry = h * 0.3 + tilt * h, h * 0.3 - tilt * h
    d.line([(w * 0.15, ly), (w * 0.85, ry)], fill="#7a5c3a", width=6)
    for px, py, label, colour in ((w * 0.15, ly, left, "#2e8b57"), (w * 0.85, ry, right, "#c0392b")):
        d.line([(px, py), (px - w * 0.11, py + h * 0.22)], fill="#555555", width=2)
        d.line([(px, py), (px + w * 0.11, py + h * 0.22)], fill="#555555", width=2)
        d.chord([px - w * 0.13, py + h * 0.12, px + w * 0.13, py + h * 0.32], 0, 180, fill=colour)
        text_box(d, (px - w * 0.14, py + h * 0.34, px + w * 0.14, py + h * 0.52), label, fill=colour, size=22)
    return im


def draw_checklist(rng, w, h, title, items, bg="#fffdf5", accent="#e76f51"):
    im = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, w, h * 0.2], fill=accent)
    text_box(d, (12, 6, w - 12, h * 0.2 - 6), title, fill="#ffffff", size=32, stroke=1, stroke_fill="#ffffff")
    row = h * 0.75 / len(items)
    for i, item in enumerate(items):
        y = h * 0.22 + row * i
        s = min(row * 0.55, 26)
        tick(d, w * 0.06, y + row / 2 - s / 2, s, "#2a9d8f")
        text_box(d, (w * 0.06 + s + 12, y + 2, w * 0.95, y + row - 2), item, fill="#222222", size=24, align="left")
    return im


def draw_timetable(rng, w, h, title, rows, head_colour="#3d5a80", stripe="#e0fbfc"):
    im = Image.new("RGB", (w, h), rng.choice(["#ffffff", "#f8f9fa", stripe]))
    d = ImageDraw.Draw(im)
    title_top = rng.random() < 0.6
    split = rng.uniform(0.26, 0.42)
    ty = 0 if title_top else h * 0.82
    d.rectangle([0, ty, w, ty + h * 0.18], fill=head_colour)
    text_box(d, (10, ty + 6, w - 10, ty + h * 0.18 - 6), title, fill="#ffffff", size=28)
    row = h * 0.78 / len(rows)
    first = rng.randrange(2)
    dark_row = rng.random() < 0.35  # the first striped row filled in the heading colour
    for i, (day, task) in enumerate(rows):
        y = (h * 0.2 if title_top else h * 0.02) + row * i
        dark = dark_row and i == first
        if i % 2 == first:
            d.rectangle([w * 0.04, y, w * 0.96, y + row], fill=head_colour if dark else stripe)
        d.line([(w * split, y), (w * split, y + row)], fill="#98c1d9", width=2)
        ink = "#ffffff" if dark else "#293241"
        text_box(d, (w * 0.06, y + 3, w * (split - 0.02), y + row - 3), day, fill=ink, size=20, align="left")
        text_box(d, (w * (split + 0.03), y + 3, w * 0.94, y + row - 3), task, fill=ink, size=20, align="left")
    return im


def draw_forecast(rng, w, h, title, days):
    """days: (name, kind, temperature) with kind sun, cloud or rain."""
    im = gradient(w, h, "#5fa8d3", "#cae9ff")
    d = ImageDraw.Draw(im)
    text_box(d, (10, 6, w - 10, h * 0.2), title, fill="#ffffff", size=30, stroke=1, stroke_fill="#1b4965")
    col = w / len(days)
    for i, (name, kind, temp) in enumerate(days):
        cx, cy = col * (i + 0.5), h * 0.5
        r = min(col, h) * 0.2
        if kind in ("sun", "cloud"):
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill="#ffd166")
        if kind in ("cloud", "rain"):
            d.ellipse([cx - r * 1.2, cy - r * 0.3, cx + r * 0.2, cy + r * 0.8], fill="#f1f1f1")
            d.ellipse([cx - r * 0.4, cy - r * 0.7, cx + r * 1.1, cy + r * 0.8], fill="#f1f1f1")
        if kind == "rain":
            for k in range(3):
                d.line([(cx - r * 0.6 + k * r * 0.6, cy + r), (cx - r * 0.8 + k * r * 0.6, cy + r * 1.5)],
                       fill="#1b4965", width=3)
        text_box(d, (cx - col / 2, h * 0.12 + h * 0.1, cx + col / 2, h * 0.3), name, fill="#1b4965", size=22)
        text_box(d, (cx - col / 2, h * 0.72, cx + col / 2, h * 0.88), temp, fill="#1b4965", size=26)
    return im


def draw_nocar(rng, w, h, text, bg="#2a9d8f", ring="#d62828"):
    im = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(im)
    r = min(w, h) * 0.3
    cx, cy = w / 2, h * 0.4
    d.ellipse([cx - r - 6, cy - r - 6, cx + r + 6, cy + r + 6], fill="#ffffff")
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=ring)
    d.ellipse([cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8], fill="#ffffff")
    car(d, cx - r * 0.55, cy + r * 0.25, r / 64, "#222222")
    d.line([(cx - r * 0.6, cy - r * 0.6), (cx + r * 0.6, cy + r * 0.6)], fill=ring, width=int(r * 0.18))
    text_box(d, (w * 0.06, h * 0.76, w * 0.94, h * 0.96), text, fill="#ffffff", size=40, stroke=1,
             stroke_fill="#ffffff")
    return im


def draw_calendar(rng, w, h, title, days, crossed, caption=None, colour="#e63946"):
    im = Image.new("RGB", (w, h), "#f1faee")
    d = ImageDraw.Draw(im)
    d.rounded_rectangle([w * 0.06, h * 0.08, w * 0.94, h * (0.8 if caption else 0.92)], radius=14, fill="#ffffff",
                        outline="#457b9d", width=3)
    d.rectangle([w * 0.06, h * 0.08, w * 0.94, h * 0.26], fill=colour)
    text_box(d, (w * 0.08, h * 0.09, w * 0.92, h * 0.25), title, fill="#ffffff", size=30)
    col = w * 0.88 / len(days)
    bottom = h * (0.78 if caption else 0.9)
    for i, day in enumerate(days):
        x0 = w * 0.06 + col * i
        text_box(d, (x0 + 2, h * 0.3, x0 + col - 2, h * 0.42), day, fill="#1d3557", size=22)
        d.rectangle([x0 + 6, h * 0.45, x0 + col - 6, bottom], outline="#a8dadc", width=2)
        if day in crossed:
            cross(d, x0 + 10, h * 0.47, min(col - 20, bottom - h * 0.49), colour)
    if caption:
        text_box(d, (w * 0.06, h * 0.83, w * 0.94, h * 0.97), caption, fill="#1d3557", size=24)
    return im


def draw_zone_map(rng, w, h, title):
    im = Image.new("RGB", (w, h), "#eef0e6")
    d = ImageDraw.Draw(im)
    d.line([(0, h * 0.7), (w, h * 0.55)], fill="#8ecae6", width=int(h * 0.08))
    for k in range(9):
        x = rng.uniform(0, w)
        d.line([(x, 0), (x + rng.uniform(-80, 80), h)], fill="#ffffff", width=rng.choice([3, 5, 8]))
    for k in range(6):
        y = rng.uniform(0, h)
        d.line([(0, y), (w, y + rng.uniform(-60, 60))], fill="#ffffff", width=rng.choice([3, 5, 8]))
    pts = []
    for k in range(9):
        ang = 2 * np.pi * k / 9
        rad = min(w, h) * rng.uniform(0.26, 0.34)
        pts.append((w * 0.5 + rad * np.cos(ang) * 1.3, h * 0.52 + rad * np.sin(ang)))
    d.polygon(pts, outline="#d62828", width=5)
    for k in range(6):
        px, py = pts[(k * 3) % 9]
        d.ellipse([px - 7, py - 7, px + 7, py + 7], fill="#d62828")
    d.rectangle([0, 0, w, h * 0.14], fill="#ffffff")
    text_box(d, (10, 4, w - 10, h * 0.14 - 4), title, fill="#222222", size=26)
    d.rectangle([w * 0.62, h * 0.86, w * 0.98, h * 0.98], fill="#ffffff", outline="#999999")
    d.line([(w * 0.64, h * 0.92), (w * 0.7, h * 0.92)], fill="#d62828", width=5)
    text_box(d, (w * 0.72, h * 0.87, w * 0.97, h * 0.97), "zone boundary", fill="#333333", size=14, align="left")
    return im


def draw_cartoon(rng, w, h, text, who="adult", scene="plain", bg=None):
    if bg is None:
        bg = rng.choice([("#fef9ef", "#fde4cf"), ("#e3f2fd", "#bbdefb"), ("#f1f8e9", "#c5e1a5"),
                         ("#fce4ec", "#f8bbd0"), ("#37474f", "#90a4ae")])
    elif rng.random() < 0.5:
        bg = bg[::-1]
    im = gradient(w, h, *bg)
    d = ImageDraw.Draw(im)
    ground = int(h * 0.92)
    scale = h / 260
    if scene not in ("beach", "cage", "pile") and rng.random() < 0.5:  # a floor, or a wall panel behind
        if rng.random() < 0.5:
            d.rectangle([0, h * 0.7, w, h], fill=rng.choice(["#8d6e63", "#b0bec5", "#a1887f", "#cfd8dc"]))
        else:
            d.rectangle([w * 0.05, h * 0.48, w * 0.95, h * 0.66], fill=rng.choice(["#ffffff", "#263238", "#ffe082"]))
    px = w * 0.3
    if scene == "desk":
        desk(d, w, ground)
        for k in range(3):
            d.rectangle([w * 0.55 + k * 6, ground - 70 - 10 * (k + 1), w * 0.72 + k * 6, ground - 70 - 10 * k],
                        fill=["#e63946", "#457b9d", "#f4a261"][k])
    elif scene == "pile":
        for k in range(9):
            y1 = ground - k * h * 0.065
            off = rng.randint(-14, 14)
            d.rectangle([w * 0.12 + off, y1 - h * 0.06, w * 0.5 + off, y1],
                        fill=rng.choice(["#e63946", "#457b9d", "#f4a261", "#2a9d8f", "#8d99ae"]),
                        outline="#333333")
        d.ellipse([w * 0.24, ground - h * 0.66, w * 0.36, ground - h * 0.54], fill="#e0b590")
        d.ellipse([w * 0.76, h * 0.06, w * 0.88, h * 0.18], fill="#f1faee")
        d.ellipse([w * 0.79, h * 0.04, w * 0.91, h * 0.16], fill=bg[0])
    elif scene == "barrier":
        d.rectangle([w * 0.5, ground - 55, w * 0.95, ground - 40], fill="#d62828")
        for k in range(5):
            d.rectangle([w * 0.5 + k * w * 0.09, ground - 55, w * 0.5 + k * w * 0.09 + w * 0.045, ground - 40],
                        fill="#ffffff")
        d.rectangle([w * 0.52, ground - 40, w * 0.54, ground], fill="#555555")
        d.rectangle([w * 0.91, ground - 40, w * 0.93, ground], fill="#555555")
    elif scene == "cage":
        lion(d, w * 0.35, ground, scale * 1.2)
        for k in range(12):
            x = w * 0.05 + k * w * 0.075
            d.line([(x, h * 0.3), (x, ground)], fill="#555555", width=5)
        d.line([(0, h * 0.3), (w, h * 0.3)], fill="#555555", width=6)
    elif scene == "zoo":
        giraffe(d, w * 0.72, ground, scale * 0.9)
        d.line([(0, ground - 30), (w, ground - 30)], fill="#8b5a2b", width=4)
        for k in range(10):
            d.line([(k * w / 9, ground - 30), (k * w / 9, ground)], fill="#8b5a2b", width=4)
    elif scene == "ward":
        d.rectangle([w * 0.55, ground - 60, w * 0.95, ground - 40], fill="#ffffff", outline="#999999")
        d.rectangle([w * 0.55, ground - 40, w * 0.57, ground], fill="#999999")
        d.rectangle([w * 0.93, ground - 40, w * 0.95, ground], fill="#999999")
        d.rectangle([w * 0.6, ground - 72, w * 0.7, ground - 60], fill="#dddddd")
    elif scene == "office":
        desk(d, w, ground, colour="#777777")
        d.rectangle([w * 0.55, ground - 120, w * 0.75, ground - 72], fill="#222222")
        d.rectangle([w * 0.57, ground - 116, w * 0.73, ground - 78], fill="#8ecae6")
    elif scene == "beach":
        d.rectangle([0, h * 0.55, w, h], fill="#5fa8d3")
    elif scene == "shop":
        d.rectangle([w * 0.5, ground - 80, w * 0.95, ground], fill="#b5838d")
        for k in range(4):
            bag(d, w * 0.55 + k * w * 0.09, ground - 125, scale * 0.8)
    mirror = who not in ("turtle", "lion", "none") and scene not in ("pile", "cage") and rng.random() < 0.5
    if mirror:  # the scene flipped, the figure on the right and the balloon on the left
        im = ImageOps.mirror(im)
        d = ImageDraw.Draw(im)
        px = w * 0.7
    if who == "turtle":
        turtle(d, w * 0.35, h * 0.75, scale)
        bag(d, w * 0.62, h * 0.62, scale * 1.2)
        mouth = (w * 0.45, h * 0.7)
    elif who == "lion":
        mouth = (w * 0.52, ground - 80 * scale)
    elif who == "none":
        mouth = (w * 0.33, ground - h * 0.6)
    else:
        shirt = {"adult": "#2a9d8f", "child": "#e76f51", "elder": "#6d597a", "nurse": "#48cae4",
                 "worker": "#264653", "parent": "#8338ec"}[who]
        _, head_top = person(d, px, ground, scale * 1.3, shirt, child=who == "child",
                             hair="#bbbbbb" if who == "elder" else "#4a3020")
        if who == "elder":
            d.line([(px + 28 * scale, ground - 60 * scale), (px + 34 * scale, ground)], fill="#5c4033", width=5)
        if who == "parent":
            person(d, px + (-w if mirror else w) * 0.16, ground, scale * 1.3, "#ffb703", child=True)
        mouth = (px + 8, head_top + 26 * scale)
    if mirror:
        balloon(d, (w * 0.03, h * 0.04, w * 0.6, h * 0.42), mouth, text, size=30)
    else:
        balloon(d, (w * 0.4, h * 0.04, w * 0.97, h * 0.42), mouth, text, size=30)
    return im


def draw_photo(rng, w, h, scene):
    """Photo-like scenes: gradients and shapes, softened with a blur."""
    if scene == "cafe_street":
        im = gradient(w, h, "#9fd3f5", "#f4efe1")
        d = ImageDraw.Draw(im)
        buildings(d, rng, w, int(h * 0.62), ["#e9c46a", "#f4a261", "#d4a373", "#ccd5ae"], 90, int(h * 0.55))
        d.rectangle([0, int(h * 0.62), w, h], fill="#c9b99a")
        for k in range(0, w, 24):
            d.line([(k, h * 0.62), (k - 40, h)], fill="#bba98a", width=1)
        for k in range(4):
            x = w * (0.12 + 0.26 * k)
            d.polygon([(x - 34, h * 0.66), (x + 34, h * 0.66), (x, h * 0.56)], fill=["#e63946", "#ffffff"][k % 2])
            d.line([(x, h * 0.66), (x, h * 0.8)], fill="#555555", width=3)
            d.ellipse([x - 20, h * 0.78, x + 20, h * 0.82], fill="#ffffff")
        tree(d, w * 0.05, int(h * 0.72), h / 300)
        tree(d, w * 0.95, int(h * 0.72), h / 300)
        for k in range(5):
            person(d, w * rng.uniform(0.1, 0.9), h * rng.uniform(0.88, 0.98), h / 330,
                   rng.choice(["#2f6690", "#d1495b", "#edae49", "#00798c"]), child=k % 3 == 0)
    elif scene == "gate":
        im = gradient(w, h, "#a9d6f5", "#eaf4fb")
        d = ImageDraw.Draw(im)
        d.rectangle([0, h * 0.25, w, h * 0.75], fill="#b08968")
        d.rectangle([w * 0.35, h * 0.4, w * 0.65, h * 0.75], fill="#3a3a3a")
        d.pieslice([w * 0.35, h * 0.3, w * 0.65, h * 0.5], 180, 360, fill="#3a3a3a")
        for k in range(0, w, 28):
            d.rectangle([k, h * 0.2, k + 14, h * 0.25], fill="#b08968")
        d.rectangle([0, h * 0.75, w, h], fill="#8d8d86")
        d.line([(w * 0.2, h * 0.95), (w * 0.2, h * 0.45)], fill="#777777", width=6)
        r = h * 0.1
        d.ellipse([w * 0.2 - r, h * 0.38 - r, w * 0.2 + r, h * 0.38 + r], fill="#d62828")
        d.ellipse([w * 0.2 - r * 0.78, h * 0.38 - r * 0.78, w * 0.2 + r * 0.78, h * 0.38 + r * 0.78], fill="#ffffff")
        car(d, w * 0.2 - r * 0.55, h * 0.38 + r * 0.3, r / 70, "#222222")
        d.rectangle([w * 0.2 - r, h * 0.5, w * 0.2 + r, h * 0.58], fill="#ffffff", outline="#333333")
        text_box(d, (w * 0.2 - r, h * 0.5, w * 0.2 + r, h * 0.58), "ZONE", fill="#222222", size=14)
    elif scene == "traffic":
        im = gradient(w, h, "#c8d6e5", "#f5f6fa")
        d = ImageDraw.Draw(im)
        buildings(d, rng, w, int(h * 0.6), ["#8395a7", "#576574", "#c8d6e5", "#a4b0be"], 90, int(h * 0.5))
        d.rectangle([0, h * 0.6, w, h], fill="#57606f")
        for k in range(0, w, 60):
            d.rectangle([k, h * 0.78, k + 30, h * 0.8], fill="#f1f2f6")
        for k in range(6):
            car(d, k * w / 5.5 + rng.randint(-10, 10), h * 0.74, h / 260,
                rng.choice(["#d63031", "#0984e3", "#fdcb6e", "#dfe6e9", "#2d3436"]))
            car(d, k * w / 5.5 + 40 + rng.randint(-10, 10), h * 0.93, h / 240,
                rng.choice(["#d63031", "#0984e3", "#fdcb6e", "#dfe6e9", "#2d3436"]))
    elif scene == "reading":
        im = gradient(w, h, "#3d405b", "#81789a")
        d = ImageDraw.Draw(im)
        d.polygon([(w * 0.62, h * 0.2), (w * 0.78, h * 0.2), (w * 0.9, h * 0.62), (w * 0.5, h * 0.62)],
                  fill="#f6e7a1")
        d.rectangle([w * 0.68, h * 0.08, w * 0.72, h * 0.2], fill="#333333")
        person(d, w * 0.4, h * 1.02, h / 120, "#e76f51", child=True)
        d.rectangle([0, h * 0.62, w, h * 0.68], fill="#a0703f")
        d.rectangle([0, h * 0.68, w, h], fill="#2b2d42")
        d.polygon([(w * 0.32, h * 0.6), (w * 0.48, h * 0.56), (w * 0.48, h * 0.62), (w * 0.32, h * 0.62)],
                  fill="#ffffff")
        d.polygon([(w * 0.48, h * 0.56), (w * 0.62, h * 0.6), (w * 0.62, h * 0.62), (w * 0.48, h * 0.62)],
                  fill="#eeeeee")
    elif scene == "whiteboard":
        im = gradient(w, h, "#e9edc9", "#ccd5ae")
        d = ImageDraw.Draw(im)
        d.rectangle([w * 0.08, h * 0.1, w * 0.92, h * 0.75], fill="#fdfdfd", outline="#999999", width=6)
        text_box(d, (w * 0.14, h * 0.15, w * 0.86, h * 0.7), "Homework:\np. 42, ex. 1-5\ndue Thursday",
                 fill="#1d4ed8", size=40, align="left")
        d.rectangle([w * 0.08, h * 0.75, w * 0.92, h * 0.79], fill="#999999")
        for k in range(3):
            d.rectangle([w * (0.2 + 0.25 * k), h * 0.86, w * (0.35 + 0.25 * k), h * 0.9], fill="#a0703f")
    elif scene in ("giraffes", "giraffe_calf"):
        im = gradient(w, h, "#bde0fe", "#fefae0")
        d = ImageDraw.Draw(im)
        d.rectangle([0, h * 0.6, w, h], fill="#dda15e" if scene == "giraffes" else "#c9ad6a")
        for k in range(4):
            x = w * rng.uniform(0.05, 0.95)
            d.ellipse([x - 60, h * 0.4, x + 60, h * 0.55], fill="#606c38")
            d.rectangle([x - 4, h * 0.5, x + 4, h * 0.62], fill="#6b4a2b")
        if scene == "giraffes":
            giraffe(d, w * 0.3, h * 0.9, h / 260)
            giraffe(d, w * 0.62, h * 0.82, h / 300)
        else:
            giraffe(d, w * 0.4, h * 0.92, h / 230)
            giraffe(d, w * 0.62, h * 0.94, h / 420)
            d.rectangle([0, h * 0.75, w, h * 0.77], fill="#7f5539")
            for k in range(12):
                d.rectangle([k * w / 11, h * 0.72, k * w / 11 + 5, h * 0.9], fill="#7f5539")
    elif scene == "bear_concrete":
        im = gradient(w, h, "#adb5bd", "#6c757d")
        d = ImageDraw.Draw(im)
        d.rectangle([0, h * 0.62, w, h], fill="#8d9399")
        for k in range(0, w, 70):
            d.line([(k, 0), (k, h * 0.62)], fill="#9aa0a6", width=2)
        bear(d, w * 0.45, h * 0.88, h / 220)
        for k in range(14):
            x = k * w / 13
            d.line([(x, 0), (x, h)], fill="#343a40", width=4)
    elif scene == "office_empty":
        im = gradient(w, h, "#f8f9fa", "#dee2e6")
        d = ImageDraw.Draw(im)
        d.rectangle([0, h * 0.7, w, h], fill="#adb5bd")
        for k in range(3):
            x0 = w * (0.05 + 0.22 * k)
            d.rectangle([x0, h * 0.62, x0 + w * 0.18, h * 0.66], fill="#6c757d")
            d.rectangle([x0 + w * 0.05, h * 0.5, x0 + w * 0.13, h * 0.62], fill="#212529")
            d.rectangle([x0 + w * 0.02, h * 0.66, x0 + w * 0.03, h * 0.8], fill="#6c757d")
        d.rectangle([w * 0.72, h * 0.15, w * 0.95, h * 0.8], fill="#8d6e63", outline="#5d4037", width=4)
        d.rectangle([w * 0.74, h * 0.3, w * 0.93, h * 0.46], fill="#ffffff", outline="#333333", width=2)
        text_box(d, (w * 0.745, h * 0.31, w * 0.925, h * 0.45), "CLOSED FRIDAYS", fill="#c0392b", size=22)
    elif scene == "office_staff":
        im = gradient(w, h, "#e8eddf", "#cfdbd5")
        d = ImageDraw.Draw(im)
        d.rectangle([0, h * 0.72, w, h], fill="#a3a3a3")
        for k in range(4):
            x = w * (0.12 + 0.25 * k)
            d.rectangle([x - w * 0.02, h * 0.5, x + w * 0.07, h * 0.6], fill="#22223b")
            person(d, x - w * 0.05, h * 0.9, h / 230, rng.choice(["#264653", "#2a9d8f", "#e76f51", "#8338ec"]))
            d.rectangle([x - w * 0.11, h * 0.6, x + w * 0.1, h * 0.64], fill="#5e503f")
    elif scene == "beach_bags":
        im = gradient(w, h, "#a2d2ff", "#e0fbfc")
        d = ImageDraw.Draw(im)
        d.rectangle([0, h * 0.42, w, h * 0.58], fill="#219ebc")
        d.rectangle([0, h * 0.58, w, h], fill="#f2e2ba")
        for k in range(9):
            bag(d, w * rng.uniform(0.02, 0.92), h * rng.uniform(0.62, 0.88), h / rng.uniform(260, 400),
                colour=rng.choice(["#f8f9fa", "#e9ecef", "#caf0f8", "#ffe5ec"]))
    elif scene == "checkout":
        im = gradient(w, h, "#fff1e6", "#f0efeb")
        d = ImageDraw.Draw(im)
        d.rectangle([w * 0.05, h * 0.55, w * 0.95, h * 0.7], fill="#6d6875")
        d.rectangle([w * 0.6, h * 0.3, w * 0.75, h * 0.55], fill="#22223b")
        d.rectangle([w * 0.62, h * 0.33, w * 0.73, h * 0.45], fill="#8ecae6")
        for k in range(3):
            bag(d, w * (0.12 + 0.13 * k), h * 0.44, h / 300)
        d.rectangle([0, h * 0.7, w, h], fill="#b7b7a4")
    elif scene in ("uniform_kids", "own_clothes"):
        im = gradient(w, h, "#cde6f5", "#f1f7ed")
        d = ImageDraw.Draw(im)
        d.rectangle([0, h * 0.55, w, h * 0.62], fill="#b56576")
        d.rectangle([0, h * 0.62, w, h], fill="#7fb069")
        colours = ["#1d3557"] * 6 if scene == "uniform_kids" else ["#e63946", "#ffb703", "#2a9d8f", "#8338ec",
                                                                    "#fb8500", "#219ebc"]
        for k in range(6):
            person(d, w * (0.1 + 0.16 * k), h * rng.uniform(0.9, 0.96), h / 260, colours[k], child=True,
                   skin=rng.choice(["#e0b590", "#c68e5e", "#8d5a3b", "#f1c9a5"]))
    else:
        raise ValueError(scene)
    return im.filter(ImageFilter.GaussianBlur(0.8))


KINDS = {
    "protest": draw_protest, "poster": draw_poster, "bar": draw_barchart, "line": draw_linechart,
    "info": draw_infographic, "proscons": draw_proscons, "balance": draw_balance, "checklist": draw_checklist,
    "timetable": draw_timetable, "forecast": draw_forecast, "nocar": draw_nocar, "calendar": draw_calendar,
    "map": draw_zone_map, "cartoon": draw_cartoon, "photo": draw_photo,
}


# --------------------------------------------------------------------------------------------------
# a tiny DOM: build the page as a tree, serialise it, and know each node's XPath


VOID = {"meta", "link", "img", "br", "input", "hr"}
SKIP_TEXT = {"script", "style", "head", "noscript", "template"}
INLINE = {"a", "span", "strong", "em", "b", "i", "img", "br", "small", "time", "button", "label"}
PARA = {"p", "h1", "h2", "h3", "h4", "figcaption", "blockquote", "li", "dd"}


@dataclass
class Node:
    tag: str
    attrs: list[tuple[str, str]] = field(default_factory=list)
    children: list = field(default_factory=list)
    parent: "Node | None" = None


def E(tag: str, *children, **attrs) -> Node:
    pairs = []
    for key, value in attrs.items():
        key = {"cls": "class", "http_equiv": "http-equiv"}.get(key, key.replace("_", "-"))
        pairs.append((key, value))
    node = Node(tag, pairs, [])
    for child in children:
        if child is None:
            continue
        if isinstance(child, (list, tuple)):
            for c in child:
                if c is not None:
                    node.children.append(c)
        else:
            node.children.append(child)
    for child in node.children:
        if isinstance(child, Node):
            child.parent = node
    return node


def serialise(node: Node, depth: int = 0) -> str:
    attrs = "".join(f' {k}="{html.escape(v, quote=True)}"' for k, v in node.attrs)
    if node.tag in VOID:
        return f"<{node.tag}{attrs}>"
    if node.tag in ("script", "style"):
        inner = "".join(node.children)
        return f"<{node.tag}{attrs}>{inner}</{node.tag}>"
    parts = []
    block = any(isinstance(c, Node) and c.tag not in INLINE for c in node.children)
    for child in node.children:
        if isinstance(child, str):
            parts.append(html.escape(child, quote=False))
        else:
            parts.append(serialise(child, depth + 1))
    sep = "\n" if block else ""
    return f"<{node.tag}{attrs}>{sep}{sep.join(parts)}{sep}</{node.tag}>"


def xpath_of(node: Node) -> str:
    steps = []
    while node is not None:
        parent = node.parent
        if parent is None:
            index = 1
        else:
            same = [c for c in parent.children if isinstance(c, Node) and c.tag == node.tag]
            index = next(i for i, c in enumerate(same, 1) if c is node)
        steps.append(f"{node.tag.upper()}[{index}]")
        node = parent
    return "/" + "/".join(reversed(steps))


def inline_text(node: Node) -> str:
    out = []
    for child in node.children:
        if isinstance(child, str):
            out.append(child)
        elif child.tag not in SKIP_TEXT:
            out.append(inline_text(child))
    return " ".join(" ".join(out).split())


def text_lines(node: Node, out: list[tuple[str, str]]) -> None:
    if node.tag in SKIP_TEXT:
        return
    if all(isinstance(c, str) or c.tag in INLINE for c in node.children):
        text = inline_text(node)
        if text:
            out.append((text, node.tag))
        return
    for child in node.children:
        if isinstance(child, str):
            if child.strip():
                out.append((child.strip(), node.tag))
        else:
            text_lines(child, out)


def page_text(body: Node) -> str:
    lines: list[str] = []
    collected: list[tuple[str, str]] = []
    text_lines(body, collected)
    for text, tag in collected:
        lines.append(text)
        if tag in PARA:
            lines.append("")
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------------
# sites: the junk around each page (navigation, cookie banners, footers)

COOKIE_BANNERS = [
    ("We use cookies to improve your experience and to show you relevant adverts. By clicking “Accept all” "
     "you agree to cookies being stored on your device.", ["Accept all", "Manage preferences"]),
    ("This website uses cookies. Some are essential to make the site work, others help us understand how "
     "you use it.", ["OK", "More info"]),
    ("Your privacy matters. We and our 212 partners store and access information on your device, such as "
     "unique identifiers, to show personalised ads and to measure how content performs. You can change your "
     "choices at any time.", ["AGREE", "MORE OPTIONS"]),
]

SITES = {
    # topic 1
    "greenstreets": dict(domain="www.greenstreets-riverton.org", name="Green Streets Riverton", layout="campaign",
                         nav=["Home", "Our campaigns", "Events", "Join us", "Donate"],
                         footer=["Green Streets Riverton is run by volunteers.", "Privacy", "Contact"]),
    "chronicle": dict(domain="www.riverton-chronicle.co.uk", name="The Riverton Chronicle", layout="news",
                      nav=["Home", "News", "Politics", "Business", "Sport", "Opinion", "What's on"],
                      footer=["© Riverton Chronicle Media Ltd", "Terms", "Privacy", "Advertise with us"],
                      cookie=2),
    "slowcity": dict(domain="slowcitynotes.blog", name="Notes from a slow city", layout="blog",
                     nav=["Home", "About", "Archive", "Contact"],
                     footer=["Powered by a very old laptop", "RSS"]),
    "bizweekly": dict(domain="www.marketstreet-weekly.com", name="Market Street Weekly", layout="news",
                      nav=["Retail", "Property", "Hospitality", "Jobs", "Subscribe"],
                      footer=["© Market Street Weekly", "About us", "Contact the newsroom"], cookie=0),
    "carfreecampaign": dict(domain="www.carfree-riverton.org", name="Car-Free Riverton", layout="campaign",
                            nav=["Home", "Why car-free?", "Downloads", "Volunteer"],
                            footer=["Car-Free Riverton", "Imprint", "Privacy"]),
    "petitions": dict(domain="www.petitionpoint.org", name="PetitionPoint", layout="petition",
                      nav=["Start a petition", "Browse", "Membership", "Log in"],
                      footer=["PetitionPoint is an independent platform.", "Help", "Privacy", "Terms"], cookie=1),
    "traders": dict(domain="www.riverton-traders.org.uk", name="Riverton Traders' Association", layout="campaign",
                    nav=["Home", "Members", "News", "Shop local", "Contact"],
                    footer=["Riverton Traders' Association", "Members' area"], cookie=1),
    "eastburypost": dict(domain="www.eastbury-post.co.uk", name="Eastbury Evening Post", layout="news",
                         nav=["News", "Comment", "Business", "Sport", "Obituaries"],
                         footer=["© Eastbury Evening Post", "Contact", "Complaints"], cookie=2),
    "accessforall": dict(domain="accessforall-blog.net", name="Access For All", layout="blog",
                         nav=["Home", "Stories", "Resources", "About"],
                         footer=["Access For All – a blog about disability and public space"]),
    "mobilityreview": dict(domain="www.urban-mobility-review.com", name="Urban Mobility Review", layout="explainer",
                           nav=["Analysis", "Data", "Cities", "Newsletter"],
                           footer=["© Urban Mobility Review", "Subscribe to our newsletter"], cookie=0),
    "cityexplained": dict(domain="www.cityexplained.net", name="CityExplained", layout="explainer",
                          nav=["Topics", "Glossary", "About"], footer=["CityExplained", "Licence: CC BY-SA"]),
    "council": dict(domain="www.riverton-council.gov.uk", name="Riverton City Council", layout="gov",
                    nav=["Bins and recycling", "Parking and roads", "Council tax", "Housing", "Contact us"],
                    footer=["Accessibility statement", "Cookies", "Privacy notice", "© Riverton City Council"]),
    "sparkle": dict(domain="www.sparkle-carwash.co.uk", name="Sparkle Car Wash", layout="shop",
                    nav=["Prices", "Locations", "Gift vouchers", "Jobs"], footer=["Sparkle Car Wash Ltd"]),
    "evtracker": dict(domain="www.ev-sales-tracker.com", name="EV Sales Tracker", layout="news",
                      nav=["Sales data", "Models", "Charging", "Newsletter"], footer=["© EV Sales Tracker"],
                      cookie=0),
    "rivertonevents": dict(domain="www.visit-riverton.com", name="Visit Riverton", layout="shop",
                           nav=["What's on", "Eat and drink", "Stay", "Plan your visit"],
                           footer=["Visit Riverton – the official guide"], cookie=1),
    # topic 2
    "learnwell": dict(domain="www.learnwell-research.org", name="Learnwell Research", layout="explainer",
                      nav=["Research", "Briefings", "Data", "About"], footer=["Learnwell Research Trust"]),
    "teachernotes": dict(domain="mrreyes-teaches.blog", name="Mr Reyes Teaches", layout="blog",
                         nav=["Home", "Classroom", "Books", "About me"], footer=["All posts are my own views."]),
    "edmag": dict(domain="www.schoolstaffroom.co.uk", name="The Staffroom", layout="news",
                  nav=["News", "Teaching", "Leadership", "Opinion", "Jobs"], footer=["© The Staffroom Magazine"],
                  cookie=0),
    "parentblog": dict(domain="www.threekidsandadog.com", name="Three Kids and a Dog", layout="blog",
                       nav=["Home", "Family life", "School", "Recipes"], footer=["© Three Kids and a Dog"]),
    "tutors": dict(domain="www.brighttutors-online.com", name="BrightTutors", layout="shop",
                   nav=["Find a tutor", "Prices", "Blog", "Log in"], footer=["BrightTutors Ltd", "Terms"],
                   cookie=1),
    "teensleep": dict(domain="www.teensleepmatters.org", name="Teen Sleep Matters", layout="campaign",
                      nav=["Sleep facts", "For schools", "For parents", "Donate"], footer=["Teen Sleep Matters"]),
    "timetoplay": dict(domain="www.timetoplay-parents.org", name="Time To Play", layout="campaign",
                       nav=["Our campaign", "Open letter", "Resources", "Join"], footer=["Time To Play"]),
    "parentsforum": dict(domain="forum.parentsnet.co.uk", name="ParentsNet Forum", layout="forum", section="School life",
                         nav=["Forums", "Search", "Log in", "Register"],
                         footer=["ParentsNet", "Community guidelines", "Privacy"], cookie=1),
    "ashgrove": dict(domain="www.ashgrove-school.org.uk", name="Ashgrove School", layout="gov",
                     nav=["About us", "Parents", "Curriculum", "Term dates", "Contact"],
                     footer=["Ashgrove School, Mill Lane, Riverton", "Safeguarding"]),
    "stockpix": dict(domain="www.freestockpix.net", name="FreeStockPix", layout="shop",
                     nav=["Photos", "Illustrations", "Upload", "Sign in"],
                     footer=["All images free to use", "Licence"], cookie=1),
    "debateclub": dict(domain="www.riverton-debating.org", name="Riverton Schools Debating", layout="explainer",
                       nav=["Motions", "Competitions", "Training", "Contact"], footer=["Riverton Schools Debating"]),
    "printables": dict(domain="www.happyprintables.com", name="Happy Printables", layout="shop",
                       nav=["Kids", "Planners", "Party", "Seasonal"], footer=["Free for personal use"], cookie=0),
    "financewatch": dict(domain="www.studentmoneywatch.com", name="Student Money Watch", layout="news",
                         nav=["Loans", "Budgeting", "Jobs", "Housing"], footer=["© Student Money Watch"],
                         cookie=2),
    # topic 3
    "freethem": dict(domain="www.freethemall.org", name="Free Them All", layout="campaign",
                     nav=["Campaigns", "Investigations", "Take action", "Donate"], footer=["Free Them All"],
                     cookie=0),
    "wildopinion": dict(domain="www.wildthoughts-blog.com", name="Wild Thoughts", layout="blog",
                        nav=["Home", "Essays", "About"], footer=["Wild Thoughts"]),
    "welfarewatch": dict(domain="www.captivewelfare.org", name="Captive Welfare Watch", layout="explainer",
                         nav=["Reports", "Methods", "Press", "About"], footer=["Captive Welfare Watch"]),
    "sanctuary": dict(domain="www.bearhaven-sanctuary.org", name="Bear Haven Sanctuary", layout="blog",
                      nav=["Our bears", "Rescue", "Visit", "Donate"], footer=["Bear Haven Sanctuary"]),
    "zooassoc": dict(domain="www.zoos-for-conservation.org", name="Zoos for Conservation", layout="explainer",
                     nav=["Conservation", "Education", "Members", "News"], footer=["Zoos for Conservation"],
                     cookie=1),
    "safaripark": dict(domain="www.westmoor-safari.co.uk", name="Westmoor Safari Park", layout="blog",
                       nav=["Visit", "Animals", "Conservation", "Blog", "Tickets"], footer=["Westmoor Safari Park"],
                       cookie=1),
    "teachnature": dict(domain="www.outdoorlearning-hub.org", name="Outdoor Learning Hub", layout="blog",
                        nav=["Ideas", "Trips", "Resources"], footer=["Outdoor Learning Hub"]),
    "keepersnews": dict(domain="www.keepers-quarterly.com", name="Keepers Quarterly", layout="news",
                        nav=["News", "Husbandry", "Jobs", "Events"], footer=["© Keepers Quarterly"]),
    "rivertonzoo": dict(domain="www.rivertonzoo.org.uk", name="Riverton Zoo", layout="news",
                        nav=["Tickets", "Animals", "News", "Education", "Support us"], footer=["Riverton Zoo"],
                        cookie=1),
    "citystats": dict(domain="www.riverton-data.org", name="Riverton in Numbers", layout="explainer",
                      nav=["Population", "Economy", "Tourism", "Downloads"], footer=["Riverton in Numbers"]),
    "rightsnews": dict(domain="www.justice-report.org", name="Justice Report", layout="news",
                       nav=["World", "Courts", "Prisons", "Campaigns"], footer=["Justice Report"], cookie=2),
    # topic 4
    "worknews": dict(domain="www.futureofwork-news.com", name="Future of Work News", layout="news",
                     nav=["News", "Trials", "Policy", "Podcast"], footer=["© Future of Work News"], cookie=2),
    "hrblog": dict(domain="www.peopleops-notes.com", name="People Ops Notes", layout="blog",
                   nav=["Home", "Culture", "Hiring", "Wellbeing"], footer=["People Ops Notes"]),
    "union": dict(domain="www.united-workers.org.uk", name="United Workers", layout="campaign",
                  nav=["Join", "Campaigns", "Your rights", "News"], footer=["United Workers union"]),
    "agency": dict(domain="www.pixelandpine.studio", name="Pixel & Pine", layout="blog",
                   nav=["Work", "Studio", "Journal", "Contact"], footer=["Pixel & Pine design studio"]),
    "climatedaily": dict(domain="www.climate-daily.net", name="Climate Daily", layout="news",
                         nav=["Energy", "Transport", "Policy", "Science"], footer=["© Climate Daily"], cookie=0),
    "nurses": dict(domain="forum.nursingcommons.org", name="Nursing Commons", layout="forum", section="Workplace",
                   nav=["Forums", "Jobs", "Log in"], footer=["Nursing Commons"]),
    "workersforum": dict(domain="www.shiftchat.co.uk", name="ShiftChat", layout="forum", section="Work and hours",
                         nav=["Forums", "Latest", "Log in", "Register"], footer=["ShiftChat"], cookie=1),
    "smallbiz": dict(domain="www.smallbusiness-voice.org", name="Small Business Voice", layout="campaign",
                     nav=["Policy", "Members", "Events", "Join"], footer=["Small Business Voice"]),
    "serviceblog": dict(domain="www.helpdeskdiaries.com", name="Helpdesk Diaries", layout="blog",
                        nav=["Home", "Archive"], footer=["Helpdesk Diaries"]),
    "trialorg": dict(domain="www.fourdaytrial.org", name="The Four-Day Trial", layout="explainer",
                     nav=["The trial", "Results", "Employers", "FAQ"], footer=["The Four-Day Trial"]),
    "weather": dict(domain="www.weatherwise-uk.com", name="WeatherWise", layout="shop",
                    nav=["Forecast", "Radar", "Warnings", "News"], footer=["WeatherWise"], cookie=2),
    "festival": dict(domain="www.riversidefest.com", name="Riverside Festival", layout="shop",
                     nav=["Line-up", "Tickets", "Camping", "FAQ"], footer=["Riverside Festival"], cookie=1),
    # training topic 5
    "oceanfriends": dict(domain="www.oceanfriends.org", name="Ocean Friends", layout="campaign",
                         nav=["Campaigns", "Beach cleans", "Learn", "Donate"], footer=["Ocean Friends"]),
    "coastnews": dict(domain="www.coastal-gazette.co.uk", name="The Coastal Gazette", layout="news",
                      nav=["News", "Environment", "Business", "Sport"], footer=["© The Coastal Gazette"], cookie=2),
    "marinecharity": dict(domain="www.turtletrust.org", name="Turtle Trust", layout="blog",
                          nav=["Turtles", "Threats", "Adopt a turtle"], footer=["Turtle Trust"]),
    "greengrocer": dict(domain="www.greenbasket-grocers.co.uk", name="Green Basket Grocers", layout="shop",
                        nav=["Shop", "Our story", "Deliveries"], footer=["Green Basket Grocers"]),
    "packaging": dict(domain="www.packaging-facts.org", name="Packaging Facts", layout="explainer",
                      nav=["Materials", "Lifecycle", "Reports"], footer=["Packaging Facts"], cookie=1),
    "shopperforum": dict(domain="www.moneysavers-forum.com", name="MoneySavers Forum", layout="forum", section="Shopping",
                         nav=["Forums", "Deals", "Log in"], footer=["MoneySavers"], cookie=1),
    "markettraders": dict(domain="www.market-traders-union.org", name="Market Traders' Union", layout="campaign",
                          nav=["About", "News", "Join"], footer=["Market Traders' Union"]),
    "takeaway": dict(domain="www.takeaway-trade.com", name="Takeaway Trade", layout="news",
                     nav=["News", "Suppliers", "Jobs"], footer=["Takeaway Trade"]),
    "supermarketnews": dict(domain="www.grocerytoday.com", name="Grocery Today", layout="news",
                            nav=["Retail", "Suppliers", "Data"], footer=["Grocery Today"], cookie=0),
    "clinic": dict(domain="www.lumiere-clinic.co.uk", name="Lumière Clinic", layout="shop",
                   nav=["Treatments", "Prices", "Book"], footer=["Lumière Clinic"], cookie=1),
    # training topic 6
    "hillside": dict(domain="www.hillside-academy.org.uk", name="Hillside Academy", layout="gov",
                     nav=["About", "Admissions", "Parents", "News"], footer=["Hillside Academy"]),
    "parentsvoice": dict(domain="www.parentsvoice.org.uk", name="Parents' Voice", layout="blog",
                         nav=["Home", "Issues", "About"], footer=["Parents' Voice"]),
    "studentrights": dict(domain="www.studentvoice-now.org", name="Student Voice Now", layout="campaign",
                          nav=["Campaigns", "Stories", "Join"], footer=["Student Voice Now"]),
    "uniformshop": dict(domain="www.schoolwear-direct.co.uk", name="Schoolwear Direct", layout="shop",
                        nav=["Schools", "Sizes", "Delivery", "Basket (0)"], footer=["Schoolwear Direct"], cookie=1),
    "scrubs": dict(domain="www.scrubsandmore.com", name="Scrubs & More", layout="shop",
                   nav=["Scrubs", "Shoes", "Accessories", "Basket (0)"], footer=["Scrubs & More"]),
}


# --------------------------------------------------------------------------------------------------
# topics and queries

TOPICS = {
    1: dict(title="Should cities ban cars from their centres?",
            description="A resident has read that her city plans to close its historic centre to private cars. "
                        "She wants to see arguments for and against banning cars from city centres: what a ban "
                        "does to air, safety, shops, access and traffic elsewhere.",
            narrative="Images that argue for banning cars from city centres (for example showing cleaner air or "
                      "car-free streets as a success, or campaigns for a car-free centre) are PRO. Images that "
                      "argue against such bans (traders' protests, problems with access or deliveries, empty "
                      "shops blamed on a ban) are CON. Images of car-free zones that take no side are on-topic "
                      "but neither. Images about cars or city centres in another context (car washes, car sales, "
                      "markets) are not relevant.",
            pro=["car free city centre benefits", "car ban city centre good", "pedestrian zone benefits",
                 "car free streets air quality"],
            con=["car ban city centre against", "car free zone shops harm", "car ban protest",
                 "car free city problems"],
            neu=["car free city centre", "car free zone", "city centre traffic"]),
    2: dict(title="Is homework beneficial for students?",
            description="A parent whose child gets homework every evening wonders whether it actually helps. "
                        "They want images that show arguments for and against homework.",
            narrative="Images that argue that homework helps students learn (better results, practice, habits) are "
                      "PRO. Images that argue that homework harms students or should be dropped (stress, lost "
                      "sleep or play, campaigns against homework) are CON. Images that show homework without "
                      "taking a side, such as a timetable or an assignment on a board, are on-topic but neither. "
                      "Images about housework, student finance or other school matters are not relevant.",
            pro=["homework benefits students", "homework good for learning", "homework improves grades"],
            con=["homework harmful", "ban homework", "no homework policy", "homework stress students"],
            neu=["homework", "homework students", "homework time"]),
    3: dict(title="Should zoos be abolished?",
            description="A user has seen a campaign to close the local zoo and wants to understand the debate. "
                        "They look for images that argue for and against abolishing zoos.",
            narrative="Images that support abolishing or closing zoos (animals suffering in captivity, campaigns "
                      "against zoos) are PRO. Images that defend zoos (conservation, breeding programmes, "
                      "education, campaigns to keep a zoo open) are CON. Pictures of zoo animals or zoo statistics "
                      "without an argument are on-topic but neither. Images in which 'zoo' or 'abolish' is used "
                      "in another context are not relevant.",
            pro=["abolish zoos", "zoos animal cruelty", "close zoos"],
            con=["zoos conservation benefits", "save our zoo", "zoos good for animals"],
            neu=["zoo animals", "zoo", "zoo protest"]),
    4: dict(title="Is a four-day work week a good idea?",
            description="An employee has heard about companies that moved to a four-day week and wonders whether "
                        "it is a good idea. They want images with arguments on both sides.",
            narrative="Images that argue for a four-day work week (productivity, wellbeing, hiring, campaigns for "
                      "shorter hours) are PRO. Images that argue against it (longer days, overtime, cover for "
                      "shifts and customers, costs) are CON. Images that only describe a four-day schedule or a "
                      "trial are on-topic but neither. Weather forecasts, planners and events that merely mention "
                      "four days or a work week are not relevant.",
            pro=["four day work week benefits", "4 day week productivity", "four day week good"],
            con=["four day week problems", "four day work week against", "4 day week bad for business"],
            neu=["four day work week", "32 hour week", "four day week trial"]),
    # training topics: in topics.xml (titles only, so the stance model can read them) and training-qrels.txt,
    # not in qrels.qrels
    5: dict(title="Should single-use plastic bags be banned?",
            pro=["plastic bag ban benefits", "ban plastic bags", "plastic bags pollution"],
            con=["plastic bag ban against", "paper bags worse than plastic", "plastic bag ban problems"],
            neu=["plastic bags", "plastic bag ban"]),
    6: dict(title="Should students have to wear school uniforms?",
            pro=["school uniforms benefits", "school uniform good", "school uniforms reduce bullying"],
            con=["school uniforms against", "school uniforms bad", "school uniform cost"],
            neu=["school uniform", "students uniform"]),
}
TEST_TOPICS = (1, 2, 3, 4)
TRAINING_TOPICS = (5, 6)


# --------------------------------------------------------------------------------------------------
# the images and their pages


@dataclass
class Page:
    site: str
    slug: str
    h1: str
    before: list
    after: list
    alt: str | None  # None: the img has no alt attribute; "": an empty alt
    caption: str | None = None
    xmode: str = "img"  # img: body <img>; both: <img> and og:image; meta: og:image only; broken: see README
    empty_text: bool = False
    queries: list | None = None  # (query, topic); None: picked from the topic's queries by the stance
    extra: list = field(default_factory=list)  # queries of other topics that also found the image


@dataclass
class Spec:
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
    cross: dict = field(default_factory=dict)  # other topic -> (ONTOPIC, PRO, CON) or (PRO, CON)


ON_PRO, ON_CON, ON_BOTH, ON_NONE, OFF = (1, 1, 0), (1, 0, 1), (1, 1, 1), (1, 0, 0), (0, 0, 0)


def spec(name, topic, label, kind, size, params, *pages, **kw) -> Spec:
    return Spec(name, topic, label, kind, size, params, list(pages), **kw)


def page(site, slug, h1, before, after, alt, caption=None, **kw) -> Page:
    return Page(site, slug, h1, list(before), list(after), alt, caption, **kw)


SPECS: list[Spec] = [
    # ------------------------------------------------------------------ topic 1: cars in city centres
    spec("t1-pro-protest", 1, ON_PRO, "protest", (560, 420),
         dict(slogan="STREETS FOR PEOPLE, NOT CARS", signs=["CLEAN AIR NOW", "CAR-FREE OLD TOWN"]),
         page("greenstreets", "why-we-support-a-car-free-old-town", "Why we support a car-free Old Town",
              ["On Saturday more than four hundred people walked from the station to Market Square to ask the "
               "council for one thing: take the cars out of the Old Town.",
               "We believe a car-free centre is the fairest way to share a crowded space. Most people who come "
               "into the centre arrive on foot, by bike or by bus, yet parked and moving cars take up more than "
               "half of the street area."],
              ["A ban would cut noise and exhaust fumes where people live, shop and eat, and it would make the "
               "narrow lanes safe for children again.",
               "Join us at the council meeting on 14 March and tell the councillors: yes to a car-free Old Town."],
              "Marchers holding a banner that says streets for people, not cars",
              "Saturday's march on Market Square.")),
    spec("t1-pro-no2-chart", 1, ON_PRO, "bar", (480, 360),
         dict(title="NO2 at Market Square (ug/m3)", labels=["2019", "2021", "2023"], values=[48, 31, 22],
              arrow_dir="down", arrow_colour="#2e8b57", note="Car-free zone since 2020"),
         page("chronicle", "air-pollution-old-town-halved-since-car-ban",
              "Air pollution in the Old Town has halved since cars were banned",
              ["Nitrogen dioxide levels on Market Square have fallen by more than half since the city closed the "
               "historic centre to private cars, according to figures released by the council on Tuesday.",
               "The monitoring station next to the fountain recorded an annual average of 22 micrograms per "
               "cubic metre last year, down from 48 before the ban."],
              ["“The numbers speak for themselves,” said councillor Priya Nair, who led the scheme. “Closing the "
               "centre to cars was the right decision, and other districts should follow.”",
               "Opposition councillors said the figures also reflect cleaner vehicles across the whole city."],
              "Bar chart: nitrogen dioxide on Market Square fell from 48 to 22",
              "Annual average NO₂ at the Market Square station. Source: Riverton City Council.", xmode="both")),
    spec("t1-pro-cafe-street", 1, ON_PRO, "photo", (512, 384), dict(scene="cafe_street"),
         page("slowcity", "bridge-street-two-years-on", "Bridge Street, two years on",
              ["I walked down Bridge Street this morning for the first time since the summer.",
               "It is hard to remember that this used to be a four-lane rat run, with lorries shaking the windows "
               "of the bakery and a crossing that took three light cycles."],
              ["Honestly, we should have done this twenty years ago. Every city that still lets through traffic "
               "into its historic core should come and look at what happened here.",
               ("comment", "Marta K.", "I moved away in 2019 and barely recognised it last month. Lovely."),
               ("comment", "oldtownres", "Still miss being able to park outside my flat, but the kids can play "
                                         "outside now.")],
              "", "Since the ban, Bridge Street belongs to cafés, cyclists and children.")),
    spec("t1-pro-footfall", 1, ON_PRO, "line", (520, 340),
         dict(title="Footfall in the Old Town (thousand visitors per day)",
              labels=["2019", "2020", "2021", "2022", "2023"], values=[8.2, 8.0, 9.1, 10.4, 11.2],
              arrow_dir="up"),
         page("bizweekly", "pedestrianised-streets-not-bad-for-business",
              "Pedestrianised streets are not bad for business, traders' figures show",
              ["When the car ban was announced, many shop owners feared that their customers would stay away. "
               "Three years later, the figures tell a different story.",
               "Footfall in the pedestrianised streets has risen every year since the ban, and fewer units stand "
               "empty than in 2019."],
              ["Shoppers who arrive on foot or by bike visit more often and spend more per month than drivers, "
               "the study found. Car-free streets are not bad for business – for most shops they are good for it.",
               "The traders' association, which opposed the scheme, said it would study the figures."],
              "Line chart of daily visitors to the Old Town rising from 8,200 to 11,200")),
    spec("t1-pro-badge", 1, ON_PRO, "nocar", (480, 360), dict(text="CAR-FREE CENTRE? YES!"),
         page("carfreecampaign", "downloads", "Show your support",
              ["Download our posters and put one in your window. Every poster tells the council that residents "
               "want a car-free centre."],
              ["Want printed badges? Pick them up at our Saturday stall on Market Square, next to the fountain.",
               ("li", ["Window poster (A3, PDF)", "Badge (PNG)", "Social media banner (JPG)"])],
              "Round badge with a crossed-out car and the words car-free centre yes",
              "Our campaign badge (free download).", xmode="both")),
    spec("t1-pro-badge-copy", 1, ON_PRO, "nocar", (432, 324), {},
         page("petitions", "make-rivertons-centre-car-free", "Make Riverton's centre car-free",
              ["To: Riverton City Council",
               "We, the undersigned, call on the council to close the Old Town and the streets inside the ring "
               "road to private cars by 2026, with exceptions for residents with disabilities, deliveries and "
               "emergency services."],
              [("h2", "Why is this important?"),
               "Cleaner air, safer streets and more space for people. 3,412 people have signed. Let's get to "
               "5,000!"],
              "Car-free centre yes", xmode="meta"),
         derive=("t1-pro-badge", 0.9), quality=50, near=("t1-pro-badge",)),
    spec("t1-con-traders", 1, ON_CON, "protest", (560, 420),
         dict(slogan="SAVE OUR SHOPS - NO CAR BAN", signs=["CUSTOMERS NEED PARKING", "DON'T KILL THE HIGH STREET"],
              sky=("#b8c4cc", "#eef1f3"), ink="#1d3557"),
         page("traders", "traders-march-against-car-ban", "Traders march against the city-centre car ban",
              ["More than sixty shop owners closed their doors for an hour on Monday and marched to the town "
               "hall in protest against the planned car ban.",
               "Many of our members depend on customers who drive in from the villages. Take away the parking, "
               "and those customers go to the out-of-town mall instead."],
              ["We are not against cleaner air. We are against a plan that was made without asking the people "
               "whose livelihoods depend on the centre.",
               "Read our full response to the consultation (PDF, 2 MB)."],
              "Shopkeepers with placards reading save our shops, no car ban",
              "Members of the association outside the town hall.")),
    spec("t1-con-empty-shops", 1, ON_CON, "bar", (460, 345),
         dict(title="Empty shop units in Eastbury town centre", labels=["2021", "2022", "2023"],
              values=[12, 19, 27], arrow_dir="up", arrow_colour="#c0392b", bar="#8d6e63"),
         page("eastburypost", "car-ban-emptying-high-street", "Since the car ban, our high street is dying",
              ["Two years after Eastbury closed its centre to cars, the number of empty shop units has more than "
               "doubled.",
               "Supporters of the ban like to talk about cafés and clean air. They talk less about the hardware "
               "store, the butcher and the shoe repair shop that are gone."],
              ["A car ban harms exactly the small, independent businesses that make a centre worth visiting. The "
               "council should reopen at least the main shopping street to traffic."],
              "Chart of empty shop units rising from 12 to 27",
              "Empty units counted by the Eastbury Chamber of Commerce each January.")),
    spec("t1-con-elder-cartoon", 1, ON_CON, "cartoon", (480, 360),
         dict(text="How do I get to my doctor now?", who="elder", scene="barrier"),
         page("accessforall", "car-free-centre-locks-people-out",
              "A car-free centre locks out people who cannot walk far",
              ["Everyone talks about “people-friendly streets”. But which people?",
               "My mother is 81 and uses a walking stick. Her doctor, her bank and her pharmacy are all inside "
               "the new car-free zone, and the nearest bus stop is 600 metres away."],
              ["Blue-badge exemptions exist on paper, but the permit takes weeks and taxis are not allowed in "
               "either. For disabled and elderly residents the ban is not an improvement; it is a wall.",
               "We ask the council to pause the scheme until accessible transport is in place."],
              "Cartoon of an old woman with a walking stick in front of a road barrier")),
    spec("t1-con-keep-open", 1, ON_CON, "poster", (360, 480),
         dict(lines=[("KEEP THE CENTRE OPEN", 3, "#1d3557"), ("Access for all -", 1, "#333333"),
                     ("no to the car ban", 1, "#c0392b")], bg="#f1faee", border="#1d3557"),
         page("petitions", "stop-the-old-town-car-ban", "Stop the Old Town car ban",
              ["To: Riverton City Council",
               "Stop the plan to close the Old Town to cars. The ban will hurt local shops, push delivery vans "
               "onto residential streets and cut older and disabled people off from the centre."],
              [("h2", "Why is this important?"),
               "Residents were never properly consulted. 1,978 people have signed."],
              "Poster: keep the centre open", xmode="meta")),
    spec("t1-con-not-the-answer", 1, ON_CON, "info", (480, 400),
         dict(title="Banning cars is not the answer",
              rows=[("Better buses", "tick", "#2e8b57"), ("Park and ride", "tick", "#2e8b57"),
                    ("Cheaper trams", "tick", "#2e8b57"), ("Total car ban", "cross", "#c0392b")]),
         page("mobilityreview", "cleaner-centres-without-a-car-ban", "Cleaner centres without a car ban",
              ["Nobody disputes that traffic in historic centres is a problem. The question is whether an "
               "outright ban is the best tool.",
               "Our analysis of twelve European cities suggests it is not. Cities that invested in frequent buses "
               "and park-and-ride sites cut traffic almost as much as cities with bans, without the fierce "
               "backlash from traders and residents."],
              ["A ban brings some benefits, but it also brings risks: displaced traffic on the ring road, higher "
               "delivery costs and a centre that empties after six. Better public transport gets most of the "
               "benefits with few of the risks."],
              "Infographic comparing better buses, park and ride and a total car ban",
              "Alternatives to a ban scored higher on cost and public support.")),
    spec("t1-mixed-proscons", 1, ON_BOTH, "proscons", (560, 400),
         dict(title="Car-free city centres", left_head="PROS",
              left=["Cleaner air", "Safer streets", "Less noise", "More space for people"], right_head="CONS",
              right=["Harder access for disabled people", "Deliveries cost more", "Some shops lose customers",
                     "Traffic moves to the ring road"]),
         page("cityexplained", "car-free-city-centres-pros-and-cons", "Car-free city centres: the pros and cons",
              [("h2", "What is a car-free centre?"),
               "A car-free centre is an area where private cars may not drive or park. Buses, taxis, delivery vans "
               "at set times and emergency vehicles are usually allowed.",
               ("h2", "Arguments for and against")],
              ["Supporters point to cleaner air and safer streets. Critics worry about access, deliveries and "
               "local shops. Whether the benefits outweigh the costs depends a lot on how good the alternatives "
               "to driving are."],
              "Table of pros and cons of car-free city centres", "The main arguments at a glance.")),
    spec("t1-neutral-gate", 1, ON_NONE, "photo", (480, 360), dict(scene="gate"),
         page("council", "car-free-zone-rules", "Car-free zone: rules and exemptions",
              ["The car-free zone covers the Old Town inside the medieval wall. Signs at each of the six entry "
               "points show where the zone begins."],
              [("h2", "Who may drive in the zone?"),
               ("li", ["Residents with a disabled parking permit", "Delivery vehicles from 6 a.m. to 10 a.m.",
                       "Taxis to and from the hospital", "Emergency services"]),
               "The fine for driving in the zone without a permit is €60."],
              "Entry sign of the car-free zone at the North Gate",
              "The car-free zone begins at the North Gate. Delivery vans may enter until 10 a.m.")),
    spec("t1-neutral-map", 1, ON_NONE, "map", (520, 390), dict(title="Old Town car-free zone"),
         page("council", "car-free-zone-map", "Map of the car-free zone",
              ["The map shows the boundary of the car-free zone and the six entry points. Car parks outside the "
               "zone are at the station, Riverside and Castle Hill."],
              ["A printable version of the map is available from the customer service centre."],
              "Map of the Old Town car-free zone with its boundary", xmode="meta")),
    spec("t1-dist-carwash", 1, OFF, "poster", (480, 360),
         dict(lines=[("SPARKLE CAR WASH", 2, "#0077b6"), ("City centre branch", 1, "#023e8a"),
                     ("Basic 8.00 - Premium 12.00 - Deluxe 18.00", 1, "#333333")], bg="#caf0f8",
              border="#0077b6"),
         page("sparkle", "city-centre", "Sparkle Car Wash – City Centre",
              ["Our city centre branch is on Ring Road, opposite the station car park. Hand wash and valeting "
               "while you shop."],
              ["Open Monday to Saturday 8:00–18:00, Sunday 10:00–16:00. No appointment needed."],
              "Sparkle car wash price list", queries=[("car free city centre", 1), ("city centre traffic", 1)])),
    spec("t1-dist-ev-sales", 1, OFF, "bar", (480, 360),
         dict(title="Electric car sales (thousands)", labels=["2020", "2021", "2022", "2023"],
              values=[108, 190, 267, 315], arrow_dir="up", arrow_colour="#2e8b57", bar="#0096c7"),
         page("evtracker", "electric-car-sales-record-year", "Electric car sales hit another record",
              ["Sales of new electric cars rose for the fourth year in a row, with small hatchbacks and company "
               "cars driving the growth."],
              ["Charging at home remains the biggest factor in buyers' decisions, our survey found."],
              "Bar chart of electric car sales by year",
              queries=[("car ban city centre good", 1), ("car free streets air quality", 1)])),
    spec("t1-dist-market", 1, OFF, "poster", (400, 300),
         dict(lines=[("Christmas Market", 2, "#9d0208"), ("City Centre - Market Square", 1, "#333333"),
                     ("24 Nov - 23 Dec", 1, "#2d6a4f")], bg="#fff8e7", icon="star", icon_colour="#e9c46a"),
         page("rivertonevents", "christmas-market", "Riverton Christmas Market",
              ["Over eighty wooden stalls fill Market Square and Bridge Street with crafts, mulled wine and "
               "roasted chestnuts."],
              ["Getting there: the city centre is best reached by bus or on foot; park and ride runs every ten "
               "minutes on Saturdays."],
              "Christmas market poster",
              queries=[("car free city centre", 1), ("pedestrian zone benefits", 1)])),
    # ------------------------------------------------------------------ topic 2: homework
    spec("t2-pro-scores", 2, ON_PRO, "bar", (520, 380),
         dict(title="Maths score by daily homework time", labels=["none", "< 30 min", "30-60 min", "> 90 min"],
              values=[462, 489, 503, 497], arrow_dir="up", bar="#457b9d"),
         page("learnwell", "moderate-homework-better-maths-scores",
              "Moderate homework linked to better maths scores",
              ["Students who spend half an hour to an hour on homework each day score higher in maths than "
               "students who do none, according to our analysis of 9,000 secondary school pupils.",
               "The benefit levels off above 90 minutes, which suggests that more is not always better."],
              ["“Homework works when it is short, regular and checked,” says lead author Dr Hannah Berg. “Our "
               "data support homework; they do not support piling it on.”"],
              "Bar chart of maths scores by homework time",
              "Mean maths score by daily homework time. Learnwell Research, 2023.", xmode="both")),
    spec("t2-pro-practice", 2, ON_PRO, "cartoon", (480, 360),
         dict(text="Practice makes it stick!", who="parent", scene="desk"),
         page("teachernotes", "why-i-still-set-homework", "Why I still set homework",
              ["Every September a parent asks me why I set homework when “the research says it doesn't work”.",
               "Here is my answer. Learning a times table or a French verb in class is the start, not the end. "
               "Without a little practice at home, most of it is gone a week later."],
              ["So yes, I set homework: ten to fifteen minutes, always something the children can do alone, and "
               "always discussed the next day. It helps them learn, and it shows parents what we do in class.",
               ("comment", "J. Whitfield", "Agree completely. My two actually like the maths games.")],
              "Cartoon of a father helping his daughter with homework")),
    spec("t2-pro-not-enemy", 2, ON_PRO, "poster", (360, 480),
         dict(lines=[("HOMEWORK IS NOT THE ENEMY", 3, "#2b2d42"), ("Short - Regular - Checked", 1, "#ef233c")],
              bg="#edf2f4", border="#2b2d42"),
         page("edmag", "homework-not-harmful-when-short", "Homework is not harmful when it is short",
              ["The campaign against homework has a simple message: homework causes stress and does nothing for "
               "learning. Neither claim holds up.",
               "Homework is not harmful when it is short and matched to the child's age. A review of fifty "
               "studies found clear gains for secondary pupils and small but real gains in the upper primary "
               "years."],
              ["Abolishing homework would take away a cheap, proven way to help students consolidate what they "
               "learn."],
              "Poster with the words homework is not the enemy", "From our staffroom poster series.")),
    spec("t2-pro-reading", 2, ON_PRO, "photo", (480, 360), dict(scene="reading"),
         page("parentblog", "what-twenty-minutes-a-day-did", "What twenty minutes a day did for my daughter",
              ["At the start of Year 3 Mia was one of the weakest readers in her class. Her teacher sent home a "
               "reading book every night and asked us to read with her for twenty minutes."],
              ["By the summer she was reading chapter books on her own. I know homework has a bad name at the "
               "moment, but I am grateful her teacher insisted on it.",
               ("comment", "Priya", "Same with my son! The reading log was a pain but it worked.")],
              "", "Twenty minutes of reading every evening made the difference for Mia.")),
    spec("t2-pro-reasons", 2, ON_PRO, "checklist", (420, 420),
         dict(title="5 ways homework helps",
              items=["Practice makes learning stick", "Builds study habits", "Shows parents what is taught",
                     "Prepares for exams", "Teaches time management"]),
         page("tutors", "blog/5-reasons-homework-helps", "5 reasons homework helps your child succeed",
              ["Homework has many critics, but done well it brings real benefits for students of every age."],
              ["Need help with homework? Our tutors offer online sessions from £15. Book a free trial today."],
              "Five ways homework helps students", xmode="both"),
         fmt="png"),
    spec("t2-con-kids-march", 2, ON_CON, "protest", (560, 420),
         dict(slogan="LET KIDS BE KIDS - NO HOMEWORK!", signs=["WEEKENDS ARE FOR PLAYING", "HOMEWORK-FREE FRIDAYS"],
              children=True, ink="#6a4c93"),
         page("chronicle", "pupils-march-for-homework-free-weekends", "Pupils march for homework-free weekends",
              ["About two hundred pupils and their parents gathered outside the education office on Saturday to "
               "demand an end to weekend homework.",
               "The children carried home-made signs; one ten-year-old told reporters that she spends “all of "
               "Sunday” on worksheets."],
              ["The organisers, the parents' group Time To Play, say homework harms family life and does nothing "
               "for primary-age children. The education office said schools set their own homework policies."],
              "Children with placards calling for no homework", "Pupils and parents at Saturday's protest.")),
    spec("t2-con-stress", 2, ON_CON, "bar", (480, 360),
         dict(title="Students who say homework stresses them (%)", labels=["Year 7", "Year 9", "Year 11"],
              values=[38, 56, 71], unit="%", arrow_dir="up", arrow_colour="#c0392b", bar="#e07a5f"),
         page("financewatch", "homework-top-source-of-stress", "Homework is the top source of stress, survey finds",
              ["Seven in ten Year 11 students say homework is a major source of stress – more than exams, "
               "friendships or social media.",
               "The survey of 4,200 students also found that stress rises steadily through secondary school."],
              ["“We are asking teenagers to work a second shift every evening,” said the report's author. “The "
               "risks to their mental health are clear; the benefits of this much homework are not.”"],
              "Bar chart showing stress rising from 38% to 71%")),
    spec("t2-con-buried", 2, ON_CON, "cartoon", (480, 400),
         dict(text="It's 11 pm and I'm still not done...", who="none", scene="pile",
              bg=("#1d3557", "#457b9d")),
         page("parentsvoice", "homework-steals-childhood", "Homework steals childhood",
              ["My son is eleven. He gets up at seven, spends six hours at school and then another two hours at "
               "the kitchen table.",
               "When does he play? When does he read for fun, build things, get bored?"],
              ["Homework at this age does more harm than good. It turns learning into a chore and evenings into "
               "a battle. Schools should drop it."],
              "Cartoon of a boy buried under a pile of schoolbooks late at night")),
    spec("t2-con-sleep", 2, ON_CON, "info", (440, 400),
         dict(title="Late-night homework",
              rows=[("Homework hours", "up", "#c0392b"), ("Sleep", "down", "#c0392b"),
                    ("Mood", "down", "#c0392b")], title_bg="#3d405b"),
         page("teensleep", "late-night-homework", "Late-night homework cuts into teenagers' sleep",
              ["Teenagers need eight to ten hours of sleep. Most get fewer than seven on school nights, and "
               "homework is one of the main reasons."],
              ["Every extra hour of homework after 9 p.m. meant about 40 minutes less sleep. Lack of sleep harms "
               "concentration, mood and, ironically, learning. We urge schools to set limits on homework."],
              "Infographic: more homework hours, less sleep, worse mood",
              "Source: Teen Sleep Matters survey 2023.")),
    spec("t2-con-age11", 2, ON_CON, "poster", (480, 360),
         dict(lines=[("NO HOMEWORK BEFORE AGE 11", 3, "#d62828"), ("Let children play", 1, "#003049")],
              bg="#fcbf49", border="#003049"),
         page("timetoplay", "our-campaign", "No homework in primary school",
              ["Time To Play is a group of parents and teachers who believe primary school children should not "
               "get homework.",
               "Research finds little or no benefit from homework before secondary school, while the costs – "
               "tears, arguments and lost play time – are real."],
              ["Sign our open letter to the education minister."],
              "Campaign poster: no homework before age 11", xmode="both")),
    spec("t2-con-age12", 2, ON_CON, "poster", (480, 360),
         dict(lines=[("NO HOMEWORK BEFORE AGE 12", 3, "#d62828"), ("Let children play", 1, "#003049")],
              bg="#fcbf49", border="#003049"),
         page("parentsforum", "threads/should-our-school-drop-homework", "Should our school drop homework?",
              ["Our parents' council is proposing that the school drops homework until secondary. We made our "
               "own version of the poster that's been going round (our kids move up at 12 here).",
               "What do people think? Half the parents love the idea, the other half are furious."],
              [("reply", "kestrel_mum", "Fully behind it. My eight-year-old cries over spelling lists every "
                                        "Sunday. Something has to give."),
               ("reply", "DadOfThree", "I'd rather they read every night than nothing at all, but the "
                                       "worksheets can go.")],
              None), near=("t2-con-age11",)),
    spec("t2-neutral-timetable", 2, ON_NONE, "timetable", (480, 360),
         dict(title="Year 7 homework timetable",
              rows=[("Mon", "Maths - 20 min"), ("Tue", "English - 20 min"), ("Wed", "Science - 20 min"),
                    ("Thu", "French - 15 min"), ("Fri", "Reading log")]),
         page("ashgrove", "parents/homework", "Homework",
              ["Homework is set on the days shown below. Tasks are posted on the school's learning platform by "
               "4 p.m."],
              ["If your child cannot access the platform, please contact the school office."],
              "Year 7 homework timetable")),
    spec("t2-neutral-whiteboard", 2, ON_NONE, "photo", (480, 320), dict(scene="whiteboard"),
         page("stockpix", "photo/classroom-whiteboard-homework", "Classroom whiteboard with homework assignment",
              ["Free stock photo: a classroom whiteboard with the homework for the week written in blue marker."],
              [("li", ["homework", "classroom", "school", "whiteboard", "education"]),
               "Free for commercial use. No attribution required."],
              "Whiteboard with homework page 42 exercises 1 to 5", xmode="both")),
    spec("t2-mixed-balance", 2, ON_BOTH, "balance", (480, 380),
         dict(title="HOMEWORK?", left="Practice, habits", right="Stress, less play"),
         page("debateclub", "motions/abolish-homework", "Motion: This house would abolish homework",
              ["Both sides of this debate draw on real evidence, which is what makes it a good motion for "
               "beginners."],
              [("h2", "For the motion"),
               "Homework causes stress, takes time from play and family, and gives little benefit in primary "
               "school.",
               ("h2", "Against the motion"),
               "Homework gives practice, builds independent study habits and lets parents see what their "
               "children learn."],
              "A balance weighing the arguments for and against homework")),
    spec("t2-dist-chores", 2, OFF, "timetable", (420, 380),
         dict(title="Weekly chore chart", head_colour="#f4a261", stripe="#fef3e2",
              rows=[("Mon", "Feed the cat"), ("Tue", "Set the table"), ("Wed", "Tidy room"),
                    ("Thu", "Laundry"), ("Fri", "Water plants")]),
         page("printables", "kids/chore-chart", "Free printable chore chart for kids",
              ["Housework is easier when everyone knows what to do. Print this chart and stick it on the fridge."],
              ["Tip: do chores after homework and before screen time, and give a star for every job done."],
              "Printable weekly chore chart",
              queries=[("homework", 2), ("homework time", 2)])),
    spec("t2-dist-loans", 2, OFF, "line", (480, 340),
         dict(title="Student loan interest rate (%)", labels=["2019", "2020", "2021", "2022", "2023"],
              values=[5.4, 5.6, 4.1, 6.3, 7.1], arrow_dir="up", colour="#6a4c93", arrow_colour="#c0392b"),
         page("financewatch", "student-loan-interest-rises", "Student loan interest rises again",
              ["The interest rate on student loans will rise to 7.1 per cent from September, the highest level "
               "in a decade."],
              ["Students do not repay anything until they earn above the threshold, so monthly payments will not "
               "change for most graduates."],
              "Line chart of student loan interest rates",
              queries=[("homework students", 2)], extra=[("students uniform", 6)]),
         cross={6: (0, 0)}),
    # ------------------------------------------------------------------ topic 3: zoos
    spec("t3-pro-cages", 3, ON_PRO, "protest", (560, 420),
         dict(slogan="EMPTY THE CAGES", signs=["ZOOS ARE PRISONS", "WILD MEANS FREE"], ink="#2b2d42",
              board="#ffd6a5"),
         page("freethem", "campaigns/close-every-zoo", "Why we campaign to close every zoo",
              ["Last weekend our volunteers stood outside Riverton Zoo with one message: empty the cages.",
               "Zoos present themselves as places of education and conservation. For the animals they are places "
               "of boredom and confinement, for life."],
              ["No enclosure can replace the range of a wild animal. We want zoos phased out, their animals moved "
               "to sanctuaries, and the money spent on protecting habitats instead."],
              "Activists outside a zoo with a banner saying empty the cages")),
    spec("t3-pro-lion", 3, ON_PRO, "cartoon", (480, 380),
         dict(text="Is this conservation?", who="lion", scene="cage", bg=("#f6f1e9", "#e9dcc9")),
         page("wildopinion", "zoos-are-prisons-with-gift-shops", "Zoos are prisons with gift shops",
              ["The modern zoo has a good marketing department. The cages are called habitats, the shows are "
               "called enrichment, and the ticket price includes a “conservation contribution”."],
              ["Most animals in zoos belong to species that are not endangered at all, and very few are ever "
               "returned to the wild. It is time to admit that zoos exist for visitors, not for animals, and to "
               "close them."],
              "Cartoon of a lion behind bars asking is this conservation?")),
    spec("t3-pro-say-no", 3, ON_PRO, "poster", (400, 400),
         dict(lines=[("SAY NO TO ZOOS", 3, "#9d0208")], bg="#ffffff", border="#9d0208", icon="paw",
              icon_colour="#370617"),
         page("petitions", "say-no-to-zoos", "Say no to zoos: phase out zoo licences",
              ["To: the Secretary of State for the Environment",
               "We ask the government to stop issuing new zoo licences and to phase out existing zoos over the "
               "next fifteen years."],
              [("h2", "Why is this important?"),
               "Because keeping wild animals in captivity for entertainment cannot be justified. 8,204 supporters "
               "so far."],
              "Say no to zoos", xmode="meta")),
    spec("t3-pro-behaviour", 3, ON_PRO, "bar", (480, 360),
         dict(title="Zoo animals pacing or swaying (%)", labels=["Bears", "Big cats", "Elephants"],
              values=[64, 52, 47], unit="%", bar="#9d0208"),
         page("welfarewatch", "stereotypic-behaviour-survey", "What zoo animals are telling us",
              ["Pacing the same route for hours, swaying, biting the bars: these are signs of stress seen in many "
               "zoo animals and almost never in the wild."],
              ["These numbers are the strongest argument against keeping large, wide-ranging animals in zoos. If "
               "an animal cannot live well in captivity, it should not live in captivity."],
              "Chart of the share of zoo animals showing stereotypic behaviour",
              "Share of animals seen pacing, swaying or over-grooming in our 2022 survey of 40 zoos.")),
    spec("t3-pro-bear", 3, ON_PRO, "photo", (480, 360), dict(scene="bear_concrete"),
         page("sanctuary", "brunos-enclosure", "Bruno's enclosure",
              ["This is Bruno, a brown bear who has lived at a small roadside zoo for nineteen years."],
              ["There is no pool, no soil to dig and nowhere to hide from visitors. Places like this should not "
               "exist. Help us move Bruno to our sanctuary – and close zoos like this one for good."],
              "", "Ten square metres of concrete: this is what “home” looks like for Bruno.", xmode="both")),
    spec("t3-con-save-zoo", 3, ON_CON, "protest", (560, 420),
         dict(slogan="SAVE OUR ZOO", signs=["ZOOS PROTECT SPECIES", "KEEP RIVERTON ZOO OPEN"], children=True,
              ink="#2d6a4f", sky=("#a8dadc", "#f1faee")),
         page("chronicle", "hundreds-rally-to-keep-zoo-open", "Hundreds rally to keep the city zoo open",
              ["Families, schoolchildren and former keepers formed a human chain around Riverton Zoo on Sunday "
               "after the council proposed closing it to save money."],
              ["“This zoo taught my children to love animals,” said one mother. “Closing it would be a loss for "
               "the whole city and for the species it helps to breed.”",
               "The council will decide in April."],
              "Families holding save our zoo signs", "Sunday's rally at the zoo gates.")),
    spec("t3-con-releases", 3, ON_CON, "line", (520, 360),
         dict(title="Animals released to the wild from zoo breeding programmes",
              labels=["2015", "2017", "2019", "2021", "2023"], values=[210, 260, 340, 390, 455],
              arrow_dir="up", colour="#2d6a4f"),
         page("zooassoc", "zoos-an-ark-for-endangered-species", "Zoos are an ark for endangered species",
              ["Some species exist today only because zoos kept them alive. The Arabian oryx, Przewalski's horse "
               "and the California condor all returned to the wild from breeding programmes."],
              ["Abolishing zoos would end this work. The alternative to good zoos is not freedom for animals; for "
               "many species it is extinction."],
              "Line chart of animals released from zoo breeding programmes")),
    spec("t3-con-giraffes", 3, ON_CON, "photo", (512, 384), dict(scene="giraffes"),
         page("safaripark", "blog/modern-zoos-are-not-cruel", "Modern zoos are not cruel",
              ["Critics still picture zoos as rows of iron cages. That picture is forty years out of date."],
              ["Modern zoos are not cruel. Animals have large, varied enclosures, vets on site and programmes to "
               "keep them active. Closing zoos would not help a single animal; it would only cut funding for "
               "conservation."],
              "Giraffes in a large open savannah enclosure",
              "The savannah enclosure at Westmoor covers twelve hectares.")),
    spec("t3-con-vet", 3, ON_CON, "cartoon", (480, 380),
         dict(text="I want to be a vet when I grow up!", who="child", scene="zoo"),
         page("teachnature", "zoo-visits-inspire-children", "Zoo visits inspire children to protect nature",
              ["For many city children a school trip to the zoo is the first time they see a living elephant or "
               "hear a lion roar."],
              ["Teachers say these visits spark an interest in biology and in protecting wildlife that a "
               "documentary cannot. That is why we believe zoos still have an important place."],
              "Cartoon of a girl at the zoo saying she wants to be a vet")),
    spec("t3-con-save-species", 3, ON_CON, "poster", (400, 400),
         dict(lines=[("ZOOS SAVE SPECIES", 3, "#1b4332")], bg="#d8f3dc", border="#1b4332", icon="ark",
              icon_colour="#6f4518"),
         page("keepersnews", "conference-zoos-needed-more-than-ever", "Keepers' conference: zoos needed more "
              "than ever",
              ["At the annual keepers' conference in Eastbury, speakers argued that zoos are needed now more "
               "than ever."],
              ["Habitat loss is accelerating, and for a growing list of species a zoo population is the only "
               "insurance against extinction, said the conference chair."],
              "Poster: zoos save species", xmode="broken")),
    spec("t3-mixed-proscons", 3, ON_BOTH, "proscons", (560, 400),
         dict(title="Should zoos exist?", left_head="FOR ZOOS",
              left=["Breeding rare species", "Education", "Research", "Money for wild habitats"],
              right_head="AGAINST ZOOS",
              right=["Animals confined", "Stress behaviours", "Few animals released", "Profit before welfare"]),
         page("cityexplained", "zoos-for-and-against", "Zoos: the case for and against",
              ["Zoos have changed a lot since the menageries of the 19th century, but the debate about whether "
               "they should exist at all is as lively as ever."],
              ["Defenders stress conservation and education; critics say that no zoo can meet the needs of "
               "wide-ranging animals and that most zoo species are not endangered."],
              "Table of arguments for and against zoos", "The main arguments on both sides.", xmode="both")),
    spec("t3-neutral-calf", 3, ON_NONE, "photo", (480, 360), dict(scene="giraffe_calf"),
         page("rivertonzoo", "news/giraffe-calf-born", "Giraffe calf born at Riverton Zoo",
              ["Riverton Zoo welcomed a female giraffe calf on 2 June. Mother and calf are doing well."],
              ["Visitors can see the giraffes daily from 10 a.m. The keepers will announce the calf's name next "
               "month."],
              "Giraffe calf with her mother", "The calf, not yet named, is about 1.8 metres tall.")),
    spec("t3-neutral-visitors", 3, ON_NONE, "line", (480, 340),
         dict(title="Riverton Zoo visitors (thousands per year)", labels=["2019", "2020", "2021", "2022", "2023"],
              values=[412, 160, 298, 390, 405], colour="#6c757d"),
         page("citystats", "tourism/zoo-visitors", "Zoo visitor numbers recover after the pandemic",
              ["Riverton Zoo received 405,000 visitors in 2023, almost as many as before the pandemic. It remains "
               "the city's third most visited attraction after the castle and the cathedral."],
              ["Figures are supplied by the attractions and are not adjusted for season tickets."],
              "Line chart of yearly visitors to Riverton Zoo")),
    spec("t3-dist-death-penalty", 3, OFF, "protest", (520, 390),
         dict(slogan="ABOLISH THE DEATH PENALTY", signs=["JUSTICE NOT REVENGE", "STOP EXECUTIONS"],
              ink="#000000", board="#fdfd96"),
         page("rightsnews", "vigil-against-executions", "Vigil calls for the death penalty to be abolished",
              ["Several hundred people held a candlelit vigil outside the embassy on Thursday, calling for an end "
               "to executions."],
              ["Campaigners say the death penalty has no deterrent effect and that innocent people have been "
               "executed."],
              "Protesters holding a sign saying abolish the death penalty",
              queries=[("abolish zoos", 3), ("Should zoos be abolished?", 3)])),
    spec("t3-dist-party", 3, OFF, "poster", (400, 400),
         dict(lines=[("ZOO PARTY!", 2, "#f77f00"), ("Come as your favourite animal", 1, "#003049")],
              bg="#fff3b0", icon="animals"),
         page("printables", "party/zoo-party-invitation", "Zoo party invitation – free printable",
              ["A bright invitation for a zoo-themed birthday party. Write the details on the back and hand them "
               "out at school."],
              ["Matching bunting, cupcake toppers and animal masks are in the party section."],
              "Zoo party invitation with a giraffe and a lion",
              queries=[("zoo animals", 3), ("zoo", 3)])),
    # ------------------------------------------------------------------ topic 4: four-day week
    spec("t4-pro-output", 4, ON_PRO, "bar", (520, 380),
         dict(title="Output per employee during the trial (index)", labels=["Before", "Month 3", "Month 6"],
              values=[100, 102, 104], arrow_dir="up", bar="#2a9d8f", note="61 firms, four-day week trial"),
         page("worknews", "trial-firms-report-no-drop-in-output",
              "Firms in four-day week trial report no drop in output",
              ["Sixty-one companies that moved their staff to a four-day week without cutting pay report that "
               "output held steady or rose slightly over six months.",
               "Fifty-six of the firms say they will keep the shorter week."],
              ["“We expected a dip and it never came,” said the managing director of a Riverton software firm. "
               "“People are sharper, and they stay.”"],
              "Bar chart showing output per employee rising slightly during the four-day week trial",
              "Average output index across participating firms."),
         page("hrblog", "what-the-four-day-week-trial-taught-us", "What the four-day week trial taught us",
              ["The results of the big trial are in, and they are good news for anyone who has argued for a "
               "shorter week."],
              ["Output did not fall. Sick days did. If you run a team, the case for trying it is now hard to "
               "ignore."],
              None, xmode="both")),
    spec("t4-pro-union", 4, ON_PRO, "protest", (560, 420),
         dict(slogan="32 HOURS - FULL PAY", signs=["4-DAY WEEK NOW", "WORK TO LIVE"], ink="#e63946",
              board="#f1faee"),
         page("union", "campaigns/shorter-week", "Our campaign for a four-day week",
              ["A four-day week with no loss of pay is the next step in a long history of shorter working time.",
               "Our members marched through the city centre on Saturday to make the case."],
              ["Trials show that productivity holds up while stress and sick days fall. We support a 32-hour "
               "week for every worker, not just those in offices.",
               "Join the union today."],
              "Union members marching with a banner for a 32-hour week",
              "United Workers members on Saturday's march.")),
    spec("t4-pro-weekend", 4, ON_PRO, "cartoon", (480, 360),
         dict(text="Three-day weekend? Best decision ever!", who="worker", scene="office"),
         page("hrblog", "our-first-year-with-a-four-day-week", "Our first year with a four-day week",
              ["A year ago we gave our forty staff every Friday off, with the same pay."],
              ["We have not lost a single client and we have hired faster than ever: candidates mention the "
               "four-day week in almost every interview. I would recommend it to any company that can make it "
               "work."],
              "Cartoon of an office worker celebrating a three-day weekend")),
    spec("t4-pro-burnout", 4, ON_PRO, "info", (460, 420),
         dict(title="After the switch to four days",
              rows=[("Burnout", "down", "#2e8b57"), ("Sick days", "down", "#2e8b57"),
                    ("Applications per job", "up", "#2e8b57")], title_bg="#2a9d8f"),
         page("worknews", "four-day-week-not-a-productivity-killer", "A four-day week is not a productivity killer",
              ["Critics warned that a shorter week would mean less work done. The data from the trial say "
               "otherwise."],
              ["Burnout scores fell by a third, sick days by two thirds, and firms received more applications per "
               "vacancy. A four-day week is not a productivity killer; for many firms it is a competitive edge."],
              "Infographic: burnout and sick days down, applications up", xmode="both")),
    spec("t4-pro-calendar", 4, ON_PRO, "calendar", (480, 360),
         dict(title="Our week", days=["MON", "TUE", "WED", "THU", "FRI"], crossed=["FRI"]),
         page("agency", "journal/fridays-off", "Fridays off",
              ["Since March the studio has been closed on Fridays. Everyone works Monday to Thursday, same pay."],
              ["We were nervous. We shouldn't have been: the work is better, and nobody wants to go back."],
              "", "Fridays off since March – and our clients haven't noticed.")),
    spec("t4-pro-commutes", 4, ON_PRO, "info", (460, 420),
         dict(title="Four-day week, fewer commutes",
              rows=[("Car commutes", "down", "#2e8b57"), ("Fuel spending", "down", "#2e8b57"),
                    ("Free time", "up", "#2e8b57")], title_bg="#1d3557"),
         page("climatedaily", "four-day-week-cut-traffic-emissions",
              "A four-day week could cut traffic and emissions",
              ["One day less at the office means one day less of commuting. In the trial, car commutes fell by "
               "a fifth."],
              ["Researchers say a shorter week is a rare policy that is good for workers and for the climate at "
               "the same time."],
              "Infographic: car commutes and fuel spending down, free time up",
              extra=[("city centre traffic", 1)]),
         cross={1: OFF}),
    spec("t4-con-overtime", 4, ON_CON, "bar", (460, 360),
         dict(title="Weekly overtime hours", labels=["5-day week", "4-day week"], values=[2.1, 4.3],
              arrow_dir="up", arrow_colour="#c0392b", bar="#9d0208"),
         page("worknews", "hidden-cost-of-the-four-day-week", "Longer days, more overtime: the hidden cost",
              ["Not every firm in the trial is happy. At a logistics company, staff squeezed five days of work "
               "into four – and then worked more overtime than before."],
              ["“On paper we work 32 hours. In reality we work ten-hour days and answer emails on Friday,” said "
               "one warehouse supervisor. For jobs like his, the four-day week is a bad deal."],
              "Bar chart: overtime doubled after the switch to a four-day week")),
    spec("t4-con-nurse", 4, ON_CON, "cartoon", (480, 360),
         dict(text="Who covers the ward on Friday?", who="nurse", scene="ward"),
         page("nurses", "threads/four-day-week-for-nurses", "Four-day week for nurses – would it even work?",
              ["Our trust is 'consulting' on a four-day week. I don't see how. We are already short of staff on "
               "every shift."],
              [("reply", "nightshift_nat", "Exactly. A four-day week for us just means more agency staff and "
                                           "more twelve-hour shifts. No thanks."),
               ("reply", "RGN_Tom", "Works for office jobs. Wards don't close on Fridays.")],
              "Cartoon of a nurse asking who covers the ward on Friday")),
    spec("t4-con-no-thanks", 4, ON_CON, "poster", (480, 360),
         dict(lines=[("5 DAYS OF WORK IN 4?", 2, "#3a0ca3"), ("NO THANKS", 2, "#d00000")], bg="#f8f9fa",
              border="#3a0ca3"),
         page("workersforum", "threads/compressed-hours", "Compressed hours – anyone else hate it?",
              ["Our manager sold us the four-day week as a perk. It's not a four-day week, it's the same 40 hours "
               "in four days. I'm wrecked by Thursday."],
              [("reply", "forklift_fran", "Same here. I'd take my old five short days back tomorrow."),
               ("reply", "mike_b", "It depends on the job. I like mine, but not if it's 10-hour days.")],
              "5 days of work in 4? No thanks", xmode="meta")),
    spec("t4-con-costs", 4, ON_CON, "info", (460, 420),
         dict(title="Four-day week for small firms",
              rows=[("Staff costs", "up", "#c0392b"), ("Opening hours covered", "down", "#c0392b"),
                    ("Profit", "down", "#c0392b")], title_bg="#6d597a"),
         page("smallbiz", "policy/four-day-week", "Small firms cannot afford a four-day week",
              ["A bakery or a garage cannot close on Fridays, and it cannot hire an extra person to cover the "
               "fifth day."],
              ["For small businesses, a legal four-day week would mean higher costs and lower profits. We oppose "
               "any plan to make it compulsory."],
              "Infographic: staff costs up, opening hours covered and profit down")),
    spec("t4-con-closed-fridays", 4, ON_CON, "photo", (480, 360), dict(scene="office_empty"),
         page("serviceblog", "we-tried-a-four-day-week", "We tried a four-day week. Our customers hated it.",
              ["For six months our support desk closed on Fridays. Tickets piled up, response times doubled and "
               "two of our biggest customers left."],
              ["We have gone back to five days. A four-day week may work for some teams, but not for a service "
               "that customers expect to reach."],
              "Office door with a closed Fridays sign",
              "Customers found our doors shut on Friday.", empty_text=True)),
    spec("t4-mixed-proscons", 4, ON_BOTH, "proscons", (560, 400),
         dict(title="The four-day week", left_head="PROS", left=["More rest", "Fewer sick days", "Easier hiring"],
              right_head="CONS", right=["Longer days", "Hard for shift work", "Customer cover"]),
         page("trialorg", "faq/pros-and-cons", "The four-day week: pros and cons",
              ["Is a four-day week right for your organisation? It depends on the kind of work you do."],
              ["Office teams tend to gain the most. Shift-based and customer-facing services face the hardest "
               "questions about cover."],
              "Pros and cons of the four-day week", xmode="both")),
    spec("t4-neutral-schedule", 4, ON_NONE, "timetable", (480, 360),
         dict(title="Trial schedule", head_colour="#264653",
              rows=[("Mon", "8:00 - 17:00"), ("Tue", "8:00 - 17:00"), ("Wed", "8:00 - 17:00"),
                    ("Thu", "8:00 - 17:00"), ("Fri", "off")]),
         page("trialorg", "the-trial/how-it-works", "How the trial works",
              ["Participating firms reduce working time to 32 hours a week for six months, with no change in "
               "pay. Each firm chooses its own schedule."],
              ["Researchers collect data on output, sick days and staff wellbeing before, during and after the "
               "trial."],
              "Example schedule of the trial, Monday to Thursday")),
    spec("t4-neutral-office", 4, ON_NONE, "photo", (512, 342), dict(scene="office_staff"),
         page("worknews", "sixty-one-firms-start-trial", "Sixty-one firms start four-day week trial",
              ["From Monday, staff at sixty-one companies will work a four-day week as part of a six-month "
               "trial. The firms range from a fish-and-chip shop to a software company."],
              ["Results are expected in the spring."],
              "Staff at one of the participating firms",
              "Staff at Brightline Software, one of the firms taking part.")),
    spec("t4-dist-forecast", 4, OFF, "forecast", (480, 300),
         dict(title="4-day forecast: Riverton",
              days=[("Mon", "sun", "18"), ("Tue", "cloud", "16"), ("Wed", "rain", "13"), ("Thu", "cloud", "15")]),
         page("weather", "forecast/riverton", "Riverton 4-day weather forecast",
              ["Sunny on Monday, turning wetter by midweek with a chance of heavy showers on Wednesday."],
              ["Forecast updated every hour."],
              "Four-day weather forecast for Riverton",
              queries=[("four day week trial", 4), ("four day work week", 4)])),
    spec("t4-dist-planner", 4, OFF, "timetable", (420, 380),
         dict(title="My work week planner", head_colour="#6d597a", stripe="#f2e9e4",
              rows=[("Mon", "To do:"), ("Tue", "To do:"), ("Wed", "To do:"), ("Thu", "To do:"),
                    ("Fri", "To do:")]),
         page("printables", "planners/work-week-planner", "Work week planner – free printable",
              ["Plan your work week at a glance. Print on A4 and use one sheet per week."],
              ["Also available: monthly planners and homework planners for students."],
              "Printable work week planner",
              queries=[("four day work week", 4)], extra=[("homework time", 2)]),
         cross={2: OFF}),
    spec("t4-dist-festival", 4, OFF, "poster", (400, 400),
         dict(lines=[("RIVERSIDE FESTIVAL", 2, "#ffffff"), ("4 DAYS - 40 BANDS", 2, "#ffd60a"),
                     ("July 18-21", 1, "#ffffff")], bg="#240046", icon="sun", icon_colour="#ffd60a"),
         page("festival", "line-up", "Riverside Festival 2024 line-up",
              ["Four days of music on three stages by the river, with camping, food stalls and a kids' field."],
              ["Weekend tickets go on sale on Friday at 9 a.m."],
              "Riverside Festival poster: four days, forty bands",
              queries=[("four day week good", 4)])),
    # ------------------------------------------------------------------ training topic 5: plastic bags
    spec("t5-pro-ban-the-bag", 5, ON_PRO, "protest", (520, 390),
         dict(slogan="BAN THE BAG", signs=["OCEANS NOT PLASTIC", "BRING YOUR OWN"], ink="#0077b6"),
         page("oceanfriends", "campaigns/ban-the-bag", "Ban the bag",
              ["Single-use plastic bags are used for minutes and last for centuries. We are calling for a full "
               "ban."],
              ["Countries that banned them saw bag litter on beaches fall sharply. It is time we did the same."],
              "Campaigners with a ban the bag banner")),
    spec("t5-pro-beach-chart", 5, ON_PRO, "bar", (480, 360),
         dict(title="Plastic bags per 100 m of beach", labels=["2014", "2018", "2022"], values=[31, 14, 6],
              arrow_dir="down", bar="#0096c7", note="after the bag charge"),
         page("coastnews", "bag-litter-down", "Plastic bag litter on beaches falls by four fifths",
              ["Volunteers found far fewer plastic bags on local beaches this year, and campaigners credit the "
               "charge on carrier bags."],
              ["They now want an outright ban on single-use bags to finish the job."],
              "Bar chart of plastic bags found on beaches falling")),
    spec("t5-pro-turtle", 5, ON_PRO, "cartoon", (480, 360),
         dict(text="That's not a jellyfish!", who="turtle", scene="beach", bg=("#caf0f8", "#90e0ef")),
         page("marinecharity", "threats/plastic", "Plastic bags and turtles",
              ["To a hungry turtle, a floating plastic bag looks a lot like a jellyfish."],
              ["Banning single-use bags is one of the simplest things we can do to protect them."],
              "Cartoon turtle next to a plastic bag")),
    spec("t5-pro-bring-your-own", 5, ON_PRO, "poster", (360, 480),
         dict(lines=[("BRING YOUR OWN BAG", 2, "#2d6a4f"), ("Say no to single-use plastic", 1, "#40916c")],
              bg="#f1faee", icon="bag", icon_colour="#95d5b2"),
         page("greengrocer", "our-story/no-plastic-bags", "Why we stopped selling plastic bags",
              ["We stopped offering plastic carrier bags two years ago, and we think every shop should have to do "
               "the same."],
              ["Bring your own bag or buy one of our jute bags for life."],
              "Poster: bring your own bag, say no to single-use plastic")),
    spec("t5-pro-500-years", 5, ON_PRO, "info", (440, 400),
         dict(title="One plastic bag",
              rows=[("Used for 12 minutes", None, "#000000"), ("Lasts up to 500 years", "up", "#c0392b"),
                    ("Ban it", "tick", "#2e8b57")], title_bg="#023e8a"),
         page("oceanfriends", "learn/one-bag", "The life of one plastic bag",
              ["The average plastic bag is used for twelve minutes. It can take centuries to break down."],
              ["That is why we support a ban on single-use bags."],
              "Infographic: used for 12 minutes, lasts 500 years", xmode="both")),
    spec("t5-pro-beach-photo", 5, ON_PRO, "photo", (480, 320), dict(scene="beach_bags"),
         page("coastnews", "readers-photos-gull-bay", "Readers' photos: Gull Bay after the storm",
              ["A reader sent us this picture from Gull Bay on Sunday morning."],
              ["“Every storm it's the same,” she wrote. “Ban them. Nobody needs a bag that is used once.”"],
              "", "What the tide left behind on Gull Bay this morning.")),
    spec("t5-con-paper", 5, ON_CON, "bar", (480, 360),
         dict(title="CO2 per bag (g), single use", labels=["Plastic", "Paper", "Cotton"], values=[33, 61, 272],
              arrow_dir="up", arrow_colour="#c0392b", bar="#6c757d"),
         page("packaging", "lifecycle/paper-vs-plastic", "Paper bags are not greener than plastic",
              ["Banning plastic bags pushes shoppers towards paper and cotton, which need far more energy and "
               "water to make."],
              ["Unless a paper bag is reused several times, the ban makes the climate footprint worse, not "
               "better."],
              "Bar chart of carbon dioxide per bag for plastic, paper and cotton")),
    spec("t5-con-bin-liner", 5, ON_CON, "cartoon", (480, 360),
         dict(text="I reuse every one as a bin liner!", who="adult", scene="shop"),
         page("shopperforum", "threads/bag-ban-pointless", "Bag ban is pointless – change my mind",
              ["Every carrier bag in our house gets reused as a bin liner. Now I have to buy thicker bin bags "
               "instead."],
              [("reply", "thrifty_jo", "This. The ban just moved the plastic to a different aisle."),
               ("reply", "greenpete", "Fair point but most people don't reuse them.")],
              "Cartoon of a shopper saying she reuses bags as bin liners")),
    spec("t5-con-small-shops", 5, ON_CON, "protest", (520, 390),
         dict(slogan="DON'T PUNISH SMALL SHOPS", signs=["NO BAG BAN", "COSTS UP AGAIN"], ink="#6a040f"),
         page("markettraders", "news/bag-ban-protest", "Market traders protest against the bag ban",
              ["Stallholders say paper bags cost them five times as much and tear in the rain."],
              ["“Big supermarkets can absorb it. We can't,” said the union's chair."],
              "Market traders with a banner: don't punish small shops",
              extra=[("car ban protest", 1), ("car free zone shops harm", 1)]),
         cross={1: OFF}),
    spec("t5-con-cotton", 5, ON_CON, "info", (440, 400),
         dict(title="Is the cotton tote better?",
              rows=[("Uses needed to beat plastic: 130", None, "#000000"), ("Water to make it", "up", "#c0392b"),
                    ("Banning plastic bags", "cross", "#c0392b")], title_bg="#6c584c"),
         page("packaging", "lifecycle/cotton-tote", "The cotton tote problem",
              ["A cotton tote must be used more than a hundred times before it beats a plastic bag on climate "
               "impact."],
              ["Most are not. A ban on plastic bags risks replacing a small problem with a bigger one."],
              "Infographic about cotton tote bags", xmode="meta")),
    spec("t5-con-prices", 5, ON_CON, "line", (480, 340),
         dict(title="Average packaging cost per takeaway order (p)", labels=["2021", "2022", "2023"],
              values=[9, 14, 19], arrow_dir="up", colour="#9d0208", arrow_colour="#c0392b"),
         page("takeaway", "news/bag-ban-costs", "Bag ban doubles packaging costs for takeaways",
              ["Takeaway owners say the ban on plastic bags has doubled what they spend on packaging."],
              ["Many say they will have to raise prices again. “The ban hurts us and our customers,” said one."],
              "Line chart of rising packaging costs")),
    spec("t5-con-not-the-problem", 5, ON_CON, "poster", (400, 400),
         dict(lines=[("PLASTIC BAGS ARE NOT THE PROBLEM", 3, "#3c096c"), ("Fix recycling instead", 1, "#5a189a")],
              bg="#e0aaff"),
         page("packaging", "opinion/not-the-problem", "Plastic bags are not the problem",
              ["Bags are a tiny share of plastic waste. Banning them makes people feel good but changes little."],
              ["Better recycling would do far more than a ban."],
              "Poster: plastic bags are not the problem")),
    spec("t5-mixed-proscons", 5, ON_BOTH, "proscons", (520, 380),
         dict(title="Banning plastic bags", left_head="FOR A BAN", left=["Less litter", "Safer for wildlife"],
              right_head="AGAINST A BAN", right=["Paper has a bigger footprint", "Costs for small shops"]),
         page("packaging", "explainers/bag-ban-debate", "The bag ban debate in brief",
              ["Should single-use plastic bags be banned? Here are the main arguments on both sides."],
              ["The answer depends on what replaces them and how often the replacements are reused."],
              "Arguments for and against banning plastic bags")),
    spec("t5-neutral-checkout", 5, ON_NONE, "photo", (480, 320), dict(scene="checkout"),
         page("supermarketnews", "self-checkouts-rise", "Self-checkouts now handle half of all sales",
              ["More than half of all supermarket transactions now go through self-service tills."],
              ["Retailers say the machines free staff for other tasks."],
              "Self-service tills at a supermarket", "Self-service tills with carrier bags.")),
    spec("t5-neutral-price-sign", 5, ON_NONE, "poster", (400, 300),
         dict(lines=[("Carrier bags 10p", 2, "#222222"), ("Please ask at the till", 1, "#555555")], bg="#ffffff",
              border="#ff8800"),
         page("supermarketnews", "bag-charge-rises", "Carrier bag charge rises to 10p",
              ["The minimum charge for a single-use carrier bag rises from 5p to 10p from next month."],
              ["The charge applies to all shops, including small ones."],
              "Sign: carrier bags 10p")),
    spec("t5-dist-surgery", 5, OFF, "poster", (400, 300),
         dict(lines=[("Plastic surgery", 2, "#5e548e"), ("Free first consultation", 1, "#231942")], bg="#f5f3f4"),
         page("clinic", "treatments", "Plastic surgery and cosmetic treatments",
              ["Our surgeons offer a free first consultation for all procedures."],
              ["Finance available. Book online."],
              "Plastic surgery clinic advert", queries=[("plastic bags", 5)])),
    # ------------------------------------------------------------------ training topic 6: school uniforms
    spec("t6-pro-blazers", 6, ON_PRO, "photo", (480, 360), dict(scene="uniform_kids"),
         page("hillside", "about/uniform", "Our uniform",
              ["Every Hillside pupil wears the same navy blazer."],
              ["We believe a uniform helps pupils focus on learning and takes away the pressure to wear "
               "expensive brands."],
              "Pupils in navy blazers", "Uniforms give our pupils a sense of belonging.")),
    spec("t6-pro-same-chances", 6, ON_PRO, "poster", (360, 480),
         dict(lines=[("SAME UNIFORM, SAME CHANCES", 3, "#1d3557"), ("School uniforms for all", 1, "#457b9d")],
              bg="#f1faee", border="#1d3557"),
         page("parentsvoice", "same-uniform-same-chances", "Same uniform, same chances",
              ["Uniforms are the great leveller. Nobody can tell whose parents are rich."],
              ["That is why we want uniforms to stay compulsory."],
              "Poster: same uniform, same chances")),
    spec("t6-pro-bullying", 6, ON_PRO, "bar", (480, 360),
         dict(title="Reported bullying incidents", labels=["Before uniform", "Year 1", "Year 2"],
              values=[48, 35, 29], arrow_dir="down", bar="#457b9d"),
         page("hillside", "news/uniform-two-years-on", "Uniform policy two years on",
              ["Two years after we introduced a uniform, reported bullying has fallen by 40 per cent."],
              ["Staff say fewer arguments about clothes has made for calmer mornings."],
              "Bar chart of bullying incidents falling", xmode="both")),
    spec("t6-pro-mornings", 6, ON_PRO, "cartoon", (480, 360),
         dict(text="No more morning fights about clothes!", who="parent", scene="plain"),
         page("parentsvoice", "uniform-mornings", "Why I love school uniform",
              ["Before uniform, every morning was a negotiation."],
              ["Now it's on the chair, it goes on, done. Uniforms save time and money."],
              "Cartoon of a parent happy about school uniform")),
    spec("t6-pro-cheaper", 6, ON_PRO, "info", (440, 400),
         dict(title="Uniform vs brand clothes",
              rows=[("Cost per year", "down", "#2e8b57"), ("Peer pressure", "down", "#2e8b57"),
                    ("School pride", "up", "#2e8b57")]),
         page("parentsvoice", "uniform-cheaper", "Uniform is cheaper than the alternative",
              ["A year of school uniform costs less than keeping up with brand-name clothes."],
              ["Uniforms protect family budgets."],
              "Infographic comparing uniforms with brand clothes", xmode="meta")),
    spec("t6-con-express", 6, ON_CON, "protest", (520, 390),
         dict(slogan="LET US EXPRESS OURSELVES", signs=["OUR CLOTHES, OUR CHOICE", "NO MORE TIES"], children=True,
              ink="#7b2cbf"),
         page("studentrights", "campaigns/uniform", "Students say no to compulsory uniform",
              ["Students walked out of lessons on Friday to protest against the new uniform rules."],
              ["Uniforms do not improve learning. They take away students' right to express who they are."],
              "Students with a banner: let us express ourselves")),
    spec("t6-con-tie", 6, ON_CON, "cartoon", (480, 360),
         dict(text="My tie doesn't help me learn maths.", who="child", scene="desk"),
         page("studentrights", "stories/tie", "What a tie has to do with learning",
              ["Schools claim uniforms improve learning. There is no good evidence for it."],
              ["The money would be better spent on books."],
              "Cartoon of a pupil saying a tie doesn't help him learn",
              extra=[("homework good for learning", 2)]),
         cross={2: OFF}),
    spec("t6-con-cost", 6, ON_CON, "line", (480, 340),
         dict(title="Average uniform cost per child (GBP)", labels=["2019", "2021", "2023"], values=[290, 315, 337],
              arrow_dir="up", colour="#9d0208", arrow_colour="#c0392b"),
         page("parentsvoice", "uniform-costs-rising", "Uniform costs are rising again",
              ["Branded blazers and logo jumpers sold by a single supplier push up the cost."],
              ["Compulsory uniform is a tax on families. Schools should drop it or allow cheap plain clothing."],
              "Line chart of rising uniform costs")),
    spec("t6-con-discipline", 6, ON_CON, "poster", (400, 400),
         dict(lines=[("UNIFORMS DON'T MAKE DISCIPLINE", 3, "#370617"), ("Good teaching does", 1, "#6a040f")],
              bg="#ffe5d9"),
         page("studentrights", "opinion/discipline", "Uniforms don't make discipline",
              ["The idea that a blazer makes pupils behave is a myth."],
              ["Good teaching, not uniform rules, is what matters."],
              "Poster: uniforms don't make discipline")),
    spec("t6-con-freedom", 6, ON_CON, "info", (440, 400),
         dict(title="Strict uniform rules",
              rows=[("Self-expression", "down", "#c0392b"), ("Cost to families", "up", "#c0392b"),
                    ("Comfort", "down", "#c0392b")], title_bg="#7b2cbf"),
         page("studentrights", "campaigns/uniform-facts", "Uniform rules: what they really cost",
              ["Strict uniform rules limit self-expression and cost families money."],
              ["We are against compulsory uniform."],
              "Infographic: self-expression down, cost up, comfort down", xmode="both")),
    spec("t6-con-own-clothes", 6, ON_CON, "photo", (480, 360), dict(scene="own_clothes"),
         page("parentsvoice", "no-uniform-school", "A school without a uniform",
              ["Hillbrook Primary has never had a uniform."],
              ["Its head teacher says the school has no plans to introduce one."],
              "", "At Hillbrook, pupils have worn their own clothes since 1998 – and results are among the best "
                  "in the county.")),
    spec("t6-mixed-balance", 6, ON_BOTH, "balance", (480, 380),
         dict(title="SCHOOL UNIFORM?", left="Equality, focus", right="Cost, expression", tilt=0.02),
         page("parentsvoice", "uniform-debate", "The uniform debate",
              ["Should students have to wear school uniforms? Parents are split."],
              ["We asked readers for their views and got arguments on both sides."],
              "A balance weighing arguments about school uniform")),
    spec("t6-neutral-price-list", 6, ON_NONE, "timetable", (420, 380),
         dict(title="Hillside uniform price list",
              rows=[("Blazer", "32.00"), ("Tie", "6.00"), ("Jumper", "14.00"), ("Skirt", "16.00"),
                    ("Trousers", "15.00")], head_colour="#1d3557"),
         page("uniformshop", "schools/hillside-academy", "Hillside Academy uniform",
              ["All items are embroidered with the school logo. Delivery in 3–5 working days."],
              ["Size guide and returns policy below."],
              "Price list for Hillside Academy uniform")),
    spec("t6-dist-scrubs", 6, OFF, "poster", (400, 300),
         dict(lines=[("Nurse uniforms", 2, "#0077b6"), ("Scrubs from 12.00", 1, "#023e8a")], bg="#e0fbfc"),
         page("scrubs", "scrubs", "Scrubs and nurse uniforms",
              ["Comfortable scrubs in twelve colours."],
              ["Free delivery on orders over £40."],
              "Nurse uniform advert", queries=[("school uniform", 6)])),
]


# --------------------------------------------------------------------------------------------------
# pages: DOM, text, XPaths and rankings

AUTHORS = ["Sarah Whitcombe", "Tom Adeyemi", "Lena Novak", "James Carver", "Aisha Rahman", "Owen Price",
           "Marta Kowalczyk", "Daniel Reyes", "Helen Ashby", "Ravi Menon", "Chloe Martin", "Peter Lund"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def item_nodes(items: list) -> list[Node]:
    nodes = []
    for item in items:
        if isinstance(item, str):
            nodes.append(E("p", item))
        elif item[0] in ("h2", "h3"):
            nodes.append(E(item[0], item[1]))
        elif item[0] == "li":
            nodes.append(E("ul", [E("li", text) for text in item[1]]))
        elif item[0] == "quote":
            nodes.append(E("blockquote", item[1]))
        elif item[0] in ("comment", "reply"):
            continue
        else:
            raise ValueError(item)
    return nodes


def comments_of(items: list) -> list[tuple[str, str, str]]:
    return [item for item in items if isinstance(item, tuple) and item[0] in ("comment", "reply")]


def head_node(site: dict, pg: Page, title: str, url: str, img_url: str | None, rng: random.Random) -> Node:
    first = next((b for b in pg.before if isinstance(b, str)), pg.h1)
    description = first if len(first) <= 160 else first[:157].rsplit(" ", 1)[0] + "…"
    metas = [E("meta", charset="utf-8"),
             E("meta", name="viewport", content="width=device-width, initial-scale=1")]
    optional = [E("meta", name="robots", content="index, follow"),
                E("meta", name="theme-color", content=rng.choice(["#ffffff", "#1d3557", "#2a9d8f"])),
                E("meta", name="generator", content=rng.choice(["WordPress 6.2", "Hugo 0.111", "Drupal 9"])),
                E("meta", http_equiv="X-UA-Compatible", content="IE=edge")]
    metas += rng.sample(optional, rng.randint(0, len(optional)))
    nodes = metas + [E("title", title), E("meta", name="description", content=description),
                     E("link", rel="stylesheet", href=f"https://{site['domain']}/assets/css/main.css")]
    social = [E("meta", property="og:site_name", content=site["name"]), E("meta", property="og:title", content=pg.h1),
              E("meta", property="og:type", content="article"), E("meta", property="og:url", content=url)]
    if img_url:
        social.append(E("meta", property="og:image", content=img_url))
        social.append(E("meta", property="og:image:alt", content=pg.alt or pg.h1))
    social.append(E("meta", name="twitter:card", content="summary_large_image"))
    nodes += social
    nodes.append(E("script", src=f"https://{site['domain']}/assets/js/app.{rng.randrange(16**8):08x}.js"))
    nodes.append(E("script", "window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}"))
    return E("head", nodes)


def build_page(spec_: Spec, pg: Page, img_url: str, url: str, rng: random.Random):
    """The page's DOM as HTML, its text, its XPaths, and the nodes they should reach."""
    site = SITES[pg.site]
    title = rng.choice([f"{pg.h1} | {site['name']}", f"{pg.h1} – {site['name']}", f"{pg.h1} - {site['name']}"])
    author = rng.choice(AUTHORS)
    date = f"{rng.randint(1, 28)} {rng.choice(MONTHS)} {rng.choice([2021, 2022, 2023])}"
    in_body = pg.xmode in ("img", "both", "broken")
    in_meta = pg.xmode in ("meta", "both")
    head = head_node(site, pg, title, url, img_url if in_meta else None, rng)

    img = None
    if in_body and pg.xmode != "broken":
        attrs = dict(src=img_url, width=str(spec_.size[0]), height=str(spec_.size[1]))
        if pg.alt is not None:
            attrs["alt"] = pg.alt
        if rng.random() < 0.3:
            attrs["loading"] = "lazy"
        img = E("img", **attrs)
    media_holder = img if img is not None else (E("div", cls="img-placeholder") if pg.xmode == "broken" else None)

    before, after = item_nodes(pg.before), item_nodes(pg.after)
    comments = comments_of(pg.after)
    cookie = None
    if site.get("cookie") is not None:
        text, buttons = COOKIE_BANNERS[site["cookie"]]
        cookie = E("div", E("p", text), E("div", [E("button", b) for b in buttons], cls="cookie-buttons"),
                   id="cookie-notice", cls="cookie-banner")
    nav = E("nav", E("ul", [E("li", E("a", item, href=f"/{item.lower().replace(' ', '-')}")) for item in site["nav"]]))
    footer = E("footer", [E("p", item) for item in site["footer"]])
    layout = site["layout"]

    def figure():
        if media_holder is None:
            return None
        if pg.caption is None and rng.random() < 0.5:
            return E("div", media_holder, cls="image-wrap")
        return E("figure", media_holder, E("figcaption", pg.caption) if pg.caption else None)

    if layout == "news":
        comment_nodes = [E("div", E("p", E("strong", u)), E("p", t), cls="comment") for _, u, t in comments]
        body = E("body", cookie,
                 E("header", E("div", E("a", site["name"], href="/"), cls="brand"), nav, cls="site-header"),
                 E("div",
                   E("main",
                     E("article", E("h1", pg.h1), E("p", f"By {author} · {date}", cls="byline"), before,
                       figure(), after,
                       E("div", E("a", "Share"), E("a", "Facebook"), E("a", "X"), E("a", "Email"), cls="share")),
                     id="content"),
                   E("aside", E("h3", "Most read"),
                     E("ul", [E("li", E("a", t)) for t in rng.sample(HEADLINES, 3)]), cls="related"),
                   E("div", comment_nodes, cls="comments") if comment_nodes else None,
                   cls="container"),
                 footer)
    elif layout == "blog":
        comment_nodes = [E("div", E("p", E("strong", u), " says:"), E("p", t), cls="comment") for _, u, t in comments]
        if media_holder is not None:
            media = [E("p", media_holder)]
            if pg.caption:
                media.append(E("p", pg.caption, cls="wp-caption-text"))
        else:
            media = []
        body = E("body",
                 E("div",
                   E("div", E("div", site["name"], cls="site-title"), E("div", [E("a", n, href="#") for n in site["nav"]],
                                                                        id="menu"), id="header"),
                   cookie,
                   E("div",
                     E("div", E("h1", pg.h1, cls="entry-title"),
                       E("div", f"Posted on {date} by {author}", cls="entry-meta"),
                       E("div", before, media, after, cls="entry"),
                       E("div", "Posted in ", E("a", rng.choice(["Opinion", "Life", "News", "Notes"])), cls="post-tags"),
                       cls="post"),
                     E("div", E("h3", f"{len(comment_nodes)} comments"), comment_nodes, E("h3", "Leave a reply"),
                       id="comments"),
                     id="content"),
                   E("div", [E("p", item) for item in site["footer"]], id="footer"),
                   id="wrapper"))
    elif layout == "campaign":
        if media_holder is not None:
            linked = E("a", media_holder, href=img_url) if rng.random() < 0.5 else media_holder
            media = E("div", linked, E("p", pg.caption, cls="caption") if pg.caption else None, cls="col-media")
        else:
            media = None
        body = E("body", cookie, E("div", E("a", site["name"], href="/", cls="logo"), nav, cls="topbar"),
                 E("section", E("div", E("h1", pg.h1), cls="inner"), cls="hero"),
                 E("section", E("div", E("div", before, cls="col-text"), media, E("div", after, cls="col-text"),
                                cls="row"), cls="content"),
                 E("div", E("a", rng.choice(["Join us", "Sign up for updates", "Get involved"]), href="/join"),
                   E("a", "Donate", href="/donate"), cls="cta"),
                 footer)
    elif layout == "petition":
        media = E("div", media_holder, cls="media") if media_holder is not None else None
        body = E("body", cookie, E("header", E("a", site["name"], href="/"), nav),
                 E("main",
                   E("div", E("h1", pg.h1), E("p", f"Started by {author} · {date}", cls="starter"), cls="petition-head"),
                   E("div", media, E("div", before, after, cls="text"), cls="petition-body"),
                   E("div", E("p", "Sign this petition"), E("button", "Sign"), E("p", "Share on social media"),
                     cls="sidebar")),
                 footer)
    elif layout == "forum":
        first = E("div", E("div", E("a", rng.choice(["Riv_Resident", "quietlurker", "mumof2", "anon_worker"])),
                           E("span", date), cls="author"),
                  E("div", before, media_holder, E("p", pg.caption) if pg.caption else None, after, cls="post-body"),
                  cls="post")
        replies = [E("div", E("div", E("a", u), cls="author"), E("div", E("p", t), cls="post-body"), cls="post")
                   for _, u, t in comments]
        body = E("body", cookie, E("div", E("a", site["name"], href="/"), nav, id="forum-header"),
                 E("div", E("a", "Forums"), " › ", E("a", site.get("section", "General chat")), cls="breadcrumbs"),
                 E("div", E("h1", pg.h1), first, replies, cls="thread"),
                 footer)
    elif layout == "explainer":
        toc = [t[1] for t in pg.before + pg.after if isinstance(t, tuple) and t[0] == "h2"] or ["Overview",
                                                                                                  "Further reading"]
        media = None
        if media_holder is not None:
            media = E("figure", media_holder, E("figcaption", pg.caption) if pg.caption else None)
        body = E("body", cookie,
                 E("div",
                   E("header", E("a", site["name"], href="/", cls="brand"), nav),
                   E("div",
                     E("aside", E("h4", "Contents"), E("ul", [E("li", E("a", t)) for t in toc]), cls="toc"),
                     E("div", E("h1", pg.h1), E("p", f"Updated {date}", cls="updated"),
                       E("section", before, media, after), cls="main"),
                     cls="layout"),
                   footer, cls="page"))
    elif layout == "gov":
        media = None
        if media_holder is not None:
            media = E("div", media_holder, E("p", pg.caption, cls="caption") if pg.caption else None, cls="image")
        body = E("body", cookie,
                 E("div", E("a", "Skip to main content", href="#main"), E("a", site["name"], href="/"),
                   cls="header"),
                 nav,
                 E("div", E("a", "Home", href="/"), " › ", E("a", site["nav"][1], href="#"), cls="breadcrumbs"),
                 E("main", E("div", E("div", E("h1", pg.h1), before, media, after,
                                       E("p", f"Last updated: {date}", cls="updated"), cls="column"),
                                 cls="grid"), id="main"),
                 footer)
    elif layout == "shop":
        gallery = E("div", E("div", media_holder, cls="slide"), cls="gallery") if media_holder is not None else None
        body = E("body", cookie,
                 E("header", E("a", site["name"], href="/"), nav),
                 E("div", rng.choice(["Free delivery on orders over £40", "Sign up for 10% off", "Open 7 days a week"]),
                   cls="promo"),
                 E("main",
                   E("div", gallery, E("div", E("h1", pg.h1), before, cls="info"), cls="product"),
                   E("div", E("p", pg.caption) if pg.caption else None, after, cls="details")),
                 footer)
    else:
        raise ValueError(layout)

    root = E("html", head, body, lang="en")
    dom = "<!DOCTYPE html>\n" + serialise(root) + "\n"
    text = "" if pg.empty_text else page_text(body)

    xpaths, targets = [], []
    if img is not None:
        xpaths.append(xpath_of(img))
        targets.append(("img", img_url))
    if pg.xmode == "broken":
        xpaths.append(xpath_of(media_holder.parent) + "/IMG[1]")
        targets.append(("missing", img_url))
    if in_meta:
        og = next(n for n in head.children if isinstance(n, Node) and ("property", "og:image") in n.attrs)
        xpaths.append(xpath_of(og))
        targets.append(("meta", img_url))
    return dom, text, xpaths, targets


HEADLINES = ["Council approves new budget after long debate", "Bridge repairs to close Riverside Road",
             "Local bakery wins national award", "Rain expected to continue into next week",
             "Library extends opening hours", "New cycle lanes planned for the east side",
             "Hospital car park charges to rise", "Schools prepare for inspection season",
             "Football club unveils new stadium plans", "Police appeal after break-ins on Mill Lane"]


def stance_of(label: tuple) -> str:
    on, pro, con = label
    if not on:
        return "off"
    return {(1, 0): "pro", (0, 1): "con", (1, 1): "mixed", (0, 0): "neu"}[(pro, con)]


def pick_queries(spec_: Spec, pg: Page, rng: random.Random) -> list[tuple[str, int]]:
    if pg.queries is not None:
        return list(pg.queries)
    topic = TOPICS[spec_.topic]
    stance = stance_of(spec_.label)
    pool = {"pro": topic["pro"] + topic["neu"], "con": topic["con"] + topic["neu"],
            "mixed": topic["pro"] + topic["con"] + topic["neu"],
            "neu": topic["neu"] + topic["pro"][:1] + topic["con"][:1]}[stance]
    n = rng.choice([1, 2, 2, 3])
    chosen = rng.sample(pool, n)
    if rng.random() < 0.5:
        chosen = [topic["title"]] + chosen[: max(1, n - 1)]
    return [(q, spec_.topic) for q in chosen]


def image_url(spec_: Spec, pg: Page, rng: random.Random) -> str:
    site = SITES[pg.site]
    ext = {"photo": "jpg", "bar": "png", "line": "png", "info": "png", "proscons": "png"}.get(
        spec_.kind, rng.choice(["jpg", "png", "jpg", "webp"]))
    if spec_.fmt == "png":
        ext = "png"
    # a file name as a CMS would give it: a camera name for photos, otherwise words from the page's slug
    words = [w for w in pg.slug.rsplit("/", 1)[-1].split("-") if w][:4]
    if spec_.kind == "photo":
        stem = rng.choice(["IMG_", "DSC0", "P10"]) + f"{rng.randint(1000, 9999)}"
    else:
        stem = "-".join(words) + rng.choice(["", "", f"-{rng.randint(1, 9)}", "-1024x768", "-scaled"])
    folder = rng.choice(["wp-content/uploads/2023/05", "images", "media/articles", "assets/img", "sites/default/files"])
    host = site["domain"] if rng.random() < 0.7 else "cdn." + site["domain"].removeprefix("www.")
    return f"https://{host}/{folder}/{stem}.{ext}"


# --------------------------------------------------------------------------------------------------
# writing


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


def write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)


def topics_xml() -> str:
    out = ["<topics>"]
    for number in (*TEST_TOPICS, *TRAINING_TOPICS):
        t = TOPICS[number]
        out += ["<topic>", f"<number>{number}</number>", f"<title>{html.escape(t['title'], quote=False)}</title>"]
        for part in ("description", "narrative"):
            if part in t:
                out += [f"<{part}>", html.escape(t[part], quote=False), f"</{part}>"]
        out.append("</topic>")
    out.append("</topics>")
    return "\n".join(out) + "\n"


def main() -> int:
    import lxml.html

    by_name = {s.name: s for s in SPECS}
    assert len(by_name) == len(SPECS), "duplicate image names"
    ids = {s.name: image_id(s.name) for s in SPECS}
    assert len(set(ids.values())) == len(ids)

    if COLLECTION.exists():
        shutil.rmtree(COLLECTION)
    COLLECTION.mkdir(parents=True)

    qrels: dict[tuple[int, str], tuple[int, int, int]] = {}
    training: dict[tuple[int, str], tuple[int, int]] = {}
    hashes: dict[str, int] = {}
    problems: list[str] = []
    page_ids: set[str] = set()

    drawn: dict[str, Image.Image] = {}
    for s in SPECS:
        iid = ids[s.name]
        folder = COLLECTION / "images" / iid[:3] / iid
        if s.derive:  # the same drawing as another image, resized and recompressed
            base_name, scale = s.derive
            im = drawn[base_name].resize(s.size, Image.Resampling.LANCZOS)
            data = encode(im, s)
            value = stored_hash(data)
        else:
            best = None
            for variant in range(MAX_VARIANTS):
                im = render(s, variant)
                data = encode(im, s)
                value = stored_hash(data)
                others = [hashes[n] for n in hashes if n not in s.near]
                gap = int(hamming(np.array(others, dtype=np.uint64), value).min()) if others else 64
                if best is None or gap > best[0]:
                    best = (gap, im, data, value)
                if gap >= MIN_DISTINCT_BITS:
                    break
            gap, im, data, value = best
            if gap < MIN_DISTINCT_BITS:
                problems.append(f"{s.name}: no layout variant at least {MIN_DISTINCT_BITS} bits from the others "
                                f"(best {gap})")
        drawn[s.name] = im
        assert im.size == tuple(s.size), (s.name, im.size)
        write(folder / "image.webp", data)
        hashes[s.name] = value
        write(folder / "image-phash.txt", format_phash(value) + "\n")

        topics_seen = set()
        url_of_image = None
        for k, pg in enumerate(s.pages):
            rng = rng_for(f"{s.name}/page/{k}")
            img_url = image_url(s, pg, rng)
            if url_of_image is None:
                url_of_image = img_url
            img_url = url_of_image
            pid = page_id(f"{s.name}/{k}")
            assert pid not in page_ids
            page_ids.add(pid)
            url = f"https://{SITES[pg.site]['domain']}/{pg.slug}"
            dom, text, xpaths, targets = build_page(s, pg, img_url, url, rng)
            pdir = folder / "pages" / pid
            write(pdir / "page-url.txt", url)
            queries = pick_queries(s, pg, rng) + list(pg.extra)
            lines = [json.dumps({"query": q, "topic": str(t), "rank": rng.randint(1, 100)}, ensure_ascii=False,
                                separators=(",", ":")) for q, t in queries]
            topics_seen.update(t for _, t in queries)
            write(pdir / "rankings.jsonl", "\n".join(lines) + "\n")
            write(pdir / "snapshot" / "dom.html", dom)
            write(pdir / "snapshot" / "text.txt", text)
            write(pdir / "snapshot" / "image-xpath.txt", "\n".join(xpaths) + "\n")
            # check every XPath the way the pipeline reads it: lowercased, under lxml
            tree = lxml.html.parse(str(pdir / "snapshot" / "dom.html"))
            for xp, (kind, expected) in zip(xpaths, targets):
                found = tree.xpath(xp.lower())
                if kind == "missing":
                    if found:
                        problems.append(f"{s.name}: deliberate broken XPath resolves: {xp}")
                    continue
                if len(found) != 1:
                    problems.append(f"{s.name}: {xp} -> {len(found)} nodes")
                    continue
                node = found[0]
                value_ = node.get("src") if kind == "img" else node.get("content")
                if node.tag != kind or value_ != expected or (kind == "meta" and node.get("property") != "og:image"):
                    problems.append(f"{s.name}: {xp} -> <{node.tag}> {value_}")
        write(folder / "image-url.txt", url_of_image)

        # judgments
        own = s.topic
        if own in TEST_TOPICS:
            qrels[(own, iid)] = s.label
        else:
            training[(own, iid)] = (s.label[1], s.label[2])
        for other in sorted(topics_seen - {own}):
            if other not in s.cross:
                problems.append(f"{s.name}: found by topic {other} but not judged for it")
        for other, label in s.cross.items():
            if other in TEST_TOPICS:
                qrels[(other, iid)] = label
            else:
                training[(other, iid)] = label

    write(COLLECTION / "topics.xml", topics_xml())
    write(COLLECTION / "training-qrels.txt",
          "".join(f"{t} {stance} {iid} {rating}\n"
                  for (t, iid), (pro, con) in sorted(training.items())
                  for stance, rating in (("PRO", pro), ("CON", con))))
    write(QRELS, "".join(f"{t} {aspect} {iid} {value}\n"
                         for (t, iid), label in sorted(qrels.items())
                         for aspect, value in zip(("ONTOPIC", "PRO", "CON"), label)))

    # near-duplicates: each pair within a few bits, and no other pair that close
    names = list(hashes)
    arr = np.array([hashes[n] for n in names], dtype=np.uint64)
    close = []
    for i, name in enumerate(names):
        dist = hamming(arr[i + 1 :], hashes[name])
        for j in np.nonzero(dist < MIN_DISTINCT_BITS)[0]:
            close.append((name, names[i + 1 + j], int(dist[j])))
    expected = {("t1-pro-badge", "t1-pro-badge-copy"), ("t2-con-age11", "t2-con-age12")}
    for a, b, dist in close:
        print(f"near-duplicate: {a} {b} hamming {dist}")
        if (a, b) not in expected:
            problems.append(f"unexpected near-duplicate {a} {b} ({dist} bits)")
    for a, b in expected:
        if not any((x, y) == (a, b) and dist <= 6 for x, y, dist in close):
            problems.append(f"near-duplicate pair {a} {b} too far apart")

    print(f"{len(SPECS)} images, {len(page_ids)} pages, {len(qrels)} judged (topic, image) pairs in "
          f"qrels.qrels, {len(training)} in training-qrels.txt")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
