"""The report's plots, as SVG files written by matplotlib: per-topic differences from the baseline, a sweep's
means as heat maps, and the nightly trend as small multiples.

Every panel of a figure shares what a reader compares across it (one difference scale per measure, one colour
per run), and text is set horizontal at a size a browser shows readably at the page's width. SVGs are made
byte-reproducible (no date, a fixed id salt), so an unchanged experiment writes the same report; their text is
text (the browser sets it), so a label can be searched for.
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

import argrank.lazylibs as lazylibs

if TYPE_CHECKING:
    from argrank.reporting.sweep import Table

COLUMNS = 3  # panels side by side at most: at the page's width each is still wide enough for its labels
BETTER, WORSE, EVEN = "#1a7f37", "#cf222e", "#8c959f"


def plot_file_name(stem: str, files: list[str]) -> str:
    """A plot's file name (SVG) from names that may hold characters a path should not (a measure's "/", anything
    in a track name a history record gives), numbered where it would repeat one of `files`: two plots of one name
    made the publication, and every later run, fail."""
    stem = re.sub(r"[^A-Za-z0-9@._=()+-]", "_", stem).lstrip(".") or "plot"
    name, number = f"{stem}.svg", 1
    while name in files:
        number += 1
        name = f"{stem}-{number}.svg"
    return name


def difference_plot(path: Path, measure: str, baseline: str, differences: dict[str, dict[str, float]]) -> None:
    """One panel per run: its per-topic difference from `baseline` on `measure` (run tag → topic → difference), as
    horizontal bars, topics down the side, every panel on one scale. Topics are in one order for all panels, by
    their mean difference over the runs, so a row is one topic and the panels read as sorted."""
    plt = _pyplot()
    topics = sorted({topic for by_topic in differences.values() for topic in by_topic})
    mean = {t: math.fsum(d.get(t, 0.0) for d in differences.values()) / len(differences) for t in topics}
    order = sorted(topics, key=lambda topic: (mean[topic], topic))
    reach = max((abs(v) for by_topic in differences.values() for v in by_topic.values()), default=0.0) or 1.0
    rows, columns = _grid(len(differences))
    figure, axes = plt.subplots(
        rows, columns, figsize=(3.4 * columns + 0.6, (0.17 * len(order) + 0.9) * rows + 0.4),
        sharex=True, sharey=True, squeeze=False, layout="constrained",
    )  # fmt: skip
    for ax, (tag, by_topic) in zip(axes.flat, differences.items()):
        values = [by_topic.get(topic, 0.0) for topic in order]
        colours = [BETTER if v > 0 else WORSE if v < 0 else EVEN for v in values]
        ax.barh(range(len(order)), values, color=colours, height=0.75)
        ax.axvline(0, color="#57606a", linewidth=0.8)
        ax.set_title(tag, fontsize=10, loc="left")
        ax.set_xlim(-reach * 1.05, reach * 1.05)
        ax.tick_params(labelsize=9, labelbottom=True)
        ax.grid(axis="x", color="#d0d7de", linewidth=0.6)
        ax.set_axisbelow(True)
    for ax in axes.flat[len(differences) :]:
        ax.set_visible(False)
    axes[0, 0].set_yticks(range(len(order)), order)
    axes[0, 0].set_ylim(-0.6, len(order) - 0.4)
    for ax in axes[:, 0]:
        ax.set_ylabel("topic", fontsize=9)
    figure.suptitle(f"{measure}: each run − {baseline}, per topic (one scale)", fontsize=11, x=0.01, ha="left")
    _save(figure, path)


def sweep_plot(path: Path, title: str, panels: dict[str, Table]) -> None:
    """A sweep's means, a heat map per panel (title → Table), each cell's value written in it and the best cell
    (the highest mean; every one of them where several tie) framed and in bold."""
    plt = _pyplot()
    first = next(iter(panels.values()))
    rows, columns = _grid(len(panels))
    width, height = 0.85 * len(first.column_values) + 1.6, 0.5 * len(first.row_values) + 1.3
    figure, axes = plt.subplots(
        rows, columns, figsize=(width * columns, height * rows + 0.4), squeeze=False, layout="constrained"
    )
    for ax, (name, grid) in zip(axes.flat, panels.items()):
        _heat_map(ax, name, grid)
    for ax in axes.flat[len(panels) :]:
        ax.set_visible(False)
    figure.suptitle(title, fontsize=11, x=0.01, ha="left")
    _save(figure, path)


def _heat_map(ax, name: str, grid: Table) -> None:
    cells = np.array([[math.nan if v is None else v for v in row] for row in grid.cells], dtype=float)
    shown = ax.imshow(cells, cmap="viridis", aspect="auto")
    low, high = np.nanmin(cells), np.nanmax(cells)
    for (r, c), value in np.ndenumerate(cells):
        if math.isnan(value):
            continue
        best = value == high  # every cell of the highest mean, where several tie
        light = high > low and (value - low) / (high - low) > 0.6  # viridis is light at its top
        ax.text(c, r, f"{value:.4f}", ha="center", va="center", fontsize=9, weight="bold" if best else "normal",
                color="#1d2329" if light else "white")  # fmt: skip
        if best:
            ax.add_patch(_frame(r, c))
    ax.set_xticks(range(len(grid.column_values)), [str(v) for v in grid.column_values])
    ax.set_xlabel(grid.column, fontsize=9)
    if grid.row is None:
        ax.set_yticks([])
    else:
        ax.set_yticks(range(len(grid.row_values)), [str(v) for v in grid.row_values])
        ax.set_ylabel(grid.row, fontsize=9)
    ax.tick_params(labelsize=9)
    over = f" (best over {', '.join(grid.over)})" if grid.over else ""
    ax.set_title(f"{name}{over}", fontsize=10, loc="left")
    shown.set_clim(low, high if high > low else low + 1)  # all alike: all the colour of the lowest


def _frame(row: int, column: int) -> object:
    """The outline marking a best cell."""
    return lazylibs.matplotlib("patches").Rectangle(
        (column - 0.5, row - 0.5), 1, 1, fill=False, edgecolor="#cf222e", linewidth=2.5
    )


def trend_plot(path: Path, title: str, charts: dict[str, dict[str, list[tuple[str, float]]]]) -> None:
    """Small multiples: one chart per measure (chart title → run → [(date, value), …] in order), each run one colour
    in every chart, and one legend for them all below the charts."""
    plt = _pyplot()
    mdates = lazylibs.matplotlib("dates")

    runs = list(dict.fromkeys(run for lines in charts.values() for run in lines))
    colours = {run: plt.get_cmap("tab10")(index % 10) for index, run in enumerate(runs)}
    rows, columns = _grid(len(charts))
    figure, axes = plt.subplots(
        rows, columns, figsize=(3.4 * columns + 0.4, 2.3 * rows + 0.5 + 0.25 * math.ceil(len(runs) / 3)),
        sharex=True, squeeze=False, layout="constrained",
    )  # fmt: skip
    for ax, (name, lines) in zip(axes.flat, charts.items()):
        for run, points in lines.items():
            dates = [datetime.fromisoformat(date.replace("Z", "+00:00")) for date, _ in points]
            ax.plot(dates, [value for _, value in points], marker="o", markersize=3, color=colours[run], label=run)
        ax.set_title(name, fontsize=10, loc="left")
        ax.tick_params(labelsize=8, labelbottom=True)
        dates = mdates.AutoDateLocator(minticks=2, maxticks=4)  # few ticks: a chart is narrow
        ax.xaxis.set_major_locator(dates)
        ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(dates))
        ax.grid(color="#d0d7de", linewidth=0.6)
    for ax in axes.flat[len(charts) :]:
        ax.set_visible(False)
    handles = [plt.Line2D([], [], color=colours[run], marker="o", markersize=4) for run in runs]
    figure.legend(handles, runs, loc="outside lower center", ncol=min(3, len(runs)), fontsize=9, frameon=False)
    figure.suptitle(title, fontsize=11, x=0.01, ha="left")
    _save(figure, path)


def _grid(panels: int) -> tuple[int, int]:
    """(rows, columns) for `panels` panels, at most COLUMNS wide and the rows as full as they can be evenly (four
    panels are two by two, not three and a lone one)."""
    rows = math.ceil(panels / COLUMNS)
    return rows, math.ceil(panels / rows)


def _pyplot():
    """pyplot on the file-only backend (`lazylibs`), set to write reproducible SVG."""
    plt = lazylibs.matplotlib_pyplot()
    plt.rcParams["svg.hashsalt"] = "argrank"
    plt.rcParams["svg.fonttype"] = "none"  # text as text: the browser sets it sharply, and it can be found
    return plt


def _save(figure, path: Path) -> None:
    figure.savefig(path, format="svg", metadata={"Date": None})
    figure.clf()
    _pyplot().close(figure)
