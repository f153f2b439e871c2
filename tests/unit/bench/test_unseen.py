"""bench/unseen.py: the page reads each command's JSON into held-out, inner, gap, spread and target; each fusion
section fuses its own year's runs against its own judgments; a command that failed is said to be unmeasured, with
its error; long --run lists are shown as one folder; a child's JSON and timings are read back."""

from __future__ import annotations

import pytest

from bench import unseen

SPREAD = {"sd": 0.05, "min": 0.6, "max": 0.8}


def _fused(cv_mean: float, gain: float) -> dict:
    return {"cv_mean": cv_mean, "cv_inner_mean": cv_mean + 0.01, "cv_spread": SPREAD, "cv_gain": gain,
            "cv_best_single_mean": cv_mean - gain}  # fmt: skip


def _timed(found: dict) -> dict:
    return {"json": found, "command": ["fuse"], "wall_seconds": 1.0, "cpu_seconds": 0.5}


def test_the_fusion_rows_hold_the_held_out_figure_its_inner_one_and_the_target():
    rows = unseen._fusion_rows({"wsum": _fused(0.72, 0.025), "auto": _fused(0.71, 0.015), "rrf": _fused(0.6, -0.1),
                                "combsum": _fused(0.5, -0.2)})  # fmt: skip
    assert [row.met for row in rows] == [True, False, None, None, None]
    assert rows[0].held_out == 0.72 and rows[0].inner == pytest.approx(0.73)
    assert unseen._cells(rows[0])[:5] == ["fuse --method wsum: nDCG@5", "0.7200", "0.7300", "+0.0100",
                                          "0.6000–0.8000, 0.0500"]  # fmt: skip
    assert rows[-1].held_out == pytest.approx(0.695)
    assert unseen._cells(unseen.Row("x", 0.7381, 0.7381 - 1e-12))[3] == "+0.0000"  # no "-0.0000" for a tie


def test_a_targeted_fusion_drawn_over_several_seeds_gets_a_row_of_its_mean_gain_and_its_spread():
    drawn = {**_fused(0.71, 0.015), "cv_repeats": {"seeds": [0, 1, 2], "mean_cv_gain": 0.019,
                                                   "gain_spread": {"sd": 0.007, "min": 0.0097, "max": 0.0266}}}
    rows = unseen._fusion_rows({"wsum": _fused(0.72, 0.025), "auto": drawn, "rrf": _fused(0.6, -0.1),
                                "combsum": _fused(0.5, -0.2)})  # fmt: skip
    assert [row.met for row in rows] == [True, False, None, None, None, None]  # the draws are shown, not judged
    assert unseen._cells(rows[2])[:5] == ["fuse --method auto, 3 draws of the folds (seeds 0–2): gain over the "
                                          "single run, mean and spread over the draws", "0.0190", "", "",
                                          "0.0097–0.0266, 0.0070"]  # fmt: skip


def test_a_stance_set_drawn_over_several_seeds_gets_rows_of_its_mean_figures_and_their_spread():
    per_class = {label: {"f1": 0.5} for label in ("FIRST", "SECOND", "NONE")}
    spread = {"macro_f1": SPREAD, "accuracy": SPREAD}
    found = {"macro_f1": 0.74, "accuracy": 0.87, "cv_inner_macro_f1": 0.73, "cv_inner_accuracy": 0.86,
             "cv_spread": spread, "per_class": per_class, "train_seconds": 8.0, "predict_per_second": 9000.0,
             "batch_predict_per_second": 9500.0}  # fmt: skip
    draws = {"seeds": [0, 1, 2, 3, 4], "mean_macro_f1": 0.43, "macro_f1_spread": {"sd": 0.02, "min": 0.4, "max": 0.45},
             "mean_accuracy": 0.45, "accuracy_spread": {"sd": 0.01, "min": 0.43, "max": 0.46}}  # fmt: skip
    rows = unseen._stance_rows({"stance": [{**found, "cv_repeats": draws}, {**found, "per_class": {}}]})
    figures = [row.figure for row in rows]
    shown = "draws of the folds (seeds 0–4): mean and spread over the draws"
    assert figures[1] == f"CompSent-19: macro-F1, 5 {shown}" and figures[3] == f"CompSent-19: accuracy, 5 {shown}"
    assert unseen._cells(rows[1])[1:5] == ["0.4300", "", "", "0.4000–0.4500, 0.0200"] and rows[1].met is None
    assert not any("Touché stance set" in figure and "draws" in figure for figure in figures)  # drawn once only
    assert not any("agreement" in figure for figure in figures)


def test_a_stance_set_with_its_accuracy_by_agreement_gets_a_row_per_band_after_its_accuracy():
    per_class = {label: {"f1": 0.5} for label in ("FIRST", "SECOND", "NONE")}
    bands = [{"band": "1", "scored": 4082, "accuracy": 0.963}, {"band": "0.6 to 0.8", "scored": 650,
                                                                          "accuracy": 0.51}]  # fmt: skip
    found = {"macro_f1": 0.74, "accuracy": 0.87, "cv_inner_macro_f1": 0.73, "cv_inner_accuracy": 0.86,
             "cv_spread": {"macro_f1": SPREAD, "accuracy": SPREAD}, "per_class": per_class, "train_seconds": 8.0,
             "predict_per_second": 9000.0, "batch_predict_per_second": 9500.0}  # fmt: skip
    rows = unseen._stance_rows({"stance": [{**found, "accuracy_by_agreement": bands}, {**found, "per_class": {}}]})
    assert [row.figure for row in rows[2:4]] == [
        "CompSent-19: accuracy where the annotators' agreement is 1 (4,082 sentences)",
        "CompSent-19: accuracy where the annotators' agreement is 0.6 to 0.8 (650 sentences)"]
    assert [(row.held_out, row.target, row.met) for row in rows[2:4]] == [(0.963, "", None), (0.51, "", None)]


def test_the_quality_models_ceilings_get_a_row_each_without_a_target_after_length():
    found = {"spearman": 0.83, "spearman_inner": 0.83, "spearman_spread": SPREAD, "length_spearman": 0.79,
             "relevance_nDCG@5": 0.60, "quality_nDCG@5": 0.50, "bm25_relevance_nDCG@5": 0.605,
             "bm25_quality_nDCG@5": 0.46, "relevance_nDCG@5_inner": 0.6, "quality_nDCG@5_inner": 0.5,
             "relevance_nDCG@5_spread": SPREAD, "quality_nDCG@5_spread": SPREAD,
             "correlations": {"ceilings": {"true_quality": 0.9, "true_argument_flag": 0.91}}}  # fmt: skip
    rows = unseen._quality_rows({"quality": found})
    assert rows[1].figure == "length in words: Spearman ρ"
    assert [(row.held_out, row.target, row.met) for row in rows[2:4]] == [(0.91, "", None), (0.9, "", None)]
    assert "true argument flag" in rows[2].figure and "a diagnosis, not a result" in rows[3].figure
    assert len(rows) == 6


def test_steps_and_quality_drawn_over_several_seeds_get_a_row_of_each_figures_mean_under_it():
    draws = {"seeds": [0, 1, 2], "mean_rm3": 0.65, "rm3_spread": SPREAD, "mean_ltr": 0.68,
             "ltr_spread": {"sd": 0.015, "min": 0.66, "max": 0.70}}  # fmt: skip
    step = {"nDCG@5": 0.6785, "cv_inner_mean": 0.70, "cv_spread": SPREAD}
    steps = {"bm25_nDCG@5": 0.6286, "bm25_cv_spread": SPREAD, "steps": {"rm3": step, "ltr": step},
             "cv_repeats": draws}  # fmt: skip
    rows = unseen._steps_rows({"steps": steps})
    shown = "3 draws of the folds (seeds 0–2): mean and spread over the draws"
    assert [row.figure for row in rows] == ["BM25: nDCG@5", "BM25 + rm3: nDCG@5", f"BM25 + rm3: nDCG@5, {shown}",
                                            "BM25 + ltr: nDCG@5", f"BM25 + ltr: nDCG@5, {shown}"]  # fmt: skip
    assert unseen._cells(rows[4])[1:5] == ["0.6800", "", "", "0.6600–0.7000, 0.0150"] and rows[4].met is None
    names = ("spearman", "quality_nDCG@5", "relevance_nDCG@5")
    inner = {f"{name}_inner": 0.7 for name in names[1:]}
    quality = {"spearman": 0.83, "spearman_inner": 0.83, "spearman_spread": SPREAD, "length_spearman": 0.79,
               **inner, **{f"{name}_spread": SPREAD for name in names[1:]}, "quality_nDCG@5": 0.87,
               "relevance_nDCG@5": 0.63, "bm25_quality_nDCG@5": 0.4, "bm25_relevance_nDCG@5": 0.6,
               "cv_repeats": {"seeds": [0, 1], **{f"mean_{name}": 0.5 for name in names},
                              **{f"{name}_spread": SPREAD for name in names}}}  # fmt: skip
    figures = [row.figure for row in unseen._quality_rows({"quality": quality})]
    assert figures[1] == "quality model: Spearman ρ, 2 draws of the folds (seeds 0–1): mean and spread over the draws"
    assert figures[4].startswith("BM25 + quality re-ranking: quality nDCG@5, 2 draws") and len(figures) == 7
    assert figures[6].startswith("BM25 + quality re-ranking: relevance nDCG@5, 2 draws")


def test_the_page_has_a_table_per_section_and_names_what_failed():
    section = unseen.SECTIONS[0]
    measured = {"fusion": {label: _timed(_fused(0.72, 0.03)) for label in section.commands}}
    text = unseen.page([section], measured)
    assert text.startswith("# How good is it on unseen data?\n")
    assert "| fuse --method auto: nDCG@5 | 0.7200 | 0.7300 | +0.0100 | 0.6000–0.8000, 0.0500 |" in text
    assert "- `argrank fuse`: 1.0 s wall, 0.5 CPU-s" in text and "What did not help: " in text
    measured["fusion"]["rrf"] = {"error": "argrank: error: boom", "wall_seconds": 0.1, "cpu_seconds": 0.1}
    assert "Not measured: rrf: argrank: error: boom" in unseen.page([section], measured)


@pytest.mark.parametrize(("name", "folder", "qrels", "runs"), [
    ("fusion", "touche-task2/runs-2022", "touche-task2/touche-task2-2022-relevance.qrels", 7),
    ("fusion-2021", "touche-task1/runs-2021-elrond", "touche-task1/touche2021-task1-51-100-relevance.qrels", 4),
])  # fmt: skip
def test_each_fusion_section_fuses_every_run_of_its_year_against_its_own_judgments(shared_data, name, folder, qrels,
                                                                                    runs):  # fmt: skip
    section = next(section for section in unseen.SECTIONS if section.name == name)
    assert list(section.commands) == list(unseen.FUSION_METHODS)
    for method, arguments in section.commands.items():
        assert arguments[arguments.index("--method") + 1] == method and arguments[-1] == "--json"
        drawn = arguments[arguments.index("--cv-repeats") + 1] if "--cv-repeats" in arguments else None
        assert drawn == (str(unseen.DRAWS) if method in ("wsum", "auto") else None)
        assert arguments[arguments.index("--qrels") + 1] == str(shared_data / qrels)
        files = [arguments[at + 1] for at, option in enumerate(arguments) if option == "--run"]
        assert files == sorted(str(path) for path in (shared_data / folder).glob("*.txt")) and len(files) == runs


def test_a_folder_of_runs_is_shown_once_and_shared_paths_from_the_repository():
    arguments = ["fuse", *(o for name in "abc" for o in ("--run", str(unseen.SHARED / "runs" / f"{name}.txt"))),
                 "--method", "wsum"]  # fmt: skip
    assert unseen._shown(arguments) == ["fuse", "--run", "../shared/data/runs/*.txt", "--method", "wsum"]
    two = ["fuse", "--run", "/x/a.txt", "--run", "/x/b.txt"]
    assert unseen._shown(two) == two


def test_a_command_is_run_as_a_child_and_its_failure_kept_in_one_line():
    found = unseen.run_command(["fuse", "--run", "missing.txt", "--run", "other.txt"])
    assert found["error"].startswith("argrank: error:") and "missing.txt" in found["error"]
    assert found["cpu_seconds"] >= 0 and "json" not in found


def test_the_quality_rows_check_both_reranking_targets_against_bm25():
    found = {"spearman": 0.86, "spearman_inner": 0.85, "spearman_spread": SPREAD, "length_spearman": 0.79,
             "relevance_nDCG@5": 0.60, "quality_nDCG@5": 0.50, "bm25_relevance_nDCG@5": 0.605,
             "bm25_quality_nDCG@5": 0.46, "relevance_nDCG@5_inner": 0.6, "quality_nDCG@5_inner": 0.5,
             "relevance_nDCG@5_spread": SPREAD, "quality_nDCG@5_spread": SPREAD}  # fmt: skip
    rows = unseen._quality_rows({"quality": found})
    assert [row.met for row in rows] == [True, None, False, True]
    assert rows[2].target == "≥ BM25 + 0.05 (0.4600 + 0.05)"
