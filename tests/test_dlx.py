"""The DLX backend: solving every size, enumeration, counting against known values, time limits."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import satdoku.backends.dlx as dlx_module
from satdoku.backends.backtrack import BacktrackBackend
from satdoku.backends.base import Status
from satdoku.backends.dlx import DlxBackend, cover_tables, fewest, fewest_counted, start_state
from satdoku.backends.registry import get_backend
from satdoku.cli import main
from satdoku.errors import BackendUnavailable, TimeLimitReached
from satdoku.models.formats import parse_puzzle, read_puzzles
from satdoku.models.geometry import Geometry
from satdoku.models.matrix import exact_cover
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_complete_grid, is_solution

from tests.conftest import GEOMETRY_PUZZLES, PUZZLES, bundled
from tests.reference.algorithm_x import reduced_covers

INKALA_START = (8, 1, 2, 7, 5, 3, 6, 4, 9)
FIRST_ROW_6X6 = Puzzle(Geometry(2, 3), (1, 2, 3, 4, 5, 6) + (0,) * 30)


def test_registry_name_and_options():
    backend = get_backend("dlx")
    assert isinstance(backend, DlxBackend) and backend.name == "dlx"
    with pytest.raises(BackendUnavailable):
        get_backend("dlx", explain=True)


def test_inkala():
    puzzle = read_puzzles(str(PUZZLES / "inkala.txt"))[0]
    result = DlxBackend().solve(puzzle)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    assert result.grid[:9] == INKALA_START
    assert result.stats["nodes"] > 0


@pytest.mark.parametrize("name, box", GEOMETRY_PUZZLES)
def test_bundled_puzzles_every_size(name, box):
    puzzle = bundled(name, box)
    result = DlxBackend().solve(puzzle)
    assert result.status is Status.SOLVED
    assert is_solution(result.grid, puzzle)
    assert DlxBackend().count(puzzle, limit=2) == 1


def test_norvig_top95_all_verify(shared_puzzles):
    puzzles = read_puzzles(str(shared_puzzles / "norvig_top95.txt"))
    results = list(DlxBackend().solve_many(puzzles))
    assert len(results) == 95
    for puzzle, result in zip(puzzles, results):
        assert result.solved and is_solution(result.grid, puzzle), puzzle.source


def test_shared_16x16_agrees_with_counts(shared_puzzles):
    puzzles = read_puzzles(str(shared_puzzles / "sudoku_16x16_box4x4.txt"))
    several = 0
    for puzzle in puzzles:
        result = DlxBackend().solve(puzzle)
        assert result.solved and is_solution(result.grid, puzzle), puzzle.source
        grids = list(DlxBackend().solutions(puzzle, limit=2))
        assert all(is_solution(g, puzzle) for g in grids) and len(set(grids)) == len(grids)
        several += len(grids) > 1
    assert several == 8  # the README of the shared puzzles: 14 unique, 8 with several solutions


def test_empty_4x4_has_288_grids_three_ways():
    puzzle = Puzzle.empty(Geometry(2, 2))
    grids = list(DlxBackend().solutions(puzzle))
    assert len(grids) == len(set(grids)) == 288
    assert all(is_complete_grid(g, puzzle.geometry) for g in grids)
    assert DlxBackend().count(puzzle) == 288
    matrix = exact_cover(puzzle.geometry)
    reference = {matrix.grid(cover) for cover in reduced_covers(matrix.reduce(puzzle))}
    assert reference == set(grids)
    assert set(BacktrackBackend().solutions(puzzle)) == set(grids)


def test_6x6_first_row_fixed_has_39168_completions():
    # 28,200,960 6x6 grids (Pettersen) / 6! relabellings of the first row = 39,168
    assert 28_200_960 // 720 == 39_168
    assert DlxBackend().count(FIRST_ROW_6X6) == 39_168
    assert DlxBackend().count(FIRST_ROW_6X6, limit=1000) == 1000


def test_count_without_memo_agrees():
    tables = cover_tables(Geometry(2, 3))
    puzzle = FIRST_ROW_6X6.with_cells((1, 2, 3, 4, 5, 6, 4, 5, 6) + (0,) * 27)
    plain = dlx_module.count_by_search(tables, start_state(tables, puzzle), dlx_module.SearchStats())
    memo = dlx_module.count_covers(tables, start_state(tables, puzzle), dlx_module.SearchStats())
    tiny = dlx_module.count_covers(tables, start_state(tables, puzzle), dlx_module.SearchStats(), memo_bytes=0)
    assert plain == memo == tiny > 0
    assert plain == BacktrackBackend().count(puzzle)


def test_solutions_limit_and_distinct():
    puzzle = Puzzle.empty(Geometry(2, 3))
    grids = list(DlxBackend().solutions(puzzle, limit=50))
    assert len(grids) == len(set(grids)) == 50
    assert all(is_solution(g, puzzle) for g in grids)
    assert list(DlxBackend().solutions(puzzle, limit=0)) == []


def test_no_solution_and_clashing_givens():
    unsolvable = parse_puzzle("12..\n..3.\n....\n...4".replace("\n", ""))
    assert DlxBackend().solve(unsolvable).status is Status.NO_SOLUTION
    assert DlxBackend().count(unsolvable) == 0
    assert list(DlxBackend().solutions(unsolvable)) == []
    clash = Puzzle(Geometry(2, 2), (1, 1) + (0,) * 14)  # built directly, past the parser's check
    assert DlxBackend().solve(clash).status is Status.NO_SOLUTION
    assert BacktrackBackend().solve(unsolvable).status is Status.NO_SOLUTION


def test_time_limit_gives_unknown(monkeypatch):
    monkeypatch.setattr(dlx_module, "CLOCK_EVERY", 1)
    result = DlxBackend().solve(Puzzle.empty(Geometry(3, 3)), time_limit=1e-9)
    assert result.status is Status.UNKNOWN and result.grid is None
    with pytest.raises(TimeLimitReached):
        DlxBackend().count(Puzzle.empty(Geometry(3, 3)), time_limit=0.05)


def test_fewest_helpers_agree_with_direct_counts():
    slices = [0b1111, 0b0111, 0b0011, 0b1001]
    counts = [sum(s >> i & 1 for s in slices) for i in range(4)]
    assert counts == [4, 3, 2, 2]
    assert fewest(slices, 0b1111) == 0b0100
    assert fewest_counted(slices, 0b1111) == 0b0100
    assert fewest_counted(slices, 0b0011) == 0b0010


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 15), max_size=8), st.integers(0, 287))
def test_random_4x4_puzzles_match_the_reference(cells, which):
    """Puzzles cut from a random 4x4 grid: DLX, the tiny Algorithm X and backtracking count alike."""
    geometry = Geometry(2, 2)
    grid = sorted(DlxBackend().solutions(Puzzle.empty(geometry)))[which]
    puzzle = Puzzle(geometry, tuple(grid[i] if i in cells else 0 for i in range(16)))
    matrix = exact_cover(geometry)
    reference = {matrix.grid(c) for c in reduced_covers(matrix.reduce(puzzle))}
    ours = set(DlxBackend().solutions(puzzle))
    assert ours == reference and grid in ours
    assert DlxBackend().count(puzzle) == len(reference) == BacktrackBackend().count(puzzle)


@pytest.mark.parametrize("box", [(2, 4), (4, 2), (3, 4)])
def test_empty_grids_of_other_shapes_solve(box):
    puzzle = Puzzle.empty(Geometry(*box))
    result = DlxBackend().solve(puzzle, time_limit=30)
    assert result.solved and is_solution(result.grid, puzzle)


def test_cli_solve_with_dlx(capsys):
    code = main(["solve", str(PUZZLES / "inkala.txt"), "--backend", "dlx"])
    out = capsys.readouterr().out.strip()
    assert code == 0
    puzzle = read_puzzles(str(PUZZLES / "inkala.txt"))[0]
    assert is_solution(tuple(int(ch) for ch in out), puzzle)


def test_cli_all_solutions_with_dlx(capsys):
    code = main(["solve", str(PUZZLES / "example_4x4.txt"), "--backend", "dlx", "--all"])
    lines = capsys.readouterr().out.split()
    puzzle = read_puzzles(str(PUZZLES / "example_4x4.txt"))[0]
    assert code == 0 and len(lines) == 1
    assert is_solution(tuple(int(ch) for ch in lines[0]), puzzle)


def test_tables_are_shared_per_geometry():
    assert cover_tables(Geometry(3, 3)) is cover_tables(Geometry(3, 3))
    tables = cover_tables(Geometry(2, 2))
    for option in range(64):
        kept = tables.kill_masks(option)
        item, slot = tables.home[option]
        assert not kept[slot] >> item & 1  # an option always removes itself
    assert list(itertools.islice(DlxBackend().solutions(Puzzle.empty(Geometry(2, 2))), 1))
