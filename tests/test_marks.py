"""Variants, part 2 (first step): kropki dots, X and V, thermometers and their negative rules.

They are conflicts of the one matrix (pairs of placements that may not both hold). Counts are pinned
by the oracle of tests/test_variants.py: classic grids enumerated by the backtracker, filtered by
the independent verifier, which checks each mark from its own definition.
"""
from __future__ import annotations

import pytest

from satdoku.errors import InputError
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import given_conflict, is_solution
from satdoku.verified import verified_solutions
from tests.test_variants import backend, oracle_count

FOUR = Geometry(2, 2)
SIX = Geometry(2, 3)
FIRST_ROW = (1, 3, 5, 2, 4, 6)
GRID_4X4 = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
GRID_6X6 = (1, 3, 5, 2, 4, 6, 2, 4, 6, 1, 3, 5, 3, 5, 1, 4, 6, 2, 4, 6, 2, 3, 5, 1, 5, 1, 4, 6, 2, 3, 6, 2, 3, 5, 1, 4)


def every_mark(grid: tuple[int, ...], n: int, kinds: tuple[str, ...]) -> tuple[tuple[str, int, int], ...]:
    """Every mark of `kinds` that a grid's side-by-side pairs earn ("all dots given" puzzles)."""
    from satdoku.models.geometry import MARKS, side_by_side
    return tuple((kind, a, b) for a, b in side_by_side(n) for kind in kinds if MARKS[kind](grid[a], grid[b]))


CASES_4X4 = {  # name: marks, thermometers, rules
    "thermometer of 3": ((), ((0, 1, 2),), ()),
    "bent thermometer": ((), ((12, 8, 9),), ()),
    "white and black dots": ((("white", 0, 1), ("black", 5, 9)), (), ()),
    "V": ((("v", 0, 1), ("v", 10, 11)), (), ()),
    "all kropki dots given": (every_mark(GRID_4X4, 4, ("white", "black")), (),
                              ("negative-difference", "negative-ratio")),
    "all V given": (every_mark(GRID_4X4, 4, ("v",)), (), ("negative-xv",)),
}
CASES_6X6 = {
    "one thermometer": ((), ((30, 24, 18, 12),), ()),
    "X and V": ((("x", 13, 14), ("v", 27, 33)), (), ()),
    "all white dots given": (every_mark(GRID_6X6, 6, ("white",)), (), ("negative-difference",)),
    "all X and V given, a thermometer": (every_mark(GRID_6X6, 6, ("x", "v")), ((24, 30),), ("negative-xv",)),
}


def geometry(base: Geometry, case: tuple) -> Geometry:
    marks, thermometers, rules = case
    return base.with_rules(rules).with_marks(marks, thermometers)


@pytest.mark.parametrize("case", CASES_4X4, ids=str)
@pytest.mark.parametrize("name", ["pysat", "dlx", "backtrack", "logic", "cpsat", "ilp:highs"])
def test_4x4_counts_match_the_oracle(name: str, case: str) -> None:
    g = geometry(FOUR, CASES_4X4[case])
    expected = oracle_count(g, None)
    found = verified_solutions(backend(name), Puzzle.empty(g), limit=None if name != "ilp:highs" else 40)
    assert len(found.grids) == min(expected, 40 if name == "ilp:highs" else expected)


@pytest.mark.parametrize("case", CASES_6X6, ids=str)
@pytest.mark.parametrize("name", ["pysat", "dlx", "cpsat"])
def test_6x6_completions_match_the_oracle(name: str, case: str) -> None:
    g = geometry(SIX, CASES_6X6[case])
    puzzle = Puzzle(g, FIRST_ROW + (0,) * 30)
    if given_conflict(puzzle):
        pytest.skip("the first row breaks a mark")
    expected = oracle_count(g, FIRST_ROW)
    assert backend(name).count(puzzle) == expected


def test_the_oracle_counts_are_not_trivial() -> None:
    counts = [oracle_count(geometry(FOUR, case), None) for case in CASES_4X4.values()]
    assert all(0 < c < 288 for c in counts), counts
    counts = [oracle_count(geometry(SIX, case), FIRST_ROW) for case in CASES_6X6.values()]
    assert all(0 < c < 39168 for c in counts), counts


@pytest.mark.parametrize("name", ["pysat", "dlx", "cpsat", "ilp:highs", "external:minisat", "logic"])
def test_a_9x9_with_marks_and_thermometers(name: str) -> None:
    """A 9x9 grid from SAT under marks copied from itself, then every backend solves the puzzle."""
    base = Geometry(3, 3).with_marks(thermometers=((72, 63, 54, 45, 36),))
    grid = backend("pysat").solve(Puzzle.empty(base)).grid
    marks = []
    for a, b in [(0, 1), (10, 19), (40, 41), (60, 61), (70, 79), (4, 13)]:
        x, y = grid[a], grid[b]
        kind = "white" if abs(x - y) == 1 else "black" if x == 2 * y or y == 2 * x else \
            "x" if x + y == 10 else "v" if x + y == 5 else None
        if kind:
            marks.append((kind, a, b))
    g = base.with_marks(tuple(marks))
    puzzle = Puzzle(g, tuple(v if k % 5 == 0 else 0 for k, v in enumerate(grid)))
    result = backend(name).solve(puzzle, time_limit=60)
    assert result.solved and is_solution(result.grid, puzzle)


def test_impossible_data_is_one_line_or_no_solution() -> None:
    with pytest.raises(InputError, match="more than the 4 digits"):
        FOUR.with_marks(thermometers=((0, 1, 2, 3, 7),))
    with pytest.raises(InputError, match="unknown mark 'grey'"):
        FOUR.with_marks((("grey", 0, 1),))
    with pytest.raises(InputError, match="joins two cells"):
        FOUR.with_marks((("white", 3, 3),))
    x_on_4x4 = Puzzle.empty(FOUR.with_marks((("x", 0, 1),)))  # no two digits of 1..4 sum to 10
    assert backend("dlx").count(x_on_4x4) == backend("pysat").count(x_on_4x4) == 0


def test_a_pair_with_a_dot_and_a_letter_is_exempt_from_both_negatives() -> None:
    """r1c1-r1c2 carries a white dot and a V: 2 and 3 (or 3 and 2) fit both, under both negatives."""
    g = SIX.with_rules(("negative-difference", "negative-xv")).with_marks((("white", 0, 1), ("v", 0, 1)))
    pairs = {(da + 1, db + 1) for a, da, b, db in g.conflicts if (a, b) == (0, 1)}
    assert (2, 3) not in pairs and (3, 2) not in pairs and len(pairs) == 34  # all 36 but those two
    fits, breaks = (2, 3) + (0,) * 34, (1, 2) + (0,) * 34
    assert not [p for p in _mark_problems(fits, g) if "r1c2" in p]
    assert [p for p in _mark_problems(breaks, g) if "r1c2" in p]


def _mark_problems(cells: tuple[int, ...], g: Geometry) -> list[str]:
    """The verifier's mark problems of a (partial) grid: its first row is what is being tested."""
    from satdoku.models.verify import mark_problems
    n = g.n
    return mark_problems([list(cells[r * n:(r + 1) * n]) for r in range(n)], g)
