"""The names and defaults the evaluation offers before it computes anything, for the command line's options (read
without importing numpy, scipy or ir_measures)."""

ALPHA = 0.05  # what a comparison marks as significant
HOLM = "holm"
BONFERRONI = "bonferroni"
CORRECTIONS = (HOLM, BONFERRONI)
EXAMPLES = "nDCG@10, P@10, AP, R@1000, RR, Judged@5, nDCG(judged_only=True)@5"  # measure names, for help texts
