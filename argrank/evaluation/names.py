"""The names and defaults the evaluation offers before it computes anything, for the command line's options (read
without importing numpy, scipy or ir_measures)."""

ALPHA = 0.05  # the level at which a comparison rejects "no difference"
T_TEST = "t"  # Student's paired t-test: PyTerrier's Experiment default
WILCOXON = "wilcoxon"  # the Wilcoxon signed-rank test
FISHER = "fisher"  # Fisher's paired randomization test (random sign flips of the per-topic differences)
TUKEY = "tukey"  # Tukey's HSD over all runs, topics as blocks: every pair, adjusted for all of them
CLASSICAL_TESTS = (T_TEST, WILCOXON)  # the two tests the benchmarks report for every pair
TESTS = (*CLASSICAL_TESTS, FISHER, TUKEY)
PERMUTATIONS = 10_000  # the randomization test's sign flips (all of them where there are fewer)
HOLM = "holm"
BONFERRONI = "bonferroni"
CORRECTIONS = (HOLM, BONFERRONI)
# Measure names, for help texts: ir_measures' names or trec_eval's (stored as ir_measures').
EXAMPLES = "nDCG@10, P@10 or P_10, AP or map, ndcg_cut_10, R@1000, RR, Judged@5, ERR@10, condensed-nDCG@5"
STANCE = "stance"  # a run's JSON key for its stance scores; no judgments file may be named so


def lower_is_better(measure: str) -> bool:
    """Whether a smaller value of `measure` is the better one (the perspective track's rKL)."""
    return measure.startswith("rKL")
