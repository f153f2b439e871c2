"""Where numba keeps the kernels it compiles: the user's cache folder, never the source tree.

numba writes a compiled kernel beside its source (`__pycache__`) unless NUMBA_CACHE_DIR says otherwise, and reads
that setting once, when it is first imported. The kernels package imports this module before any module that
imports numba, so an installed argrank writes nothing into its own folder; a NUMBA_CACHE_DIR the user set wins.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_folder() -> Path:
    """$XDG_CACHE_HOME/argrank/numba, else ~/.cache/argrank/numba."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "argrank" / "numba"


os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_folder()))
