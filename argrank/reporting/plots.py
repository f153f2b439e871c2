"""The report's plots, as SVG files written by matplotlib: per-topic differences from the baseline, and a
measure's trend over nightly runs.

SVGs are made byte-reproducible (no date, a fixed id salt), so an unchanged experiment writes the same report.
"""

from __future__ import annotations

from pathlib import Path


def difference_plot(path: Path, measure: str, baseline: str, differences: dict[str, dict[str, float]]) -> None:
    """One panel per run: its per-topic difference from `baseline` on `measure`, topics sorted by it (run tag →
    topic → difference)."""
    plt = _pyplot()
    figure, axes = plt.subplots(len(differences), 1, figsize=(7.5, 1.6 * len(differences) + 0.4), squeeze=False)
    for ax, (tag, by_topic) in zip(axes[:, 0], differences.items()):
        ordered = sorted(by_topic.items(), key=lambda item: (item[1], item[0]))
        values = [value for _, value in ordered]
        colours = ["#1a7f37" if v > 0 else "#cf222e" if v < 0 else "#8c959f" for v in values]
        ax.bar(range(len(values)), values, color=colours, width=0.8)
        ax.axhline(0, color="#57606a", linewidth=0.8)
        ax.set_xticks(range(len(values)), [topic for topic, _ in ordered], fontsize=6, rotation=90)
        ax.set_ylabel("Δ", fontsize=8)
        ax.set_title(f"{tag} − {baseline}: {measure} per topic", fontsize=9, loc="left")
        ax.tick_params(axis="y", labelsize=7)
    figure.tight_layout()
    _save(figure, path)


def trend_plot(path: Path, measure: str, series: dict[str, list[tuple[str, float]]]) -> None:
    """A measure's value over nightly records: one line per run (run → [(date, value), …] in order)."""
    plt = _pyplot()
    figure, ax = plt.subplots(figsize=(7.5, 2.6))
    for tag, points in series.items():
        ax.plot([date for date, _ in points], [value for _, value in points], marker="o", markersize=3, label=tag)
    ax.set_title(measure, fontsize=9, loc="left")
    ax.tick_params(labelsize=7)
    ax.tick_params(axis="x", rotation=30)
    ax.legend(fontsize=7, frameon=False)
    figure.tight_layout()
    _save(figure, path)


def _pyplot():
    """pyplot on the file-only backend, imported on first use (it takes a second to import)."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "argrank"
    import matplotlib.pyplot as plt

    return plt


def _save(figure, path: Path) -> None:
    figure.savefig(path, format="svg", metadata={"Date": None})
    figure.clf()
    _pyplot().close(figure)
