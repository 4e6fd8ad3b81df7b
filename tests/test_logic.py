"""The logic backend: each technique on a board made for it, every size, explanations through the CLI."""
from __future__ import annotations

import re

import pytest

from satdoku.backends.base import Status
from satdoku.backends.logic import (Board, Contradiction, LogicBackend, hidden_singles, intersections,
                                    layout, naked_singles, naked_subsets, new_board)
from satdoku.backends.registry import get_backend
from satdoku.cli import main
from satdoku.models.formats import parse_puzzle, read_puzzles
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from tests.conftest import GEOMETRY_PUZZLES, PUZZLES, bundled

NINE = Geometry(3, 3)
ALL9 = (1 << 9) - 1


def open_board(geometry: Geometry = NINE) -> Board:
    """A 9x9 board with nothing placed and every candidate open, explaining."""
    n = geometry.n
    return Board(layout(geometry), [(1 << n) - 1] * n * n, [0] * n * n, explain=True)


def bits(*digits: int) -> int:
    return sum(1 << (d - 1) for d in digits)


def test_naked_single():
    board = open_board()
    board.candidates[0] = bits(7)
    assert naked_singles(board)
    assert board.values[0] == 7
    assert all(not board.candidates[c] & bits(7) for c in range(1, 9))  # row 1 lost its 7s
    assert board.steps[0].startswith("naked single: r1c1 = 7")


def test_hidden_single():
    board = open_board()
    for cell in range(1, 9):  # digit 5 can go nowhere else in row 1
        board.candidates[cell] &= ~bits(5)
    assert hidden_singles(board)
    assert board.values[0] == 5
    assert "hidden single: r1c1 = 5 (the only place for 5 in row 1)" in board.steps


def test_naked_pair_removes_its_digits_from_the_house():
    board = open_board()
    board.candidates[0] = board.candidates[4] = bits(3, 9)
    assert naked_subsets(board)
    assert board.steps[0].startswith("naked pair: {3, 9} in row 1 (r1c1, r1c5) removes them from r1c2, ")
    assert all(not board.candidates[c] & bits(3, 9) for c in (1, 2, 3, 5, 6, 7, 8))
    assert board.candidates[9] & bits(3, 9) == bits(3, 9)  # row 2 keeps them


def test_naked_triple():
    board = open_board()
    board.candidates[0], board.candidates[1], board.candidates[2] = bits(1, 2), bits(2, 3), bits(1, 3)
    for cell in (9, 10, 11, 18, 19, 20):  # keep box 1 from offering an earlier pair
        board.candidates[cell] = ALL9
    assert naked_subsets(board)
    assert board.steps[0].startswith("naked triple: {1, 2, 3} in row 1")
    assert all(not board.candidates[c] & bits(1, 2, 3) for c in range(3, 9))


def test_pointing():
    board = open_board()
    box1 = [0, 1, 2, 9, 10, 11, 18, 19, 20]
    for cell in box1:
        if cell not in (0, 1):
            board.candidates[cell] &= ~bits(6)  # in box 1, 6 is only in row 1
    assert intersections(board)
    assert board.steps[0].startswith("pointing: 6 in box 1 lies only in row 1 (r1c1, r1c2)")
    assert all(not board.candidates[c] & bits(6) for c in range(3, 9))


def test_box_line_reduction():
    board = open_board()
    for cell in range(3, 9):
        board.candidates[cell] &= ~bits(4)  # in row 1, 4 is only in box 1
    assert intersections(board)
    assert board.steps[0].startswith("box-line reduction: 4 in row 1 lies only in box 1")
    assert all(not board.candidates[c] & bits(4) for c in (9, 10, 11, 18, 19, 20))


def test_contradiction_is_detected():
    board = open_board()
    for cell in range(9):
        board.candidates[cell] &= ~bits(2)
    with pytest.raises(Contradiction, match="no place left for 2 in row 1"):
        hidden_singles(board)


def test_givens_clash_gives_no_solution():
    clash = Puzzle(Geometry(2, 2), (1, 1) + (0,) * 14)
    with pytest.raises(Contradiction):
        new_board(clash, False)
    assert LogicBackend().solve(clash).status is Status.NO_SOLUTION


def test_norvig_top95(shared_puzzles):
    puzzles = read_puzzles(str(shared_puzzles / "norvig_top95.txt"))
    for puzzle in puzzles:
        result = LogicBackend().solve(puzzle)
        assert result.solved and is_solution(result.grid, puzzle), puzzle.source


@pytest.mark.parametrize("name, box", GEOMETRY_PUZZLES)
def test_every_size(name, box):
    puzzle = bundled(name, box)
    result = LogicBackend(explain=True).solve(puzzle)
    assert result.solved and is_solution(result.grid, puzzle)
    assert result.stats["explanation"]


def test_easy_puzzle_needs_no_guess():
    puzzle = read_puzzles(str(PUZZLES / "euler96_grid01.txt"))[0]
    result = LogicBackend(explain=True).solve(puzzle)
    assert result.stats["guesses"] == 0
    assert not any("guess" in line for line in result.stats["explanation"])
    assert len(result.stats["explanation"]) == sum(1 for v in puzzle.cells if not v)  # one step per placement here


def test_counting_and_enumeration():
    empty = Puzzle.empty(Geometry(2, 2))
    grids = list(LogicBackend().solutions(empty))
    assert len(grids) == len(set(grids)) == 288 and all(is_solution(g, empty) for g in grids)
    assert LogicBackend().count(empty, limit=5) == 5
    unsolvable = parse_puzzle("12..\n..3.\n....\n...4".replace("\n", ""))
    assert LogicBackend().count(unsolvable) == 0
    result = LogicBackend(explain=True).solve(unsolvable)
    assert result.status is Status.NO_SOLUTION and result.stats["explanation"]


def test_time_limit():
    result = LogicBackend().solve(Puzzle.empty(Geometry(4, 4)), time_limit=1e-9)
    assert result.status is Status.UNKNOWN


def test_options():
    assert get_backend("logic", explain=True).explain
    assert LogicBackend().solve(read_puzzles(str(PUZZLES / "inkala.txt"))[0]).stats.get("explanation") is None


def test_cli_explain_prints_the_trace_then_the_grid(capsys):
    code = main(["solve", "--backend", "logic", "--explain", str(PUZZLES / "inkala.txt")])
    lines = capsys.readouterr().out.strip().splitlines()
    assert code == 0
    steps, grid = lines[:-1], lines[-1]
    assert len(steps) > 10
    assert all(re.match(r"^ *\d+\. (naked|hidden|pointing|box-line|guess)", line) for line in steps)
    assert any("guess" in line for line in steps)  # Inkala's puzzle needs guessing with these techniques
    assert any(re.search(r"r\d+c\d+ = \d", line) for line in steps)
    puzzle = read_puzzles(str(PUZZLES / "inkala.txt"))[0]
    assert is_solution(tuple(int(ch) for ch in grid), puzzle)


def test_cli_explain_with_another_backend_is_one_line_error(capsys):
    code = main(["solve", "--backend", "dlx", "--explain", str(PUZZLES / "inkala.txt")])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.count("\n") == 1 and "--explain" in captured.err
