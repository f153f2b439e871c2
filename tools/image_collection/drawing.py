"""Drawing helpers for the embedded image collection: text fitted into boxes, arrows, ticks and crosses, and the
simple figures (people, buildings, cars, animals, bags) the images are made of, all from Pillow's shapes.

Text uses Pillow's embedded font (ASCII plus a few Latin-1 characters and curly quotes), so no system font is needed.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

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
