"""numba's compiled kernels go to the user's cache folder, not the source tree; a NUMBA_CACHE_DIR set wins."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SCRIPT = "import argrank.kernels, numba; print(numba.config.CACHE_DIR)"


def _cache_dir(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=120, check=True)  # fmt: skip
    return done.stdout.strip()


def test_the_cache_is_the_users_not_the_source_tree(tmp_path):
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    assert _cache_dir({**env, "XDG_CACHE_HOME": str(tmp_path)}) == str(tmp_path / "argrank" / "numba")
    assert _cache_dir({**env, "XDG_CACHE_HOME": str(tmp_path), "NUMBA_CACHE_DIR": str(tmp_path / "mine")}) == str(
        tmp_path / "mine")  # fmt: skip
