"""The stance model file: a round trip keeps the predictions, and everything else is refused with an InputError
before any of it runs: pickles (which would run code), skops data naming an untrusted function, a model from
another scikit-learn version, garbage. Shown on the image stance model, which trains in a moment."""

from __future__ import annotations

import json
import pickle
import zipfile
from pathlib import Path

import pytest
import skops.io
from sklearn.preprocessing import FunctionTransformer

from argrank.core import model_file
from argrank.core.errors import InputError
from argrank.core.model_file import FORMAT, SKLEARN_VERSION, load_model, save_model
from argrank.tracks.images.stance import CON, MODEL_TYPES, PRO, pro_probability, train_image_stance

TITLE = "Should cities ban cars from their centres?"
TEXTS = [
    "we support it, the benefits are great",
    "a big help that improves lives",
    "good and fair for all",
    "the risks are real",
    "it harms people, a dangerous idea",
    "a costly mistake",
]
LABELS = [PRO] * 3 + [CON] * 3
MARKER_NAME = "ran-code"


@pytest.fixture(scope="module")
def model():
    return train_image_stance(TEXTS, [TITLE] * 6, LABELS, folds=3)[0]


def plant_marker(data=None, folder: str = "") -> None:
    """What a planted model file would run: it leaves a marker file, so a test can see whether it ran."""
    (Path(folder) / MARKER_NAME).touch()
    return data


class _Planted:
    def __init__(self, folder: Path):
        self.folder = str(folder)

    def __reduce__(self):
        return plant_marker, (None, self.folder)


def _envelope(path: Path, model: bytes, sklearn: str = SKLEARN_VERSION) -> Path:
    """A file laid out as save_model writes one, around the given model bytes."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("header.json", json.dumps({"format": FORMAT, "sklearn": sklearn}))
        archive.writestr("model.skops", model)
    return path


def _refused(path: Path, problem: str) -> None:
    with pytest.raises(InputError) as caught:
        load_model(path, MODEL_TYPES)
    assert caught.value.path == str(path) and problem in caught.value.problem


def test_a_round_trip_keeps_the_predictions(model, tmp_path):
    path = tmp_path / "models" / "model.zip"
    save_model(model, path)
    assert [p.name for p in path.parent.iterdir()] == ["model.zip"]  # no temporary left behind
    texts = TEXTS + ["an unseen page about cars in cities"]
    expected = pro_probability(model, texts, [TITLE] * len(texts))
    assert pro_probability(load_model(path, MODEL_TYPES), texts, [TITLE] * len(texts)).tobytes() == expected.tobytes()


def test_a_pickle_is_refused_without_running(tmp_path):
    planted = pickle.dumps(_Planted(tmp_path))
    pickle.loads(planted)  # the file does run code when unpickled
    (tmp_path / MARKER_NAME).unlink()
    _refused(tmp_path / "bare.zip", "cannot read")
    (tmp_path / "bare.zip").write_bytes(planted)
    _refused(tmp_path / "bare.zip", "not a stance model saved by this argrank")
    _refused(_envelope(tmp_path / "inside.zip", planted), "damaged stance model")
    assert not (tmp_path / MARKER_NAME).exists()


def test_a_model_naming_an_untrusted_function_is_refused_before_it_is_built(tmp_path):
    planted = skops.io.dumps(FunctionTransformer(plant_marker, kw_args={"folder": str(tmp_path)}))
    skops.io.loads(planted, trusted=[f"{__name__}.plant_marker"]).transform([[1]])  # it does run, once trusted
    (tmp_path / MARKER_NAME).unlink()
    _refused(_envelope(tmp_path / "model.zip", planted), f"never holds: ['{__name__}.plant_marker']")
    assert not (tmp_path / MARKER_NAME).exists()


def test_a_model_from_another_sklearn_version_is_refused(model, tmp_path, monkeypatch):
    path = tmp_path / "model.zip"
    monkeypatch.setattr(model_file, "SKLEARN_VERSION", "0.24.2")
    save_model(model, path)
    monkeypatch.undo()
    _refused(path, f"model saved with scikit-learn 0.24.2, this is {SKLEARN_VERSION}: retrain it")


def test_a_model_of_another_track_is_refused(model, tmp_path):
    from argrank.tracks.comparative.stance_model import MODEL_TYPES as COMPARATIVE_TYPES

    save_model(model, tmp_path / "model.zip")
    with pytest.raises(InputError, match="types a stance model never holds"):
        load_model(tmp_path / "model.zip", COMPARATIVE_TYPES)


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"garbage \x00\xff bytes",
        b"PK\x03\x04 a zip's magic, then nothing",
        b"\x80\x05K\x01.",  # a pickle of plain data
    ],
)
def test_garbage_is_refused(tmp_path, content):
    path = tmp_path / "model.zip"
    path.write_bytes(content)
    _refused(path, f"not a stance model saved by this argrank ({FORMAT})")


def test_a_damaged_model_is_refused(model, tmp_path):
    path = tmp_path / "model.zip"
    save_model(model, path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    _refused(path, "not a stance model saved by this argrank")
    _refused(_envelope(tmp_path / "other.zip", b"not skops"), "damaged stance model")
    with zipfile.ZipFile(tmp_path / "header.zip", "w") as archive:
        archive.writestr("header.json", "[1, 2]")
        archive.writestr("model.skops", b"")
    _refused(tmp_path / "header.zip", "not a stance model saved by this argrank")


def _inflating(path: Path, name: str, inner: bool) -> Path:
    """A model file whose `name` entry (or an entry of its skops data) declares more than MAX_INFLATED bytes:
    zeros, which deflate a thousandfold."""
    zeros = b"\0" * (model_file.MAX_INFLATED + 1)
    if inner:
        data = Path(path.with_suffix(".skops"))
        with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as skops_data:
            skops_data.writestr("schema.json", zeros)
        return _envelope(path, data.read_bytes())
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", json.dumps({"format": FORMAT, "sklearn": SKLEARN_VERSION}))
        archive.writestr(name, zeros)
    return path


@pytest.mark.parametrize(("name", "inner"), [("model.skops", False), ("padding", False), ("model.skops", True)])
def test_a_model_that_would_inflate_beyond_the_bound_is_refused_from_its_declared_sizes(
    tmp_path, monkeypatch, name, inner
):
    monkeypatch.setattr(model_file, "MAX_INFLATED", 4 << 20)  # the bound, small enough for a quick test
    path = _inflating(tmp_path / "model.zip", name, inner)
    assert path.stat().st_size < 64 << 10
    _refused(path, "refused: its parts inflate to")
