"""reporting/plots.py: topic order and bar colours, best cells framed, run colours, the panel grid, file names."""

from __future__ import annotations

import html
import re

import pytest

from argrank.reporting.plots import BETTER, EVEN, WORSE, _grid, difference_plot, plot_file_name, sweep_plot, trend_plot
from argrank.reporting.sweep import Sweep, tables

TAB10 = ("#1f77b4", "#ff7f0e", "#2ca02c")  # the first run's colour, the second's, the third's


def _texts(svg: str) -> list[str]:
    return [html.unescape(found) for found in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def _panels(svg: str) -> list[str]:
    """Each panel's (axes') part of the SVG, in order, the figure's legend left out."""
    return re.split(r'<g id="axes_\d+">', svg.split('<g id="legend_1">')[0])[1:]


def test_topics_are_ordered_by_their_mean_difference_over_the_runs_from_the_bottom(tmp_path):
    differences = {"r1": {"1": 0.25, "2": -0.5, "3": 0.0}, "r2": {"1": -0.75, "3": 0.5}}  # r2 lacks topic 2: 0
    difference_plot(tmp_path / "d.svg", "nDCG@5", "base", differences)
    svg = (tmp_path / "d.svg").read_text(encoding="utf-8")
    labels = re.findall(r'rotate\(-0 [\d.]+ ([\d.]+)\)"[^>]*>(1|2|3)</text>', svg)
    bottom_up = [topic for _, topic in sorted(labels, key=lambda found: -float(found[0]))]
    assert bottom_up == ["1", "2", "3"]  # means −0.25, −0.25 (a tie, by topic) and 0.25
    # Each panel's bars in that order, coloured by the sign of the run's own difference.
    fills = [re.findall(r"fill: (#[0-9a-f]{6})", panel) for panel in _panels(svg)]
    signs = [[colour for colour in panel if colour in (BETTER, WORSE, EVEN)] for panel in fills]
    assert signs == [[BETTER, WORSE, EVEN], [WORSE, EVEN, BETTER]]
    assert "nDCG@5: each run − base, per topic (one scale)" in _texts(svg)


def test_the_same_differences_write_the_same_bytes(tmp_path):
    differences = {"a": {"1": 0.5, "2": -0.25}, "b": {"1": 0.0, "2": 0.125}}
    difference_plot(tmp_path / "one.svg", "P@10", "base", differences)
    difference_plot(tmp_path / "two.svg", "P@10", "base", differences)
    assert (tmp_path / "one.svg").read_bytes() == (tmp_path / "two.svg").read_bytes()


def test_a_one_parameter_sweep_is_one_row_and_all_equal_means_are_all_best(tmp_path):
    [row] = tables(Sweep("r", ("weight",), {(0.5,): "a", (1,): "b"}), {"a": 0.25, "b": 0.25})
    sweep_plot(tmp_path / "s.svg", "sweep r", {"nDCG@5": row})
    svg = (tmp_path / "s.svg").read_text(encoding="utf-8")
    assert _texts(svg) == ["0.5", "1", "weight", "0.2500", "0.2500", "nDCG@5", "sweep r"]
    assert re.findall(r"<text[^>]*font(?:-weight)?: 700[^>]*>([^<]*)</text>", svg) == ["0.2500", "0.2500"]
    assert svg.count("stroke: #cf222e") == 2


def test_a_panel_over_more_parameters_says_which_and_each_measure_is_a_panel(tmp_path):
    runs = {(k1, b, w): f"t{k1}{b}{w}" for k1 in (1, 2) for b in (3, 4) for w in (5, 6)}
    means = {tag: float(sum(key)) for key, tag in runs.items()}
    grids = tables(Sweep("g", ("k1", "b", "w"), runs), means)
    sweep_plot(tmp_path / "s.svg", "sweep g", {f"m · {grid.row} × {grid.column}": grid for grid in grids})
    texts = _texts((tmp_path / "s.svg").read_text(encoding="utf-8"))
    assert "m · k1 × b (best over w)" in texts and "m · b × w (best over k1)" in texts
    assert len(_panels((tmp_path / "s.svg").read_text(encoding="utf-8"))) == 3


def test_a_run_keeps_its_colour_in_every_trend_chart(tmp_path):
    days = [("2025-01-01T02:30:00Z", 0.5), ("2025-01-02T02:30:00Z", 0.625)]
    charts = {"first": {"a": days, "b": days}, "second": {"b": days}, "third": {"c": days, "a": days}}
    trend_plot(tmp_path / "t.svg", "args", charts)
    svg = (tmp_path / "t.svg").read_text(encoding="utf-8")
    panels = _panels(svg)
    colours = [
        {colour for colour in re.findall(r"stroke: (#[0-9a-f]{6})", panel) if colour in TAB10} for panel in panels
    ]
    assert colours[:3] == [{TAB10[0], TAB10[1]}, {TAB10[1]}, {TAB10[0], TAB10[2]}]  # a blue, b orange, c green
    texts = _texts(svg)
    assert [texts.count(run) for run in "abc"] == [1, 1, 1]  # one legend


@pytest.mark.parametrize(
    ("panels", "grid"), [(1, (1, 1)), (2, (1, 2)), (3, (1, 3)), (4, (2, 2)), (5, (2, 3)), (6, (2, 3)), (7, (3, 3))]
)
def test_panels_are_at_most_three_wide_in_rows_as_even_as_they_can_be(panels, grid):
    assert _grid(panels) == grid


@pytest.mark.parametrize(
    ("stem", "name"),
    [
        ("args-relevance-differences-nDCG@5", "args-relevance-differences-nDCG@5.svg"),
        ("sweep k1=(0.9+1.2)", "sweep_k1=(0.9+1.2).svg"),
        ("α-nDCG", "_-nDCG.svg"),
        (".hidden", "hidden.svg"),
        ("", "plot.svg"),
        ("...", "plot.svg"),
    ],
)
def test_a_plot_file_name_keeps_only_plain_characters_and_never_starts_with_a_dot(stem, name):
    assert plot_file_name(stem, []) == name
    assert plot_file_name(stem, [name]) == name.replace(".svg", "-2.svg")
