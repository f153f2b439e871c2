"""Shared fixtures. Real Touché data lives in ../shared/data; under CI it must be there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real data folder; fails under CI=true when absent, skips only on a developer's machine without it."""
    if not SHARED_DATA.is_dir():
        message = f"real Touché data not found at {SHARED_DATA}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return SHARED_DATA
