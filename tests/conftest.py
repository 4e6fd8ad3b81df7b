"""Shared test helpers: where the benchmark puzzles live, and the repo's own puzzles."""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PUZZLES = REPO / "puzzles"
SHARED_PUZZLES = REPO.parent / "shared" / "puzzles"


@pytest.fixture(scope="session")
def shared_puzzles() -> Path:
    """../shared/puzzles beside the repo; tests that need it fail loudly when it is missing."""
    assert SHARED_PUZZLES.is_dir(), f"{SHARED_PUZZLES} is missing: CI lays ../shared beside the repo"
    return SHARED_PUZZLES
