"""The one backend contract, the same for every family: solve, solutions, count, limits, time limits.

Every grid is checked by the independent verifier; counts are cross-checked against known values
(288 complete 4x4 grids; 6,670,903,752,021,072,936,960 for 9x9, so no count of an empty 9x9 ends
before a time limit).
"""
from __future__ import annotations

import time

import pytest

from satdoku.backends.TEMPLATE import TemplateBackend
from satdoku.backends.base import Backend, Status
from satdoku.backends.registry import get_backend
from satdoku.errors import BackendUnavailable, TimeLimitReached
from satdoku.models.formats import parse_puzzle
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution

FAST = ["pysat", "pysat:glucose4", "dlx", "backtrack", "logic"]
SLOW_START = ["cpsat", "ilp:highs", "ilp:cbc", "external:minisat", "external:cadical"]
EMPTY_4X4 = Puzzle.empty(Geometry(2, 2))
EMPTY_9X9 = Puzzle.empty(Geometry(3, 3))
TOLERANCE = 1.5  # seconds a family may run past its deadline (process start-up, a solver's last step)


def backend(name: str) -> Backend:
    if name == "template":
        return TemplateBackend()
    try:
        return get_backend(name)
    except BackendUnavailable as err:
        pytest.skip(str(err))


@pytest.mark.parametrize("name", FAST + SLOW_START + ["template"])
def test_solve_count_and_limits(name: str) -> None:
    b = backend(name)
    puzzle = parse_puzzle("1000000200400300")
    result = b.solve(puzzle)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle) and result.backend == b.name
    assert b.count(puzzle) == 1
    assert b.count(EMPTY_4X4, limit=10) == 10
    grids = list(b.solutions(EMPTY_4X4, limit=3))
    assert len(grids) == len(set(grids)) == 3 and all(is_solution(g, EMPTY_4X4) for g in grids)
    assert list(b.solutions(EMPTY_4X4, limit=0)) == [] and b.count(EMPTY_4X4, limit=0) == 0
    dead = parse_puzzle("123.\n...4\n....\n....")
    assert b.solve(dead).status is Status.NO_SOLUTION and b.count(dead) == 0


@pytest.mark.parametrize("name", ["pysat", "dlx", "backtrack", "logic", "template", "cpsat"])
def test_every_4x4_grid(name: str) -> None:
    b = backend(name)
    grids = list(b.solutions(EMPTY_4X4))
    assert len(grids) == len(set(grids)) == b.count(EMPTY_4X4) == 288
    assert all(is_solution(g, EMPTY_4X4) for g in grids)


@pytest.mark.parametrize("name", FAST + SLOW_START + ["template"])
def test_count_stops_at_the_time_limit_with_the_count_so_far(name: str) -> None:
    b = backend(name)
    start = time.perf_counter()
    with pytest.raises(TimeLimitReached) as stopped:
        b.count(EMPTY_9X9, time_limit=0.5)
    assert time.perf_counter() - start < 0.5 + TOLERANCE
    assert stopped.value.found >= 0 and "time limit" in str(stopped.value)


@pytest.mark.parametrize("name", FAST + SLOW_START + ["template"])
def test_enumeration_stops_at_the_time_limit(name: str) -> None:
    b = backend(name)
    start = time.perf_counter()
    seen = []
    with pytest.raises(TimeLimitReached) as stopped:
        for grid in b.solutions(EMPTY_9X9, time_limit=0.5):
            seen.append(grid)
    assert time.perf_counter() - start < 0.5 + TOLERANCE
    assert stopped.value.found == len(seen) and all(is_solution(g, EMPTY_9X9) for g in seen[:20])


@pytest.mark.parametrize("name", FAST + ["cpsat", "ilp:highs", "template"])
def test_solve_many_keeps_order_and_a_limit_per_puzzle(name: str) -> None:
    b = backend(name)
    puzzles = [parse_puzzle("1000000200400300"), parse_puzzle("123.\n...4\n....\n...."), EMPTY_4X4]
    results = list(b.solve_many(puzzles, time_limit=30))
    assert [r.status for r in results] == [Status.SOLVED, Status.NO_SOLUTION, Status.SOLVED]
    assert is_solution(results[0].grid, puzzles[0]) and is_solution(results[2].grid, EMPTY_4X4)


def test_a_family_without_solutions_says_so() -> None:
    class Empty(Backend):
        family = "empty"

    with pytest.raises(NotImplementedError, match="empty"):
        Empty().count(EMPTY_4X4)


def test_reused_pysat_solver_is_rebuilt_after_many_enumerations(monkeypatch) -> None:
    import satdoku.backends.pysat as pysat_module
    monkeypatch.setattr(pysat_module, "REBUILD_AFTER", 10)
    b = pysat_module.PysatBackend()
    puzzle = parse_puzzle("1.........4..3..")
    counts = [b.count(puzzle) for _ in range(8)]
    assert set(counts) == {counts[0]} and counts[0] > 1
    reused = b.reused(puzzle.geometry)
    assert reused.rebuilds >= 1 and reused.added < 10 + counts[0] + 1
