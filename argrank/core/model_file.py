"""The model files (stance classifiers, the quality model), in a format that runs no code when loaded (a pickle
would run any it holds, and the cache may sit on a shared file system): a zip of a JSON header, which names the
format and the scikit-learn version, and the fitted model in skops' secure format, which builds only types on an
explicit list. A model from another scikit-learn version is refused before any of it is built, and so is every
other file, including a model of another kind (the format names the kind: a stance model is no quality model)."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

import argrank.lazylibs as lazylibs
from argrank.core.atomic import atomic_path
from argrank.core.errors import InputError
from argrank.core.input_file import check_regular

if TYPE_CHECKING:
    from sklearn.pipeline import Pipeline

# 3: the comparative passage classifier without its block of the passage's words (its pipelines hold other functions).
# 4: the stance classifiers fitted by liblinear's dual solver, seeded (other coefficients from the same examples).
FORMAT_VERSION = 4
STANCE, QUALITY = "stance", "quality"
_HEADER = "header.json"
_MODEL = "model.skops"
MAX_INFLATED = 256 << 20  # bytes of a model file's parts, inflated: ours are a few MB
# The installed scikit-learn's version, read without importing it (a heavy import, lazylibs); skops, imported
# where a model is saved or loaded, imports it.
SKLEARN_VERSION = version("scikit-learn")


def format_name(kind: str) -> str:
    """The format a model file of `kind` names in its header."""
    return f"argrank-{kind}-model/{FORMAT_VERSION}"


FORMAT = format_name(STANCE)  # in the stance models' signatures: a new format retrains them


def save_model(model: Pipeline | dict, path: str | Path, kind: str = STANCE) -> None:
    """Write `model` to `path` atomically, with its kind and the scikit-learn version that load_model will insist
    on."""
    skops_io = lazylibs.skops("io")
    header = {"format": format_name(kind), "sklearn": SKLEARN_VERSION}
    with atomic_path(path) as tmp, zipfile.ZipFile(tmp, "w") as archive:
        archive.writestr(_HEADER, json.dumps(header))
        archive.writestr(_MODEL, skops_io.dumps(model, compression=zipfile.ZIP_DEFLATED))


def load_model(path: str | Path, trusted: Sequence[str], kind: str = STANCE) -> Pipeline | dict:
    """The model of `kind` save_model wrote to `path`, built from skops' default trusted types and the `trusted`
    ones only.

    Raises InputError for a file that is not such a model, one saved under another scikit-learn version (a model
    is only guaranteed to behave the same under the version that fitted it), or one naming any other type.
    """
    path = Path(path)
    check_regular(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(path, "", f"cannot read: {error.strerror}") from None
    header, model = _parts(path, data)
    if not isinstance(header, dict) or header.get("format") != format_name(kind):
        raise InputError(
            path, "", f"not a {kind} model saved by this argrank ({format_name(kind)}), such as a pickle or an "
            "earlier format: retrain it",
        )  # fmt: skip
    if header.get("sklearn") != SKLEARN_VERSION:
        raise InputError(
            path, "", f"model saved with scikit-learn {header.get('sklearn')}, this is {SKLEARN_VERSION}: retrain it"
        )
    return _build(path, model, trusted, kind)


def _parts(path: Path, data: bytes) -> tuple[object, bytes]:
    """The header and the skops bytes of a model file, (None, b"") where it is not such a zip; InputError where a
    part, or a part of the skops data (a zip too), would inflate beyond MAX_INFLATED: its declared size is read
    before any of it is, so an entry that would fill the memory is refused before it takes any."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            _check_inflated(path, archive)
            header, model = json.loads(archive.read(_HEADER)), archive.read(_MODEL)
    except InputError:
        raise
    except Exception:  # a file that is not such a zip can fail in any of a dozen ways
        return None, b""
    try:
        skops_data = zipfile.ZipFile(io.BytesIO(model))
    except Exception:
        return header, model  # damaged: said when it is built
    with skops_data:
        _check_inflated(path, skops_data)
    return header, model


def _check_inflated(path: Path, archive: zipfile.ZipFile) -> None:
    """InputError unless the archive's entries declare at most MAX_INFLATED bytes in all (zipfile stops reading an
    entry at its declared size, so the declaration bounds what a read costs)."""
    declared = sum(entry.file_size for entry in archive.infolist())
    if declared > MAX_INFLATED:
        raise InputError(path, "", f"refused: its parts inflate to {declared:,} bytes (a model has at most "
                         f"{MAX_INFLATED:,})")  # fmt: skip


def _build(path: Path, data: bytes, trusted: Sequence[str], kind: str) -> Pipeline | dict:
    """The pipeline in skops bytes `data`, after checking that it names no type beyond the trusted ones."""
    skops_io = lazylibs.skops("io")
    try:
        untrusted = sorted(set(skops_io.get_untrusted_types(data=data)) - set(trusted))
    except Exception as error:  # damaged skops data, like a damaged zip, fails in many ways
        raise InputError(path, "", f"damaged {kind} model: {error}") from None
    if untrusted:
        raise InputError(path, "", f"refused, not loaded: it names types a {kind} model never holds: {untrusted}")
    try:
        return skops_io.loads(data, trusted=list(trusted))
    except Exception as error:
        raise InputError(path, "", f"damaged {kind} model: {error}") from None
