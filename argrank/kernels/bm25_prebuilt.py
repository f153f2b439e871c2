"""BM25's numba kernels (bm25_numba) built ahead of time into an extension module, which a process loads without
numba's compiler.

`make kernels` builds it (`python -m argrank.kernels.bm25_prebuilt`) with numba's pycc into PREBUILT, named by a
digest of the kernels' sources and numpy's version: a module built from other sources is never loaded, and where
none is built the `kernels` setting takes numba's jit-compiled kernels instead.

pycc's functions take exactly the types they were built for and do not check them (another dtype reads foreign
memory), so each call goes through `Prebuilt`, which checks every argument first. Built for a generic CPU of the
machine's kind, so a tree copied to another machine of that kind runs it.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np

import argrank.kernels.bm25_numba as bm25_numba
import argrank.lazylibs as lazylibs

HERE = Path(__file__).resolve().parent
PREBUILT = HERE / "prebuilt"
# What the built code depends on: the kernels, the prefetch they call, the constants they return, this module's
# signatures.
SOURCES = (HERE / "bm25_numba.py", HERE / "bm25_numpy.py", HERE / "prefetch.py", Path(__file__))

# Each exported function's arguments as (numba type, numpy dtype), in order; a None dtype is a Python number.
# `impacts` and `accumulate` read the postings' frequencies (argument 2), which an index holds as uint16 or int32
# (kernels/inversion.py): each is built once for each, as impacts_uint16, impacts_int32, accumulate_uint16, ….
FREQUENCIES = {"uint16": "u2", "int32": "i4"}
_INDPTR = _ROWS = ("i8[::1]", np.int64)
_INDICES = ("i4[::1]", np.int32)
_FLOATS = ("f8[::1]", np.float64)
_NUMBER = ("f8", None)
ARGUMENTS = {
    **{f"impacts_{name}": (_INDPTR, _INDICES, (f"{code}[::1]", np.dtype(name)), _ROWS, _FLOATS, _NUMBER, _FLOATS)
       for name, code in FREQUENCIES.items()},
    **{f"accumulate_{name}": (_INDPTR, _INDICES, (f"{code}[::1]", np.dtype(name)), _FLOATS, _NUMBER, _FLOATS,
                              ("b1[::1]", np.bool_), _ROWS, _FLOATS, _FLOATS, _FLOATS)
       for name, code in FREQUENCIES.items()},
    "collect": (_INDPTR, _INDICES, _ROWS, _FLOATS, _NUMBER, ("i4[::1]", np.int32), _FLOATS),
}  # fmt: skip


class Prebuilt:
    """The built module's `impacts`, `accumulate` and `collect` behind bm25_numba's contract, every argument
    checked."""

    def __init__(self, module: ModuleType):
        self.module = module

    def impacts(self, *arguments) -> int:
        return self._call("impacts", arguments)

    def accumulate(self, *arguments) -> int:
        return self._call("accumulate", arguments)

    def collect(self, *arguments) -> int:
        return self._call("collect", arguments)

    def _call(self, name: str, arguments: tuple) -> int:
        """The build of `name` (for the frequencies' type, where it reads them), its arguments checked."""
        kernel = name
        if name not in ARGUMENTS:
            frequencies = arguments[2] if len(arguments) > 2 else None
            kernel = f"{name}_{frequencies.dtype.name}" if isinstance(frequencies, np.ndarray) else f"{name}_int32"
            if kernel not in ARGUMENTS:
                raise TypeError(f"{name}: argument 2 must be an array of {' or '.join(FREQUENCIES)} frequencies")
        return getattr(self.module, kernel)(*_checked(kernel, arguments))


def _checked(kernel: str, arguments: tuple) -> tuple:
    expected = ARGUMENTS[kernel]
    if len(arguments) != len(expected):
        raise TypeError(f"{kernel} takes {len(expected)} arguments, not {len(arguments)}")
    for position, (value, (_, dtype)) in enumerate(zip(arguments, expected)):
        if dtype is None:
            if not isinstance(value, (float, int)) or isinstance(value, bool):
                raise TypeError(f"{kernel}: argument {position} must be a number, not {type(value).__name__}")
        elif not (isinstance(value, np.ndarray) and value.dtype == dtype and value.ndim == 1
                  and value.flags.c_contiguous):  # fmt: skip
            raise TypeError(f"{kernel}: argument {position} must be a contiguous 1-d {np.dtype(dtype)} array")
    return arguments


def module_name() -> str:
    """The built module's name: the digest of what its code depends on."""
    digest = hashlib.blake2b(np.__version__.encode(), digest_size=8)
    for source in SOURCES:
        digest.update(source.read_bytes())
    return f"bm25_{digest.hexdigest()}"


def module_path(directory: Path | None = None) -> Path:
    """Where the module built from the current sources lies in `directory` (PREBUILT by default)."""
    return (directory or PREBUILT) / (module_name() + importlib.machinery.EXTENSION_SUFFIXES[0])


@cache
def load(directory: Path | None = None) -> Prebuilt | None:
    """The kernels built from the current sources, or None where none are built (or they do not load)."""
    path = module_path(directory)
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(path.name.split(".")[0], path)
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError:  # built for another numpy or Python: score as without it
        return None
    return Prebuilt(module)


def build(directory: Path | None = None) -> Path:
    """Compile the kernels into `directory` (atomically: a process never loads half a file) and remove the ones built
    from older sources there. Needs numba's pycc, setuptools and a C compiler."""
    CC = lazylibs.numba_pycc().CC
    target = module_path(directory)
    directory = target.parent
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=directory) as scratch:
        compiler = CC(target.name.split(".")[0], source_module=bm25_numba)
        compiler.output_dir = scratch
        for name, arguments in ARGUMENTS.items():
            signature = f"i8({', '.join(numba_type for numba_type, _ in arguments)})"
            compiler.export(name, signature)(getattr(bm25_numba, name.partition("_")[0]).py_func)
        compiler.compile()
        os.replace(Path(scratch) / target.name, target)
    for old in directory.glob("bm25_*"):
        if old != target:
            old.unlink()
    return target


if __name__ == "__main__":
    print(f"built {build(Path(sys.argv[1]) if len(sys.argv) > 1 else None)}")
