"""Whether a perspective ranking is scored on queries its ranker learned from.

Every ranking learns from the training split's judgments (ranking.training_from_queries): every scenario's issue
concepts and each training question's known answers (crosslingual), and the implicit scenario's property guess
(property_guess), whose examples are the judged training queries' arguments. Queries that ask a training question,
or (implicit) whose relevant arguments were the guess's examples, are scored in-sample: the train split always is,
a held-out split is not, nor are perspective-cv's figures, whose folds hold whole issues out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from argrank.evaluation.in_sample import InSample
from argrank.tracks.perspective.data import Query

CROSS_VALIDATE = "cross-validate with argrank perspective-cv"


def perspective_in_sample(
    scenario: str, queries: Sequence[Query], training: Sequence[Query], measures: Iterable[str]
) -> InSample | None:
    """Why every one of `measures` of `queries` (one scenario's) is in-sample for a ranker that learned from the
    `training` queries (baseline and perspective, training_files), or None where none of them was learned from."""
    judged = [query for query in training if query.relevant_candidates]
    questions = {query.text for query in judged}
    examples = {argument for query in judged for argument in query.relevant_candidates}
    reasons = []
    asked = sum(query.text in questions for query in queries)
    if asked:
        reasons.append(
            "the ranker learned its issue concepts and known answers from the training split's judgments of the "
            f"questions these queries ask ({asked} of {len(queries)})"
        )
    if scenario == "implicit":
        guessed = sum(not examples.isdisjoint(query.relevant_candidates or ()) for query in queries)
        if guessed:
            reasons.append(
                "the implicit property guess was fitted on the training split's judged arguments, among them the "
                f"relevant ones of {guessed} of {len(queries)} queries"
            )
    return InSample("; ".join([*reasons, CROSS_VALIDATE]), tuple(measures)) if reasons else None
