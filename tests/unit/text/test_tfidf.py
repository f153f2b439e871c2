"""tfidf_transform gives the matrix a fitted TfidfVectorizer's own transform gives, whatever its settings."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import TfidfVectorizer

from argrank.text.tfidf import tfidf_transform

WORDS = ["a", "b", "objfirst", "is", "better", "than", "Objsecond", "isn't", "x-y", "é", "9"]
documents = st.lists(st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join), min_size=1, max_size=8)
vectorizer_settings = st.fixed_dictionaries(
    {
        "ngram_range": st.sampled_from([(1, 1), (1, 2), (2, 3)]),
        "sublinear_tf": st.booleans(),
        "use_idf": st.booleans(),
        "binary": st.booleans(),
        "norm": st.sampled_from(["l2", "l1", None]),
        "lowercase": st.booleans(),
        "token_pattern": st.sampled_from([r"(?u)\b\w\w+\b", r"\w+(?:'\w+)?"]),
    }
)


def _same(ours, theirs) -> None:
    assert type(ours) is type(theirs)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    for part in ("indptr", "indices", "data"):
        assert np.array_equal(getattr(ours, part), getattr(theirs, part)), part


@settings(max_examples=150, deadline=None)
@given(train=documents, new=documents, chosen=vectorizer_settings)
def test_the_matrix_is_the_vectorizers_own_to_the_last_bit(train, new, chosen) -> None:
    vectorizer = TfidfVectorizer(**chosen)
    try:
        vectorizer.fit(train)
    except ValueError:  # nothing left to count in the training documents: no vocabulary to test
        return
    _same(tfidf_transform(vectorizer, new), vectorizer.transform(new))


def test_a_callable_analyzer_and_terms_never_seen_in_training() -> None:
    vectorizer = TfidfVectorizer(analyzer=str.split, lowercase=False, sublinear_tf=True, min_df=2)
    vectorizer.fit(["F_fast S_slow F_fast", "F_fast S_cheap", "S_slow NO_MENTION"])
    new = ["F_fast F_fast F_fast S_slow", "unknown words only", "", "S_slow S_cheap"]
    ours = tfidf_transform(vectorizer, new)
    _same(ours, vectorizer.transform(new))
    assert ours[1].nnz == 0 and ours[2].nnz == 0 and ours[0].nnz == 2


def test_one_string_is_refused_as_sklearn_refuses_it() -> None:
    vectorizer = TfidfVectorizer().fit(["one document", "another one"])
    with pytest.raises(ValueError, match="one string"):
        tfidf_transform(vectorizer, "one document")
