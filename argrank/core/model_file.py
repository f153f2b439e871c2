"""The stance models' file: a fitted scikit-learn pipeline pickled inside an envelope that names its format and
the scikit-learn version, so a model from another version is refused before it can misbehave."""

from __future__ import annotations

import io
import pickle
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

from argrank.core.atomic import atomic_path
from argrank.core.errors import InputError

if TYPE_CHECKING:
    from sklearn.pipeline import Pipeline

_FORMAT = "argrank-stance-model/1"
# The installed scikit-learn's version, read without importing it (that takes about a second, which every start
# of the graph would pay); unpickling a model imports what it needs.
SKLEARN_VERSION = version("scikit-learn")


def save_model(model: Pipeline, path: str | Path) -> None:
    """Pickle `model` to `path` atomically, with the scikit-learn version that load_model will insist on.

    The model is pickled inside a plain envelope, so the version can be checked before any model class loads.
    """
    envelope = {"format": _FORMAT, "sklearn": SKLEARN_VERSION, "model": pickle.dumps(model, protocol=5)}
    with atomic_path(path) as tmp:
        tmp.write_bytes(pickle.dumps(envelope, protocol=5))


def load_model(path: str | Path) -> Pipeline:
    """The model save_model wrote to `path`. Pickles run code: load only models you trust.

    Raises InputError for a file that is not such a model, or one saved under another scikit-learn version
    (a pickled model is only guaranteed to behave the same under the version that pickled it).
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(path, "", f"cannot read: {error.strerror}") from None
    try:
        envelope = _EnvelopeUnpickler(io.BytesIO(data)).load()
    except Exception:  # a file that is not a pickle can fail in any of a dozen ways
        envelope = None
    if not isinstance(envelope, dict) or envelope.get("format") != _FORMAT:
        raise InputError(path, "", f"not a stance model saved by argrank ({_FORMAT})")
    if envelope.get("sklearn") != SKLEARN_VERSION:
        raise InputError(
            path,
            "",
            f"model saved with scikit-learn {envelope.get('sklearn')}, this is {SKLEARN_VERSION}: retrain it",
        )
    return pickle.loads(envelope["model"])


class _EnvelopeUnpickler(pickle.Unpickler):
    """Unpickles plain data only (the envelope is a dict of strings and bytes), so a stray file runs no code."""

    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"the envelope holds no objects, found {module}.{name}")
