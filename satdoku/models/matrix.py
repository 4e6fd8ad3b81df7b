"""The exact-cover matrix: options are placements (row, col, digit), items are cells and house-digits.

Option o = r*n*n + c*n + d (0-based) is the placement of digit d+1 in cell (r, c); its variable in
every encoder is o + 1, the usual DIMACS sudoku numbering. Item i < n*n is cell i = r*n + c; item
n*n + h*n + d is "digit d+1 in house h", houses numbered as in `Geometry.houses` (rows, columns,
boxes).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Grid, Puzzle, cell_name


@dataclass(frozen=True)
class ExactCover:
    """The full matrix of a geometry as two dense index arrays.

    >>> m = exact_cover(Geometry(3, 3))
    >>> m.n_options, m.n_items, m.option_items.shape
    (729, 324, (729, 4))
    """

    geometry: Geometry
    option_items: np.ndarray
    item_options: np.ndarray

    @property
    def n(self) -> int:
        return self.geometry.n

    @property
    def n_options(self) -> int:
        return len(self.option_items)

    @property
    def n_items(self) -> int:
        return len(self.item_options)

    def option(self, r: int, c: int, d: int) -> int:
        """The option of a 0-based placement.

        >>> exact_cover(Geometry(3, 3)).option(0, 0, 0)
        0
        """
        n = self.n
        return r * n * n + c * n + d

    def placement(self, option: int) -> tuple[int, int, int]:
        """The 0-based (row, col, digit) of an option.

        >>> exact_cover(Geometry(2, 2)).placement(63)
        (3, 3, 3)
        """
        n = self.n
        return option // (n * n), option // n % n, option % n

    def option_name(self, option: int) -> str:
        """A placement as people write it, such as 'r1c2=5'."""
        r, c, d = self.placement(option)
        return f"r{r + 1}c{c + 1}={d + 1}"

    def item_name(self, item: int) -> str:
        """An item as people say it, such as 'cell r1c1' or 'box 4 digit 7'."""
        n = self.n
        if item < n * n:
            return f"cell {cell_name(item, n)}"
        house, d = divmod(item - n * n, n)
        return f"{self.geometry.house_names[house]} digit {d + 1}"

    def given_options(self, puzzle: Puzzle) -> list[int]:
        """The options of a puzzle's givens; the puzzle must be of this matrix's geometry.

        >>> from satdoku.models.formats import parse_puzzle
        >>> exact_cover(Geometry(2, 2)).given_options(parse_puzzle("1000000200400300"))
        [0, 29, 43, 54]
        """
        if puzzle.geometry != self.geometry:
            raise ValueError(f"a {puzzle.geometry.label} puzzle for a {self.geometry.label} matrix")
        return [self.option(r, c, d) for r, c, d in puzzle.givens()]

    def reduce(self, puzzle: Puzzle) -> "ReducedCover":
        """The matrix left once a puzzle's givens are chosen."""
        return ReducedCover.from_givens(self, puzzle)

    def grid(self, options: np.ndarray | list[int]) -> Grid:
        """The grid that a set of n*n chosen options describes."""
        n = self.n
        cells = [0] * (n * n)
        for o in np.asarray(options, dtype=np.int64).tolist():
            cells[o // n] = o % n + 1
        return tuple(cells)


@cache
def exact_cover(geometry: Geometry) -> ExactCover:
    """The matrix of a geometry, built once and cached."""
    n = geometry.n
    houses = np.array(geometry.houses_of_cell, dtype=np.int64)
    options = np.arange(n ** 3, dtype=np.int64)
    cell, d = options // n, options % n
    house_items = n * n + houses[cell] * n + d[:, None]
    option_items = np.column_stack([cell, house_items]).astype(np.int32)
    order = np.argsort(option_items.ravel(), kind="stable")
    n_items = n * n + len(geometry.houses) * n
    per_item = option_items.size // n_items
    item_options = (order // option_items.shape[1]).reshape(-1, per_item).astype(np.int32)
    return ExactCover(geometry, option_items, item_options)


@dataclass(frozen=True)
class ReducedCover:
    """What is left of the matrix once the givens are chosen.

    `items` are the items still to cover and `item_options[k]` the options left for `items[k]`;
    `options` are every option still possible, `selected` the givens' options. `dead` is True when
    the givens clash or leave some item with no option: the puzzle then has no solution.
    """

    matrix: ExactCover
    selected: np.ndarray
    options: np.ndarray
    items: np.ndarray
    item_options: tuple[np.ndarray, ...]
    dead: bool

    @classmethod
    def from_givens(cls, matrix: ExactCover, puzzle: Puzzle) -> "ReducedCover":
        selected = np.array(matrix.given_options(puzzle), dtype=np.int64)
        covered = matrix.option_items[selected].ravel()
        clash = len(np.unique(covered)) != len(covered)
        alive = np.ones(matrix.n_options, dtype=bool)
        alive[matrix.item_options[covered].ravel()] = False
        open_items = np.ones(matrix.n_items, dtype=bool)
        open_items[covered] = False
        items = np.flatnonzero(open_items)
        rows = matrix.item_options[items]
        item_options = tuple(row[alive[row]] for row in rows)
        dead = clash or any(len(o) == 0 for o in item_options)
        return cls(matrix, selected, np.flatnonzero(alive), items, item_options, dead)
