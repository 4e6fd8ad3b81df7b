"""Shared test helpers: where the benchmark puzzles live, and the repo's own puzzles."""
from __future__ import annotations

from pathlib import Path

import pytest

from satdoku.backends.base import Result, Status
from satdoku.models.formats import parse_puzzle, read_puzzles
from satdoku.models.geometry import parse_box
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution

REPO = Path(__file__).resolve().parent.parent
PUZZLES = REPO / "puzzles"
SHARED_PUZZLES = REPO.parent / "shared" / "puzzles"

# one bundled puzzle (exactly one solution) per supported geometry, with the --box it needs
GEOMETRY_PUZZLES = [
    ("example_4x4.txt", None), ("6x6_box2x3.txt", None), ("8x8_box2x4.txt", None),
    ("8x8_box4x2.txt", "4x2"), ("inkala.txt", None), ("euler96_grid01.txt", None),
    ("12x12_box3x4.txt", None), ("16x16_box4x4.txt", None),
]


def bundled(name: str, box: str | None = None) -> Puzzle:
    """The first puzzle of a file in the repo's puzzles/ folder."""
    return read_puzzles(str(PUZZLES / name), parse_box(box) if box else None)[0]


def six_by_six_with_19_solutions() -> Puzzle:
    """The bundled 6x6 puzzle without its given at cell 19: 19 solutions (PySAT counts them in tests)."""
    puzzle = bundled("6x6_box2x3.txt")
    cells = list(puzzle.cells)
    assert cells[19]
    cells[19] = 0
    return puzzle.with_cells(tuple(cells))


@pytest.fixture(scope="session")
def shared_puzzles() -> Path:
    """../shared/puzzles beside the repo; tests that need it fail loudly when it is missing."""
    assert SHARED_PUZZLES.is_dir(), f"{SHARED_PUZZLES} is missing: CI lays ../shared beside the repo"
    return SHARED_PUZZLES


# givens that leave r1c4 without a digit: no solution
DEAD = parse_puzzle("123.\n...4\n....\n....")


def assert_results(puzzles: list[Puzzle], results: list[Result]) -> None:
    """One result per puzzle, in order: DEAD has no solution, every other grid verifies."""
    assert len(results) == len(puzzles)
    for puzzle, result in zip(puzzles, results):
        if puzzle is DEAD:
            assert result.status is Status.NO_SOLUTION
        else:
            assert result.solved and is_solution(result.grid, puzzle)
