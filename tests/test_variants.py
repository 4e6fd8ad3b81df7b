"""Variants through the one matrix: every backend solves and counts every rule, and the counts match an
oracle that knows nothing of the encoders.

The oracle: enumerate the classic grids (all 288 4x4 grids; the 39,168 6x6 grids whose first row is
123456) with the backtracker on the classic rules, then keep those the independent verifier accepts
under the variant's rules (`models.verify` checks every rule from its own definition: diagonals,
windows, knight and king moves, adjacency). A variant grid is a classic grid that also keeps the
variant's rules, so that filter is the exact count. Jigsaw grids are not classic grids: their counts
are cross-checked between two backends of different kinds (SAT and DLX) and every grid is verified.
"""
from __future__ import annotations

from functools import cache

import pytest

from satdoku.backends.backtrack import fill
from satdoku.backends.registry import get_backend
from satdoku.errors import BackendUnavailable, InputError
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import given_conflict, is_solution
from satdoku.verified import verified_solutions

RULES_4X4 = [("diagonal-",), ("diagonal+",), ("x",), ("windoku",), ("disjointgroups",), ("antiking",),
             ("nonconsecutive",), ("antiknight",), ("x", "disjointgroups")]
RULES_6X6 = [("x",), ("antiking",), ("antiknight",), ("nonconsecutive",), ("windoku",), ("disjointgroups",),
             ("disjointgroups", "antiking")]
ALL_BACKENDS = ["pysat", "dlx", "backtrack", "logic", "cpsat", "ilp:highs", "external:minisat"]
# 6x6 jigsaw regions (each region a letter), a layout with no 2x3 box among them
JIGSAW_6X6 = ["AAABBB", "AACCBB", "ACCCBD", "ECDDDD", "EEEFFD", "EEFFFF"]


def backend(name: str):
    try:
        return get_backend(name)
    except BackendUnavailable as err:
        pytest.skip(str(err))


@cache
def classic_grids(box_rows: int, box_cols: int) -> tuple[tuple[int, ...], ...]:
    """The oracle's input: every 4x4 grid, or every 6x6 grid whose first row is 1..6 (the backtracker on
    the classic rules, which has no variant code in its way)."""
    g = Geometry(box_rows, box_cols)
    first = tuple(range(1, g.n + 1)) if g.n > 4 else ()
    return tuple(fill(Puzzle(g, first + (0,) * (g.n_cells - len(first)))))


def oracle_count(geometry: Geometry, first_row: tuple[int, ...] | None) -> int:
    """How many classic grids keep the variant's rules (with `first_row` on top), by the verifier alone.

    The 6x6 grids on file start 1..6; relabelling digit d as first_row[d-1] gives exactly the grids
    that start with `first_row`."""
    empty = Puzzle(geometry, (0,) * geometry.n_cells)
    grids = classic_grids(geometry.box_rows, geometry.box_cols)
    if first_row is not None:
        grids = [tuple(first_row[v - 1] for v in grid) for grid in grids]
    return sum(is_solution(grid, empty) for grid in grids)


def regions_of(rows: list[str]) -> tuple[tuple[int, ...], ...]:
    n = len(rows)
    letters = sorted({ch for row in rows for ch in row})
    return tuple(tuple(r * n + c for r in range(n) for c in range(n) if rows[r][c] == ch) for ch in letters)


def test_known_values_of_the_oracle() -> None:
    """The oracle itself against published figures: 288 4x4 grids, 48 of them with both diagonals."""
    assert len(classic_grids(2, 2)) == 288 and len(classic_grids(2, 3)) == 28200960 // 720
    assert oracle_count(Geometry(2, 2).with_rules(("x",)), None) == 48


@pytest.mark.parametrize("rules", RULES_4X4, ids=lambda r: "+".join(r))
@pytest.mark.parametrize("name", ["pysat", "dlx", "backtrack", "logic", "cpsat"])
def test_4x4_counts_match_the_oracle(name: str, rules: tuple[str, ...]) -> None:
    g = Geometry(2, 2).with_rules(rules)
    grids = verified_solutions(backend(name), Puzzle.empty(g)).grids  # every grid verified, all different
    assert len(grids) == oracle_count(g, None)


@pytest.mark.parametrize("rules", RULES_6X6, ids=lambda r: "+".join(r))
@pytest.mark.parametrize("name", ["pysat", "dlx"])
def test_6x6_first_row_counts_match_the_oracle(name: str, rules: tuple[str, ...]) -> None:
    g = Geometry(2, 3).with_rules(rules)
    first = (1, 3, 5, 2, 4, 6)  # no two neighbours consecutive, so every rule here allows it
    puzzle = Puzzle(g, first + (0,) * 30)
    assert given_conflict(puzzle) is None
    assert backend(name).count(puzzle) == oracle_count(g, first)


def test_jigsaw_6x6_with_one_row_given_two_ways() -> None:
    """All completions of a 6x6 jigsaw with its first row given: SAT and DLX agree, every grid verifies."""
    g = Geometry(2, 3, regions=regions_of(JIGSAW_6X6))
    assert g.boxes != Geometry(2, 3).boxes
    puzzle = Puzzle(g, (1, 2, 3, 4, 5, 6) + (0,) * 30)
    sat = verified_solutions(backend("pysat"), puzzle).grids
    dlx = verified_solutions(backend("dlx"), puzzle).grids
    assert sorted(sat) == sorted(dlx) and len(sat) > 0
    assert backend("dlx").count(puzzle) == backend("backtrack").count(puzzle) == len(sat)


def test_small_extra_region_repeats_no_digit() -> None:
    """An extra region of three cells (r1c1, r2c2, r3c3 of a 4x4): at most once, oracle-checked."""
    g = Geometry(2, 2, extra_regions=((0, 5, 10),))
    expected = oracle_count(g, None)
    assert 0 < expected < 288
    for name in ["pysat", "dlx", "backtrack", "logic", "cpsat"]:
        assert backend(name).count(Puzzle.empty(g)) == expected, name


@pytest.mark.parametrize("name", ALL_BACKENDS)
@pytest.mark.parametrize("rules", [("x",), ("antiknight",), ("windoku",), ("nonconsecutive",)],
                         ids=lambda r: "+".join(r))
def test_every_backend_solves_a_9x9_variant(name: str, rules: tuple[str, ...]) -> None:
    """A 9x9 variant with a few givens from a known variant grid: solved and verified by each backend."""
    g = Geometry(3, 3).with_rules(rules)
    solution = backend("pysat").solve(Puzzle.empty(g)).grid
    cells = tuple(v if k % 7 == 0 else 0 for k, v in enumerate(solution))
    puzzle = Puzzle(g, cells)
    result = backend(name).solve(puzzle, time_limit=60)
    assert result.solved and is_solution(result.grid, puzzle)


def test_rules_refused_where_they_make_no_sense() -> None:
    with pytest.raises(InputError, match="unknown rule 'sandwich'"):
        Geometry(3, 3).with_rules(("sandwich",))
    with pytest.raises(InputError, match="region 1 has 5 cells"):
        Geometry(2, 3, regions=((0, 1, 2, 3, 4),) + tuple((k,) * 6 for k in range(5)))
    with pytest.raises(InputError, match="disjoint groups need boxes"):
        Geometry(2, 3, rules=("disjointgroups",), regions=regions_of(JIGSAW_6X6))
    with pytest.raises(InputError, match="windoku"):
        Geometry(1, 4, rules=("windoku",))


def test_givens_that_break_a_rule_are_named() -> None:
    cells = [0] * 81
    cells[20] = cells[31] = 1  # r3c3 and r4c5: a knight's move, different boxes
    knight = Puzzle(Geometry(3, 3, rules=("antiknight",)), tuple(cells))
    assert given_conflict(knight) == "r3c3=1 and r4c5=1 break the rules (antiknight)"
    assert backend("dlx").count(knight) == backend("pysat").count(knight) == 0


@pytest.mark.parametrize("name", ["pysat", "dlx", "cpsat", "external:minisat"])
def test_larger_geometries(name: str) -> None:
    """A 12x12 jigsaw (each band's rows shifted along by one column: regions that wrap around) and a
    16x16 X sudoku with windows: a grid from SAT, verified, then a puzzle made from it solved by each."""
    n = 12
    regions = tuple(tuple(r * n + c for r in range(n) for c in range(n)
                          if (r // 3) * 3 + ((c + r % 3) % n) // 4 == k) for k in range(n))
    for g in (Geometry(3, 4, regions=regions), Geometry(4, 4).with_rules(("x", "windoku"))):
        grid = backend("pysat").solve(Puzzle.empty(g), time_limit=120).grid
        assert is_solution(grid, Puzzle.empty(g))
        puzzle = Puzzle(g, tuple(v if k % 3 == 0 else 0 for k, v in enumerate(grid)))
        result = backend(name).solve(puzzle, time_limit=120)
        assert result.solved and is_solution(result.grid, puzzle)
