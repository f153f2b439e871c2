"""The names and defaults the evaluation offers before it computes anything, for the command line's options (read
without importing numpy, scipy or ir_measures), and the marks every table of figures uses, one per meaning."""

from collections.abc import Iterable

ALPHA = 0.05  # the level at which a comparison rejects "no difference"
T_TEST = "t"  # Student's paired t-test: PyTerrier's Experiment default
WILCOXON = "wilcoxon"  # the Wilcoxon signed-rank test
FISHER = "fisher"  # Fisher's paired randomization test (random sign flips of the per-topic differences)
TUKEY = "tukey"  # Tukey's HSD over all runs, topics as blocks: every pair, adjusted for all of them
CLASSICAL_TESTS = (T_TEST, WILCOXON)  # the two tests the benchmarks report for every pair
TESTS = (*CLASSICAL_TESTS, FISHER, TUKEY)
PERMUTATIONS = 10_000  # the randomization test's sign flips (all of them where there are fewer)
NO_CORRECTION = "none"  # p-values as the test gives them: PyTerrier's Experiment default
HOLM = "holm"
BONFERRONI = "bonferroni"
CORRECTIONS = (NO_CORRECTION, HOLM, BONFERRONI)
TUKEY_HSD = "tukey-hsd"  # the correction a Tukey comparison records: the test adjusts for all pairs itself
BASELINE_PAIRS = "baselines"  # each run tested against each baseline
ALL_PAIRS = "all"  # every pair of runs tested (as ranx's Report does)
PAIRS = (BASELINE_PAIRS, ALL_PAIRS)
DECIMALS = 4  # figures shown in the terminal's, the paper's and the report's tables (CSV and JSON: all of them)
# Measure names, for help texts: ir_measures' names or trec_eval's (stored as ir_measures').
EXAMPLES = "nDCG@10, P@10 or P_10, AP or map, ndcg_cut_10, R@1000, RR, Judged@5, ERR@10, condensed-nDCG@5"
STANCE = "stance"  # a run's JSON key for its stance scores; no judgments file may be named so

# The marks of the tables of figures, one meaning each, whatever the format (terminal, LaTeX, Markdown, HTML). Bold
# is the best value per measure; a superscript letter names a run significantly worse than the value's; SIGNIFICANT
# marks a difference that is significant; OURS follows the name of a run of ours. `*` is taken: it marks in-sample
# figures (evaluation.in_sample.MARK).
SIGNIFICANT = "\N{DAGGER}"
OURS = "(ours)"
BEST_LEGEND = "the best value per measure in bold"
LETTERS_LEGEND = "a superscript letter marks a significant improvement over the run of that letter"
SIGNIFICANT_LEGEND = f"{SIGNIFICANT} marks a significant difference"
OURS_LEGEND = f"{OURS} marks our runs"


def lower_is_better(measure: str) -> bool:
    """Whether a smaller value of `measure` is the better one (the perspective track's rKL)."""
    return measure.startswith("rKL")


def best_value(values: Iterable[float | None], measure: str) -> float | None:
    """The best of `values` on `measure` (None ignored; None where there is none): the one every table bolds."""
    shown = [value for value in values if value is not None]
    return (min(shown) if lower_is_better(measure) else max(shown)) if shown else None
