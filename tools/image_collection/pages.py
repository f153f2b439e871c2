"""The web pages of the embedded image collection: each page's DOM in one of eight layouts (news, blog, campaign,
petition, forum, explainer, gov, shop) with the site's navigation, cookie banner and footer around the text, its
visible text, the XPaths of the image's node, the queries that found the image and the image's URL.

Every random choice (title format, byline, optional metas, wrappers) comes from the `rng` the caller seeds from the
image's name and the page's number, so a page does not change when another one does.
"""

from __future__ import annotations

import random

from tools.image_collection.dom import E, Node, page_text, serialise, xpath_of
from tools.image_collection.spec import Collection, Page, Spec


def item_nodes(items: list) -> list[Node]:
    """The nodes of a page's paragraphs and tagged items; comments and replies go elsewhere (comments_of)."""
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
    """The page's <head>: the usual metas in a random selection, title, description, social metas (og:image
    where the XPath file names it) and scripts."""
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


def build_page(collection: Collection, spec_: Spec, pg: Page, img_url: str, url: str, rng: random.Random):
    """The page's DOM as HTML, its text, its XPaths, and the nodes they should reach."""
    site = collection.sites[pg.site]
    title = rng.choice([f"{pg.h1} | {site['name']}", f"{pg.h1} – {site['name']}", f"{pg.h1} - {site['name']}"])
    author = rng.choice(collection.authors)
    date = f"{rng.randint(1, 28)} {rng.choice(collection.months)} {rng.choice([2021, 2022, 2023])}"
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
        text, buttons = collection.cookie_banners[site["cookie"]]
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
                     E("ul", [E("li", E("a", t)) for t in rng.sample(collection.headlines, 3)]), cls="related"),
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
                   E("div", E("div", site["name"], cls="site-title"),
                     E("div", [E("a", n, href="#") for n in site["nav"]], id="menu"), id="header"),
                   cookie,
                   E("div",
                     E("div", E("h1", pg.h1, cls="entry-title"),
                       E("div", f"Posted on {date} by {author}", cls="entry-meta"),
                       E("div", before, media, after, cls="entry"),
                       E("div", "Posted in ", E("a", rng.choice(["Opinion", "Life", "News", "Notes"])),
                         cls="post-tags"),
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
                   E("div", E("h1", pg.h1), E("p", f"Started by {author} · {date}", cls="starter"),
                     cls="petition-head"),
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


def stance_of(label: tuple) -> str:
    """pro, con, mixed, neu (on-topic, no side) or off, from (ONTOPIC, PRO, CON)."""
    on, pro, con = label
    if not on:
        return "off"
    return {(1, 0): "pro", (0, 1): "con", (1, 1): "mixed", (0, 0): "neu"}[(pro, con)]


def pick_queries(collection: Collection, spec_: Spec, pg: Page, rng: random.Random) -> list[tuple[str, int]]:
    """The (query, topic) pairs that found the image on this page: the page's own, else a few of its topic's
    queries that suit the image's stance, sometimes with the topic's title."""
    if pg.queries is not None:
        return list(pg.queries)
    topic = collection.topics[spec_.topic]
    stance = stance_of(spec_.label)
    pool = {"pro": topic["pro"] + topic["neu"], "con": topic["con"] + topic["neu"],
            "mixed": topic["pro"] + topic["con"] + topic["neu"],
            "neu": topic["neu"] + topic["pro"][:1] + topic["con"][:1]}[stance]
    n = rng.choice([1, 2, 2, 3])
    chosen = rng.sample(pool, n)
    if rng.random() < 0.5:
        chosen = [topic["title"]] + chosen[: max(1, n - 1)]
    return [(q, spec_.topic) for q in chosen]


def image_url(site: dict, spec_: Spec, pg: Page, rng: random.Random) -> str:
    """Where the image was "found": a file name as a CMS would give it on the site's host or its CDN."""
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
