"""lazylibs.py: the heavy optional libraries are loaded only when asked for, each function asks for its own
library's (sub)module, pyplot comes on the Agg backend whatever the environment says, and numba's ahead-of-time
compiler loads without its pending-deprecation warning leaking out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from types import ModuleType, SimpleNamespace

import pytest

from argrank import lazylibs

HEAVY = ["spacy", "sklearn", "scipy", "matplotlib", "lightgbm", "ir_measures", "skops", "numba"]


class FakeImports:
    """Stands in for importlib: records each module name asked for and returns a module of that name."""

    def __init__(self, on_import=None):
        self.names: list[str] = []
        self.on_import = on_import

    def import_module(self, name: str) -> ModuleType:
        self.names.append(name)
        if self.on_import is not None:
            self.on_import(name)
        module = ModuleType(name)
        module.use = lambda backend: self.names.append(f"use({backend})")
        return module


@pytest.fixture
def imports(monkeypatch) -> FakeImports:
    fake = FakeImports()
    monkeypatch.setattr(lazylibs, "importlib", SimpleNamespace(import_module=fake.import_module))
    return fake


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: lazylibs.spacy(), "spacy"),
        (lambda: lazylibs.spacy("lang.en"), "spacy.lang.en"),
        (lambda: lazylibs.sklearn("linear_model"), "sklearn.linear_model"),
        (lambda: lazylibs.scipy("stats"), "scipy.stats"),
        (lambda: lazylibs.matplotlib("dates"), "matplotlib.dates"),
        (lambda: lazylibs.lightgbm(), "lightgbm"),
        (lambda: lazylibs.ir_measures(), "ir_measures"),
        (lambda: lazylibs.skops("io"), "skops.io"),
        (lambda: lazylibs.numba_pycc(), "numba.pycc"),
    ],
)
def test_each_function_asks_for_its_library_and_submodule_only(imports, call, name):
    module = call()
    assert imports.names == [name] and module.__name__ == name


def test_pyplot_is_imported_after_the_backend_is_set_to_agg(imports):
    """The backend must be chosen before pyplot loads: pyplot picks one on import."""
    assert lazylibs.matplotlib_pyplot().__name__ == "matplotlib.pyplot"
    assert imports.names == ["matplotlib", "use(Agg)", "matplotlib.pyplot"]


def test_the_compilers_pending_deprecation_warning_is_silenced_and_the_filters_restored(monkeypatch):
    """Even where warnings are errors, importing numba.pycc warns nothing; the caller's filters hold afterwards."""
    fake = FakeImports(
        on_import=lambda name: warnings.warn(f"{name} is pending deprecation", PendingDeprecationWarning)
    )
    monkeypatch.setattr(lazylibs, "importlib", SimpleNamespace(import_module=fake.import_module))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lazylibs.numba_pycc().__name__ == "numba.pycc"
        with pytest.raises(PendingDeprecationWarning):
            warnings.warn("still an error", PendingDeprecationWarning)
    with pytest.raises(PendingDeprecationWarning, match="scipy.stats"), warnings.catch_warnings():
        warnings.simplefilter("error")
        lazylibs.scipy("stats")  # only the compiler's import is silenced


def test_a_missing_submodule_is_named_in_the_error():
    with pytest.raises(ModuleNotFoundError, match="scipy.no_such_part"):
        lazylibs.scipy("no_such_part")


SCRIPT = """
import json, sys
heavy = {heavy}
from argrank import lazylibs
before = sorted(m for m in heavy if m in sys.modules)
sparse = lazylibs.scipy("sparse")
pyplot = lazylibs.matplotlib_pyplot()
import matplotlib
print(json.dumps({{
    "before": before,
    "after": sorted(m for m in heavy if m in sys.modules),
    "same": [sparse is sys.modules["scipy.sparse"], pyplot is sys.modules["matplotlib.pyplot"]],
    "backend": matplotlib.get_backend(),
}}))
"""


def test_a_fresh_process_loads_a_heavy_library_only_when_asked_for_it():
    """Importing lazylibs loads none of them; a call loads its library (and returns the module Python keeps), no
    other; pyplot is on Agg even where MPLBACKEND names another backend."""
    environment = {**os.environ, "MPLBACKEND": "svg"}
    result = subprocess.run([sys.executable, "-c", SCRIPT.format(heavy=HEAVY)], capture_output=True, text=True,
                            env=environment, check=True)  # fmt: skip
    loaded = json.loads(result.stdout)
    assert loaded["before"] == []
    assert loaded["after"] == ["matplotlib", "scipy"]
    assert loaded["same"] == [True, True]
    assert loaded["backend"].lower() == "agg"
