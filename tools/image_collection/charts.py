"""The chart-like kinds of image: posters, bar and line charts, infographics, pros-and-cons tables, balances,
checklists, timetables, forecasts, the no-cars badge, calendars and the zone map.

Each `draw_<kind>(rng, w, h, **params)` returns a w×h image; `params` come from the image's entry in
tools/specs/images/. Where a chart has layout variants (colours, orientation, side of the title), `rng` picks one.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from tools.image_collection.drawing import arrow, bag, car, cross, giraffe, gradient, lion, text_box, tick


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
            draw_mark(d, mark, mx, my, s, colour)
            text_box(d, (x0 + 10, y_top + h * 0.36, x0 + col - 10, y_top + h * 0.7), label, fill="#222222", size=26)
        return im
    band = h * 0.76 / len(rows)
    for i, (label, mark, colour) in enumerate(rows):
        y0 = (h * 0.22 if title_top else h * 0.02) + band * i
        d.rounded_rectangle([w * 0.05, y0 + 4, w * 0.95, y0 + band - 4], radius=10, fill="#ffffff")
        text_box(d, (w * 0.09, y0 + 8, w * 0.72, y0 + band - 8), label, fill="#222222", size=30, align="left")
        s = min(band * 0.6, w * 0.12)
        mx, my = w * 0.82, y0 + band / 2
        draw_mark(d, mark, mx, my, s, colour)
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


def draw_mark(d, mark: str, mx: float, my: float, s: float, colour: str) -> None:
    """A row's mark of size `s` centred at (mx, my): an arrow up or down, a tick or a cross; nothing for others."""
    if mark == "up":
        arrow(d, mx, my + s / 2, s, "up", colour, width=max(6, int(s / 5)))
    elif mark == "down":
        arrow(d, mx, my - s / 2, s, "down", colour, width=max(6, int(s / 5)))
    elif mark == "tick":
        tick(d, mx - s / 2, my - s / 2, s, colour)
    elif mark == "cross":
        cross(d, mx - s / 2, my - s / 2, s, colour)
