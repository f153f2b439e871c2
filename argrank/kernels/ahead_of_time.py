"""The numba kernels that a stage calls on every run, built ahead of time into one extension module, which a
process loads without numba's compiler: BM25's scoring (bm25_numba) and the index's inversion (inversion).

`make kernels` builds it (`python -m argrank.kernels.ahead_of_time`) with numba's pycc into PREBUILT, named by a
digest of the kernels' sources and numpy's version: a module built from other sources is never loaded, and where
none is built the callers take numba's jit-compiled kernels instead (the same code, compiled on first use).

pycc's functions take exactly the types they were built for and do not check them (another dtype reads foreign
memory), so each call goes through `Prebuilt`, which checks every argument first and picks the build for the
arguments' types. Built for this machine's CPU, whose model and flags are part of the digest: a tree copied to a
machine with another CPU finds no build of its name there, and its processes compile just in time, as without one.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import sys
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np

from argrank import lazylibs
from argrank.kernels import bm25_numba, inversion

HERE = Path(__file__).resolve().parent
PREBUILT = HERE / "prebuilt"
# What the built code depends on: the kernels, the prefetch they call, the constants they return, this module's
# signatures.
SOURCES = tuple(HERE / name for name in ("bm25_numba.py", "bm25_numpy.py", "prefetch.py", "inversion.py")) + (
    Path(__file__),
)

# Argument types as (numba type, numpy dtype); a None dtype is a Python number.
_INT64 = ("i8[::1]", np.int64)
_INT32 = ("i4[::1]", np.int32)
_FLOATS = ("f8[::1]", np.float64)
_NUMBER = ("f8", None)
_INTEGER = ("i8", int)
# Postings' frequencies are uint16 or int32 (kernels/inversion.py): a kernel reading or writing them is built once
# for each, as impacts_uint16, impacts_int32, ….
FREQUENCIES = {"uint16": ("u2[::1]", np.uint16), "int32": _INT32}
# Each exported build: (the function, its arguments in order). All return an i8.
EXPORTS = {
    **{f"impacts_{name}": (bm25_numba.impacts, (_INT64, _INT32, kind, _INT64, _FLOATS, _NUMBER, _FLOATS))
       for name, kind in FREQUENCIES.items()},
    **{f"accumulate_{name}": (bm25_numba.accumulate, (_INT64, _INT32, kind, _FLOATS, _NUMBER, _FLOATS,
                                                      ("b1[::1]", np.bool_), _INT64, _FLOATS, _FLOATS, _FLOATS))
       for name, kind in FREQUENCIES.items()},
    "collect": (bm25_numba.collect, (_INT64, _INT32, _INT64, _FLOATS, _NUMBER, _INT32, _FLOATS)),
    **{f"top_candidates_{name}": (bm25_numba.top_candidates,
                                  (_INT64, _INT32, kind, _FLOATS, _NUMBER, _FLOATS, ("b1[::1]", np.bool_), _INT64,
                                   _FLOATS, _FLOATS, _FLOATS, _INTEGER, _INTEGER, _FLOATS, _INT32, _FLOATS))
       for name, kind in FREQUENCIES.items()},
    "order_ties": (bm25_numba.order_ties, (_INT64, _FLOATS, _INT32)),
    "number_terms": (inversion.number_terms, (_INT32, _INT64, _INT64, _INT64, _INT64, _INT64, _INT64)),
    **{f"write_postings_{name}": (inversion.write_postings, (_INT32, _INT64, _INT64, _INT64, _INT64, _INT32, kind))
       for name, kind in FREQUENCIES.items()},
}  # fmt: skip


class Prebuilt:
    """The built module's functions under their kernels' names (BM25's `impacts`, `accumulate`, `collect`,
    `top_candidates`, `order_ties`;
    the inversion's `number_terms`, `write_postings`), every argument checked."""

    def __init__(self, module: ModuleType):
        self.module = module

    def impacts(self, *arguments) -> int:
        return self._call("impacts", arguments)

    def accumulate(self, *arguments) -> int:
        return self._call("accumulate", arguments)

    def collect(self, *arguments) -> int:
        return self._call("collect", arguments)

    def top_candidates(self, *arguments) -> int:
        return self._call("top_candidates", arguments)

    def order_ties(self, *arguments) -> int:
        return self._call("order_ties", arguments)

    def number_terms(self, *arguments) -> int:
        return self._call("number_terms", arguments)

    def write_postings(self, *arguments) -> int:
        return self._call("write_postings", arguments)

    def _call(self, name: str, arguments: tuple) -> int:
        """The build of `name` whose types the arguments have; TypeError, naming the first argument that fits
        none of them, where there is none."""
        builds = [export for export in EXPORTS if export == name or export.removeprefix(name + "_") in FREQUENCIES]
        problems = []
        for build in builds:
            problem = _mismatch(build, arguments)
            if problem is None:
                return getattr(self.module, build)(*arguments)
            problems.append(problem)
        position = max(position for position, _ in problems)
        expected = dict.fromkeys(what for at, what in problems if at == position)
        if position < 0:
            raise TypeError(f"{name} takes {len(EXPORTS[builds[0]][1])} arguments, not {len(arguments)}")
        if None in expected or int in expected:
            what = "an integer" if int in expected else "a number"
            raise TypeError(f"{name}: argument {position} must be {what}, not {type(arguments[position]).__name__}")
        kinds = " or ".join(str(np.dtype(dtype)) for dtype in expected)
        raise TypeError(f"{name}: argument {position} must be a contiguous 1-d {kinds} array")


def _mismatch(build: str, arguments: tuple) -> tuple[int, type | None] | None:
    """Where the arguments do not fit the build: (position, the dtype expected there, None for a number, int for
    an integer), or (-1, None) for another count; None where they all fit."""
    expected = EXPORTS[build][1]
    if len(arguments) != len(expected):
        return -1, None
    for position, (value, (_, dtype)) in enumerate(zip(arguments, expected)):
        if dtype is None or dtype is int:
            if not isinstance(value, int if dtype else (float, int)) or isinstance(value, bool):
                return position, dtype
        elif not (isinstance(value, np.ndarray) and value.dtype == dtype and value.ndim == 1
                  and value.flags.c_contiguous):  # fmt: skip
            return position, dtype
    return None


def module_name() -> str:
    """The built module's name: the digest of what its code depends on, the CPU it is compiled for included."""
    digest = hashlib.blake2b(np.__version__.encode(), digest_size=8)
    for source in SOURCES:
        digest.update(source.read_bytes())
    digest.update(cpu())
    return f"kernels_{digest.hexdigest()}"


@cache
def cpu() -> bytes:
    """This machine's CPU as the build targets it: its model and flags as Linux lists them (the first processor),
    else the machine's kind where there is no /proc/cpuinfo."""
    try:
        first = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").split("\n\n")[0]
    except OSError:
        return platform.machine().encode()
    return "\n".join(line for line in first.splitlines() if line.startswith(("model name", "flags"))).encode()


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
        compiler.target_cpu = "host"  # this CPU's instructions: module_name holds cpu()
        for name, (function, arguments) in EXPORTS.items():
            signature = f"i8({', '.join(numba_type for numba_type, _ in arguments)})"
            compiler.export(name, signature)(function.py_func)
        compiler.compile()
        os.replace(Path(scratch) / target.name, target)
    for old in directory.glob("kernels_*"):
        if old != target:
            old.unlink()
    return target


if __name__ == "__main__":
    print(f"built {build(Path(sys.argv[1]) if len(sys.argv) > 1 else None)}")
