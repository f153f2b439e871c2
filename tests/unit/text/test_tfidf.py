"""tfidf_fit_transform and tfidf_transform leave a TfidfVectorizer fitted, and give the matrices, as its own
fit_transform and transform do, whatever its settings."""

import pickle
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import TfidfVectorizer

from argrank.text.tfidf import tfidf_fit_transform, tfidf_transform

WORDS = ["a", "b", "objfirst", "is", "better", "than", "Objsecond", "isn't", "x-y", "é", "9"]
documents = st.lists(st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join), min_size=1, max_size=8)
vectorizer_settings = st.fixed_dictionaries(
    {
        "ngram_range": st.sampled_from([(1, 1), (1, 2), (2, 3), (1, 3)]),
        "sublinear_tf": st.booleans(),
        "use_idf": st.booleans(),
        "binary": st.booleans(),
        "norm": st.sampled_from(["l2", "l1", None]),
        "lowercase": st.booleans(),
        "token_pattern": st.sampled_from([r"(?u)\b\w\w+\b", r"\w+(?:'\w+)?"]),
        "stop_words": st.sampled_from([None, ["is", "than"]]),
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


fitting_settings = st.fixed_dictionaries(
    {"min_df": st.sampled_from([1, 2, 3, 0.2, 0.5]), "max_df": st.sampled_from([1.0, 0.7, 3, 0.3])}
).flatmap(lambda pruning: vectorizer_settings.map(lambda chosen: {**chosen, **pruning}))


@settings(max_examples=300, deadline=None)
@given(train=documents, chosen=fitting_settings)
def test_fitting_leaves_the_vectorizer_as_its_own_fit_does_and_the_matrix_in_its_order(train, chosen) -> None:
    """The same vocabulary (terms listed by first occurrence), the same weights, the same matrix with each row's
    entries in the same order, or the same error where nothing is left to count."""
    theirs, ours = TfidfVectorizer(**chosen), TfidfVectorizer(**chosen)
    try:
        expected = theirs.fit_transform(train)
    except ValueError as error:
        with pytest.raises(ValueError, match=re.escape(str(error))):
            tfidf_fit_transform(ours, train)
        return
    _same(tfidf_fit_transform(ours, train), expected)
    assert list(ours.vocabulary_.items()) == list(theirs.vocabulary_.items())
    assert pickle.dumps(ours) == pickle.dumps(theirs)


def test_fitting_with_a_callable_analyzer_prunes_rare_terms_and_transforms_alike() -> None:
    train = ["F_fast S_slow F_fast", "F_fast S_cheap", "S_slow NO_MENTION"]
    theirs = TfidfVectorizer(analyzer=str.split, lowercase=False, sublinear_tf=True, min_df=2)
    ours = TfidfVectorizer(analyzer=str.split, lowercase=False, sublinear_tf=True, min_df=2)
    _same(tfidf_fit_transform(ours, train), theirs.fit_transform(train))
    assert ours.vocabulary_ == {"F_fast": 0, "S_slow": 1}
    _same(tfidf_transform(ours, ["S_slow F_fast", "S_cheap"]), theirs.transform(["S_slow F_fast", "S_cheap"]))
