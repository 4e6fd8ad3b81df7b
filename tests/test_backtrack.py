"""The classic backtracking solver: order of search, every size, counts, time limit."""
from __future__ import annotations

import pytest

import satdoku.backends.backtrack as backtrack_module
from satdoku.backends.backtrack import BacktrackBackend
from satdoku.backends.base import Status
from satdoku.backends.dlx import DlxBackend
from satdoku.backends.registry import get_backend
from satdoku.cli import main
from satdoku.errors import TimeLimitReached
from satdoku.models.formats import parse_puzzle, read_puzzles
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from tests.conftest import PUZZLES


def test_registry():
    backend = get_backend("backtrack")
    assert isinstance(backend, BacktrackBackend) and backend.name == "backtrack"


def test_inkala_solves_and_verifies():
    puzzle = read_puzzles(str(PUZZLES / "inkala.txt"))[0]
    result = BacktrackBackend().solve(puzzle)
    assert result.solved and is_solution(result.grid, puzzle)
    assert result.grid[:9] == (8, 1, 2, 7, 5, 3, 6, 4, 9)
    assert result.stats["placements"] > 1000  # it really searched


def test_first_solution_is_lexicographic():
    """Cells in reading order, digits in order: the first grid of the empty 4x4 is the smallest."""
    puzzle = Puzzle.empty(Geometry(2, 2))
    grids = list(BacktrackBackend().solutions(puzzle))
    assert grids == sorted(grids) and len(grids) == len(set(grids)) == 288
    assert grids[0] == (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    assert all(is_solution(g, puzzle) for g in grids)


@pytest.mark.parametrize("name, box", [("example_4x4.txt", None), ("6x6_box2x3.txt", None),
                                       ("8x8_box2x4.txt", None), ("8x8_box4x2.txt", Geometry(4, 2)),
                                       ("euler96_grid01.txt", None)])
def test_bundled_puzzles(name, box):
    for puzzle in read_puzzles(str(PUZZLES / name), box):
        result = BacktrackBackend().solve(puzzle, time_limit=60)
        assert result.solved and is_solution(result.grid, puzzle)


@pytest.mark.parametrize("name", ["12x12_box3x4.txt", "16x16_box4x4.txt"])
def test_large_grids_with_half_the_cells_given(name):
    """The bundled 12x12 and 16x16 are beyond plain backtracking; half a solution given is not."""
    puzzle = read_puzzles(str(PUZZLES / name))[0]
    solution = DlxBackend().solve(puzzle).grid
    half = puzzle.with_cells(tuple(v if i % 2 == 0 else 0 for i, v in enumerate(solution)))
    result = BacktrackBackend().solve(half, time_limit=60)
    assert result.solved and is_solution(result.grid, half)


def test_counts_agree_with_dlx():
    puzzle = Puzzle(Geometry(2, 3), (1, 2, 3, 4, 5, 6, 4, 5, 6, 1, 2, 3) + (0,) * 24)
    expected = DlxBackend().count(puzzle)
    assert expected > 1
    assert BacktrackBackend().count(puzzle) == expected
    assert BacktrackBackend().count(puzzle, limit=3) == 3


def test_no_solution():
    puzzle = parse_puzzle("12..\n..3.\n....\n...4".replace("\n", ""))
    assert BacktrackBackend().solve(puzzle).status is Status.NO_SOLUTION
    assert BacktrackBackend().count(puzzle) == 0
    clash = Puzzle(Geometry(2, 2), (1, 1) + (0,) * 14)
    assert BacktrackBackend().solve(clash).status is Status.NO_SOLUTION


def test_time_limit(monkeypatch):
    monkeypatch.setattr(backtrack_module, "CLOCK_EVERY", 1)
    hardest = read_puzzles(str(PUZZLES / "inkala.txt"))[0]
    result = BacktrackBackend().solve(hardest, time_limit=1e-9)
    assert result.status is Status.UNKNOWN and result.grid is None
    with pytest.raises(TimeLimitReached):
        BacktrackBackend().count(Puzzle.empty(Geometry(3, 3)), time_limit=0.05)


def test_cli_time_limit_exit_code(capsys, monkeypatch):
    monkeypatch.setattr(backtrack_module, "CLOCK_EVERY", 1)
    code = main(["solve", str(PUZZLES / "inkala.txt"), "--backend", "backtrack", "--time-limit", "0.000001"])
    captured = capsys.readouterr()
    assert code == 3
    assert captured.err.count("\n") == 1 and "time limit" in captured.err and "Traceback" not in captured.err
