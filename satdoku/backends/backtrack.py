"""The classic backtracking solver: cells in reading order, digits in order, row/column/box checks.

This is the solver the project grew from (Inkala's puzzle in 0.374 s), kept honest as the baseline
of every comparison: no candidate lists, no cell ordering, no propagation. A digit may go in a cell
when none of the cell's houses (its row, column and box, from `Geometry.houses_of_cell`) holds it
yet. The search runs on an explicit stack of blank cells, so any grid size stays within Python's
recursion limit, and it looks at the clock every few thousand placements for the time limit.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from satdoku.backends.base import BuiltinBackend, Result, answer, out_of_time
from satdoku.deadline import Deadline
from satdoku.errors import TimeLimitReached
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Grid, Puzzle
from satdoku.models.verify import given_conflict

CLOCK_EVERY = 4096  # placements between two looks at the clock


def fill(puzzle: Puzzle, deadline: Deadline | None = None, stats: dict | None = None) -> Iterator[Grid]:
    """Every completion of the puzzle in lexicographic order (reading order, digits ascending).

    >>> from satdoku.models.geometry import Geometry
    >>> next(fill(Puzzle(Geometry(2, 2), (1, 0, 0, 0) + (0,) * 12)))
    (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    """
    if given_conflict(puzzle):
        return
    n, cells = puzzle.n, list(puzzle.cells)
    houses_of_cell, n_groups = groups_of_cells(puzzle.geometry)
    partners = puzzle.geometry.conflict_partners
    used = [0] * n_groups  # per house or small region, bit d-1 set when digit d is in it
    for cell, digit in enumerate(cells):
        if digit:
            for h in houses_of_cell[cell]:
                used[h] |= 1 << (digit - 1)
    blanks = [cell for cell, digit in enumerate(cells) if not digit]
    all_digits = (1 << n) - 1
    stats = {} if stats is None else stats
    placements = 0
    k = 0  # index into blanks of the cell being filled
    try:
        while k >= 0:
            if k == len(blanks):
                yield tuple(cells)
                k -= 1
                continue
            cell = blanks[k]
            houses = houses_of_cell[cell]
            digit = cells[cell]
            blocked = 0
            for h in houses:
                blocked |= used[h]
            for bit, other, value in partners[cell]:  # variants: a conflicting placement elsewhere
                if cells[other] == value:
                    blocked |= bit
            if digit:  # coming back: take the digit out, then look only above it
                bit = 1 << (digit - 1)
                for h in houses:
                    used[h] ^= bit
                blocked = (blocked ^ bit) | ((bit << 1) - 1)
            free = all_digits & ~blocked
            if not free:
                cells[cell] = 0
                k -= 1
                continue
            bit = free & -free
            cells[cell] = bit.bit_length()
            for h in houses:
                used[h] |= bit
            placements += 1
            if deadline is not None and placements % CLOCK_EVERY == 0:
                deadline.check()
            k += 1
    finally:
        stats["placements"] = placements


@cache
def groups_of_cells(geometry: Geometry) -> tuple[tuple[tuple[int, ...], ...], int]:
    """For each cell, its houses and small regions (numbered after the houses), and how many there are."""
    n_houses = len(geometry.houses)
    groups = [list(hs) for hs in geometry.houses_of_cell]
    for k, region in enumerate(geometry.at_most_once):
        for cell in region:
            groups[cell].append(n_houses + k)
    return tuple(tuple(g) for g in groups), n_houses + len(geometry.at_most_once)


class BacktrackBackend(BuiltinBackend):
    """The classic recursive-style solver as a backend: `backtrack`."""

    family = "backtrack"

    def solve_within(self, puzzle: Puzzle, deadline: Deadline) -> Result:
        stats: dict = {"placements": 0}
        search = fill(puzzle, deadline, stats)
        try:
            grid = next(search, None)
        except TimeLimitReached:
            return out_of_time(**stats)
        search.close()
        return answer(grid, **stats)

    def solutions_within(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        """Solutions in lexicographic order.

        >>> from satdoku.models.geometry import Geometry
        >>> BacktrackBackend().count(Puzzle.empty(Geometry(2, 2)))
        288
        """
        return fill(puzzle, deadline)
