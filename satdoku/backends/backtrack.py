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
from satdoku.models.matrix import exact_cover
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
    tables = sums_of_cells(puzzle.geometry)
    used = [0] * n_groups  # per house or small region, bit d-1 set when digit d is in it
    for cell, digit in enumerate(cells):
        if digit:
            for h in houses_of_cell[cell]:
                used[h] |= 1 << (digit - 1)
    blanks = [cell for cell, digit in enumerate(cells) if not digit]
    if not all(fits(cells, group) for groups in tables for group in groups):  # givens that no set or tuple fits
        return
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
            while free and tables[cell]:  # killer cages and arrows: the digit must fit some set or tuple
                bit = free & -free
                cells[cell] = bit.bit_length()
                if all(fits(cells, group) for group in tables[cell]):
                    break
                free ^= bit
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
    """For each cell, its houses and small regions and cages (numbered after the houses), and how many
    there are."""
    n_houses = len(geometry.houses)
    groups = [list(hs) for hs in geometry.houses_of_cell]
    for k, region in enumerate(geometry.distinct_regions):
        for cell in region:
            groups[cell].append(n_houses + k)
    return tuple(tuple(g) for g in groups), n_houses + len(geometry.distinct_regions)


SumRows = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]  # a group's cells, and per option its digit masks


@cache
def sums_of_cells(geometry: Geometry) -> tuple[tuple[SumRows, ...], ...]:
    """For each cell, the sum groups of the matrix it is in (killer cages with a total, arrows), each as
    its cells and, per option, the digits (bits) each cell may hold."""
    out: list[list[SumRows]] = [[] for _ in range(geometry.n_cells)]
    if geometry.cages or geometry.arrows:
        matrix = exact_cover(geometry)
        for group, masks in zip(matrix.groups, matrix.group_masks):
            rows = (group.cells, tuple(map(tuple, masks.tolist())))
            for cell in group.cells:
                out[cell].append(rows)
    return tuple(tuple(rows) for rows in out)


def fits(cells: list[int], group: SumRows) -> bool:
    """True when some option of the group lets every filled cell of it hold its digit."""
    members, rows = group
    filled = [(j, 1 << (cells[c] - 1)) for j, c in enumerate(members) if cells[c]]
    return any(all(row[j] & bit for j, bit in filled) for row in rows)


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
