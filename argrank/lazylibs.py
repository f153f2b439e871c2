"""The heavy optional libraries, each imported on first use: a process that never fits a model, plots, analyses
text or compiles ahead of time does not load them. Everything else is imported at the top of its module.

Each function returns the library's (sub)module, e.g. `lazylibs.sklearn("linear_model").LogisticRegression`.
"""

from __future__ import annotations

import importlib
import warnings
from types import ModuleType


def _module(name: str, submodule: str = "") -> ModuleType:
    return importlib.import_module(f"{name}.{submodule}" if submodule else name)


def spacy(submodule: str = "") -> ModuleType:
    """spaCy (the analyzers: tokenizer rules and lookup lemmas)."""
    return _module("spacy", submodule)


def sklearn(submodule: str) -> ModuleType:
    """scikit-learn (the quality and stance models)."""
    return _module("sklearn", submodule)


def scipy(submodule: str) -> ModuleType:
    """SciPy (significance tests, sparse matrices, optimisation)."""
    return _module("scipy", submodule)


def matplotlib_pyplot() -> ModuleType:
    """matplotlib's pyplot on the Agg backend: plots are written to files, no display is needed."""
    matplotlib = _module("matplotlib")
    matplotlib.use("Agg")
    return _module("matplotlib", "pyplot")


def matplotlib(submodule: str) -> ModuleType:
    """A matplotlib submodule that draws nothing itself (`dates`, `patches`); pyplot is `matplotlib_pyplot`."""
    return _module("matplotlib", submodule)


def lightgbm() -> ModuleType:
    """LightGBM (the learning-to-rank re-ranker's LambdaMART)."""
    return _module("lightgbm")


def ir_measures() -> ModuleType:
    """ir_measures (the ranking measures by their names, with trec_eval's code)."""
    return _module("ir_measures")


def skops(submodule: str) -> ModuleType:
    """skops (stance and quality models saved in its secure format)."""
    return _module("skops", submodule)


def numba_pycc() -> ModuleType:
    """numba's ahead-of-time compiler (`make kernels` only); it warns that it is pending deprecation."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _module("numba", "pycc")
