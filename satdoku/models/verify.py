"""The independent verifier: checks a grid against the rules and the givens directly."""
from __future__ import annotations

from collections.abc import Sequence

from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle, cell_name


def solution_problems(grid: Sequence[int], puzzle: Puzzle) -> list[str]:
    """Every reason why `grid` is not a solution of `puzzle` (empty when it is one).

    The rules come from the puzzle's own houses (`Geometry.houses`: rows, columns, boxes and any
    house a variant adds), each of which must hold every digit 1..n once, and its givens.
    """
    n = puzzle.n
    if len(grid) != n * n:
        return [f"grid has {len(grid)} cells, expected {n * n}"]
    problems = [f"{cell_name(i, n)} holds {v}, outside 1..{n}"
                for i, v in enumerate(grid) if not (isinstance(v, int) and 1 <= v <= n)]
    problems += [f"{cell_name(i, n)} holds {grid[i]} but the given is {g}"
                 for i, g in enumerate(puzzle.cells) if g and grid[i] != g]
    full = set(range(1, n + 1))
    for name, cells in zip(puzzle.geometry.house_names, puzzle.geometry.houses):
        seen = {grid[cell] for cell in cells}
        if seen != full:
            problems.append(f"{name} misses digits {sorted(full - seen)}")
    return problems


def is_solution(grid: Sequence[int], puzzle: Puzzle) -> bool:
    """True when `grid` fills every house with 1..n and keeps every given.

    >>> from satdoku.models.geometry import Geometry
    >>> p = Puzzle.empty(Geometry(2, 2))
    >>> is_solution((1,2,3,4, 3,4,1,2, 2,1,4,3, 4,3,2,1), p)
    True
    """
    return not solution_problems(grid, puzzle)


def is_complete_grid(grid: Sequence[int], geometry: Geometry) -> bool:
    """True when `grid` is a valid complete grid of the geometry (no givens to keep)."""
    return is_solution(grid, Puzzle.empty(geometry))


def given_conflict(puzzle: Puzzle) -> str | None:
    """The first pair of equal givens sharing a house, as a message, or None.

    >>> from satdoku.models.geometry import Geometry
    >>> given_conflict(Puzzle(Geometry(2, 2), (1, 1) + (0,) * 14))
    'digit 1 twice in row 1: r1c1 and r1c2'
    """
    n = puzzle.n
    for name, cells in zip(puzzle.geometry.house_names, puzzle.geometry.houses):
        seen: dict[int, int] = {}
        for cell in cells:
            v = puzzle.cells[cell]
            if not v:
                continue
            if v in seen:
                return f"digit {v} twice in {name}: {cell_name(seen[v], n)} and {cell_name(cell, n)}"
            seen[v] = cell
    return None
