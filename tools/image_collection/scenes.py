"""The scene-like kinds of image: protest marches with banners, cartoons with a speech balloon and photo-like
scenes (streets, a zoo enclosure, a beach, an office), softened with a blur.

Each `draw_<kind>(rng, w, h, **params)` returns a w×h image; `params` come from the image's entry in
tools/specs/images/. `rng` places the figures and picks the layout variant (colours, mirrored or not).
"""

from __future__ import annotations

from PIL import ImageDraw, ImageFilter, ImageOps

from tools.image_collection.drawing import (
    bag,
    balloon,
    bear,
    buildings,
    car,
    desk,
    giraffe,
    gradient,
    lion,
    person,
    placard,
    text_box,
    tree,
    turtle,
)


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
