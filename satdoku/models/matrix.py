"""The exact-cover matrix: options are placements (row, col, digit); items are what they cover.

Option o = r*n*n + c*n + d (0-based) is the placement of digit d+1 in cell (r, c); its variable in
every encoder is o + 1, the usual DIMACS sudoku numbering. The items, in this order:

- primary, covered exactly once: cell i = r*n + c (items 0 .. n*n - 1), then "digit d+1 in house h"
  (item n*n + h*n + d), houses numbered as in `Geometry.houses` (rows, columns, boxes or regions,
  then the houses of the rules: diagonals, windows, disjoint groups, extra regions of n cells);
  then the sum groups (`SumGroup`): per killer cage with a total, the cage item and "digit d+1 in the
  cage"; per arrow, the arrow item and "position i of the arrow is not digit d+1";
- secondary, covered at most once (Knuth's secondary items): "digit d+1 in region k" for each
  at-most-once region of `Geometry.at_most_once`, then one item per conflict of
  `Geometry.conflicts` (two placements that may not both hold), covered by those two options.

Options n^3 onwards are the sum groups' own: a killer cage has one option per set of digits that
reaches its total, covering the cage item and the cage-digit items of the digits the set leaves out
(so each digit is placed in the cage once or excused by the set); an arrow has one option per tuple
(circle digit, arrow digits) that sums right, covering the arrow item and, for each position, the
items of the digits the tuple does not put there (a placement there covers its own digit's item, so
the cells must agree with the tuple). Pure exact cover: every engine reads it alike.

A classic grid has placements and primary items only, numbered as they always were.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Grid, Puzzle, cell_name


@dataclass(frozen=True)
class SumGroup:
    """A killer cage with a total or an arrow in the matrix: its item, its detail items, its cells (circle
    first for an arrow) and its own options `first_option .. first_option + n_options - 1`."""

    kind: str            # "killer cage" or "arrow"
    number: int          # 1-based among its kind
    item: int
    cells: tuple[int, ...]
    first_option: int
    n_options: int

    @property
    def options(self) -> range:
        return range(self.first_option, self.first_option + self.n_options)


@dataclass(frozen=True)
class ExactCover:
    """The full matrix of a geometry: each option's items and each item's options (ragged).

    >>> m = exact_cover(Geometry(3, 3))
    >>> m.n_options, m.n_items, m.n_primary, len(m.option_items[0])
    (729, 324, 324, 4)
    """

    geometry: Geometry
    option_items: tuple[tuple[int, ...], ...]
    item_options: tuple[np.ndarray, ...]
    n_primary: int
    groups: tuple[SumGroup, ...] = ()

    @property
    def n(self) -> int:
        return self.geometry.n

    @property
    def n_placements(self) -> int:
        """The placement options, 0 .. n^3 - 1; the sum groups' options follow."""
        return self.n ** 3

    @cached_property
    def option_group(self) -> np.ndarray:
        """For each option, the index of its sum group in `groups`, -1 for a placement."""
        owner = np.full(self.n_options, -1, dtype=np.int64)
        for k, group in enumerate(self.groups):
            owner[group.first_option:group.first_option + group.n_options] = k
        return owner

    @cached_property
    def group_masks(self) -> tuple[np.ndarray, ...]:
        """Per sum group, per option and per cell of the group, the digits (bit d-1) the option lets that cell
        hold: those whose placement shares no item with the option."""
        out = []
        for group in self.groups:
            masks = np.zeros((group.n_options, len(group.cells)), dtype=np.int64)
            for k, o in enumerate(group.options):
                covered = set(self.option_items[o])
                for j, cell in enumerate(group.cells):
                    masks[k, j] = sum(1 << d for d in range(self.n)
                                      if covered.isdisjoint(self.option_items[cell * self.n + d]))
            out.append(masks)
        return tuple(out)

    @property
    def n_options(self) -> int:
        return len(self.option_items)

    @property
    def n_items(self) -> int:
        return len(self.item_options)

    def is_primary(self, item: int) -> bool:
        """True for an item covered exactly once (a cell or a house-digit)."""
        return item < self.n_primary

    @cached_property
    def item_sizes(self) -> np.ndarray:
        """The number of options of each item."""
        return np.array([len(o) for o in self.item_options], dtype=np.int64)

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
        """A placement as people write it, such as 'r1c2=5', or a sum group's option ('killer cage 1 {1,2}')."""
        if option >= self.n_placements:
            group = self.groups[int(self.option_group[option])]
            masks = self.group_masks[int(self.option_group[option])][option - group.first_option]
            digits = [[d + 1 for d in range(self.n) if m >> d & 1] for m in masks.tolist()]
            shown = "{" + ",".join(map(str, digits[0])) + "}" if group.kind == "killer cage" else \
                f"{digits[0][0]}={'+'.join(str(ds[0]) for ds in digits[1:])}"
            return f"{group.kind} {group.number} {shown}"
        r, c, d = self.placement(option)
        return f"r{r + 1}c{c + 1}={d + 1}"

    def item_name(self, item: int) -> str:
        """An item as people say it, such as 'cell r1c1', 'box 4 digit 7' or 'conflict r1c1=1 r2c3=1'."""
        n, g = self.n, self.geometry
        if item < n * n:
            return f"cell {cell_name(item, n)}"
        if item < n * n + len(g.houses) * n:
            house, d = divmod(item - n * n, n)
            return f"{g.house_names[house]} digit {d + 1}"
        if item < self.n_primary:
            group = max((grp for grp in self.groups if grp.item <= item), key=lambda grp: grp.item)
            if item == group.item:
                return f"{group.kind} {group.number} at {cell_name(group.cells[0], n)}"
            position, d = divmod(item - group.item - 1, n)
            if group.kind == "killer cage":
                return f"{group.kind} {group.number} digit {d + 1}"
            return f"arrow {group.number} {cell_name(group.cells[position], n)} digit {d + 1}"
        k = item - self.n_primary
        if k < len(g.at_most_once) * n:
            region, d = divmod(k, n)
            return f"small region {region + 1} digit {d + 1}"
        a, b = self.item_options[item]
        return f"conflict {self.option_name(int(a))} {self.option_name(int(b))}"

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
        """The grid that a set of chosen options describes (the sum groups' options say nothing more)."""
        n = self.n
        cells = [0] * (n * n)
        for o in np.asarray(options, dtype=np.int64).tolist():
            if o < self.n_placements:
                cells[o // n] = o % n + 1
        return tuple(cells)

    def coverage(self, chosen: np.ndarray) -> np.ndarray:
        """How many chosen options (a 0/1 vector over the options) cover each item."""
        return np.array([int(chosen[o].sum()) for o in self.item_options], dtype=np.int64)


@cache
def exact_cover(geometry: Geometry) -> ExactCover:
    """The matrix of a geometry, built once and cached."""
    if geometry.is_classic:
        return _classic_cover(geometry)
    n = geometry.n
    houses = [list(h) for h in geometry.houses_of_cell]
    regions_of_cell: list[list[int]] = [[] for _ in range(geometry.n_cells)]
    for k, region in enumerate(geometry.at_most_once):
        for cell in region:
            regions_of_cell[cell].append(k)
    groups, group_options, n_primary = _sum_groups(geometry, n * n + len(geometry.houses) * n)
    first_conflict = n_primary + len(geometry.at_most_once) * n
    conflicts_of: dict[int, list[int]] = {}
    for k, (a, da, b, db) in enumerate(geometry.conflicts):
        for option in (a * n + da, b * n + db):
            conflicts_of.setdefault(option, []).append(first_conflict + k)
    in_groups: list[list[int]] = [[] for _ in range(geometry.n_cells)]  # per cell: first detail item, stride
    for group in groups:
        for position, cell in enumerate(group.cells):
            in_groups[cell].append(group.item + 1 + (0 if group.kind == "killer cage" else position * n))
    option_items = []
    for o in range(n ** 3):
        cell, d = divmod(o, n)
        items = [cell] + [n * n + h * n + d for h in houses[cell]]
        items += [first + d for first in in_groups[cell]]
        items += [n_primary + k * n + d for k in regions_of_cell[cell]]
        items += conflicts_of.get(o, [])
        option_items.append(tuple(items))
    option_items += group_options
    n_items = first_conflict + len(geometry.conflicts)
    per_item: list[list[int]] = [[] for _ in range(n_items)]
    for o, items in enumerate(option_items):
        for item in items:
            per_item[item].append(o)
    item_options = tuple(np.array(options, dtype=np.int64) for options in per_item)
    return ExactCover(geometry, tuple(option_items), item_options, n_primary, groups)


def _sum_groups(geometry: Geometry, first_item: int) -> tuple[tuple[SumGroup, ...], list[tuple[int, ...]], int]:
    """The killer cages with a total and the arrows as sum groups, items numbered from `first_item`, their
    options' items (options numbered from n^3), and the next free item."""
    n = geometry.n
    groups: list[SumGroup] = []
    options: list[tuple[int, ...]] = []
    item, first_option = first_item, n ** 3
    for k, ((cells, _), sets) in enumerate(zip(geometry.summed_cages, geometry.cage_combinations), 1):
        groups.append(SumGroup("killer cage", k, item, tuple(cells), first_option, len(sets)))
        for digits in sets:
            options.append((item,) + tuple(item + 1 + d for d in range(n) if d + 1 not in digits))
        item, first_option = item + 1 + n, first_option + len(sets)
    for k, ((circle, cells), tuples) in enumerate(zip(geometry.arrows, geometry.arrow_tuples), 1):
        members = (circle,) + tuple(cells)
        groups.append(SumGroup("arrow", k, item, members, first_option, len(tuples)))
        for values in tuples:
            options.append((item,) + tuple(item + 1 + i * n + d for i, v in enumerate(values)
                                           for d in range(n) if d + 1 != v))
        item, first_option = item + 1 + len(members) * n, first_option + len(tuples)
    return tuple(groups), options, item


def _classic_cover(geometry: Geometry) -> ExactCover:
    """Rows, columns and boxes only: every option covers four items, built with numpy at once."""
    n = geometry.n
    houses = np.array(geometry.houses_of_cell, dtype=np.int64)
    options = np.arange(n ** 3, dtype=np.int64)
    cell, d = options // n, options % n
    option_items = np.column_stack([cell, n * n + houses[cell] * n + d[:, None]])
    order = np.argsort(option_items.ravel(), kind="stable")
    n_items = n * n + len(geometry.houses) * n
    item_options = (order // option_items.shape[1]).reshape(n_items, -1)
    return ExactCover(geometry, tuple(map(tuple, option_items.tolist())), tuple(item_options), n_items)


@dataclass(frozen=True)
class ReducedCover:
    """What is left of the matrix once the givens are chosen.

    `items` are the items still open (primary ones to cover, secondary ones that may still be
    covered) and `item_options[k]` the options left for `items[k]`; `options` are every option still
    possible, `selected` the givens' options. `dead` is True when the givens clash or leave some
    primary item with no option: the puzzle then has no solution.
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
        covered = np.array([i for o in selected.tolist() for i in matrix.option_items[o]], dtype=np.int64)
        clash = len(np.unique(covered)) != len(covered)
        alive = np.ones(matrix.n_options, dtype=bool)
        for item in covered.tolist():
            alive[matrix.item_options[item]] = False
        open_items = np.ones(matrix.n_items, dtype=bool)
        open_items[covered] = False
        items = np.flatnonzero(open_items)
        item_options = tuple(matrix.item_options[i][alive[matrix.item_options[i]]] for i in items.tolist())
        dead = clash or any(len(o) == 0 for i, o in zip(items.tolist(), item_options) if i < matrix.n_primary)
        return cls(matrix, selected, np.flatnonzero(alive), items, item_options, dead)
