"""Two-row-box grids by splitting each stack's bands in two and meeting in the middle.

As in satdoku.counting.two_row, grids(2 x c) = sum over split classes of weight * F(G)^2, where
F(G) counts the proper c-edge-colourings of the stack graph G (2c rows x 2c digits, band b giving
a row S_b and a row with its complement). Here F is split at a band boundary: the front bands'
colourings F_front(U) end with digit d holding the colour set U_d, the back bands' with V_d, and

    F(G) = sum over U of F_front(U) * F_back(complement of U).

Both sides are computed by a row-by-row dynamic programme over colourings up to renaming colours
(satdoku.counting.colouring_kernels), once per shape of band set up to renaming digits, bands and
the two rows of a band: for 2x5, eight three-band fronts and three two-band backs serve all 355
classes, each class then costing only one join.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations, permutations, product
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from satdoku.counting import colouring_kernels as kernels
from satdoku.counting.two_row import split_classes

if TYPE_CHECKING:
    from satdoku.counting.grids import Progress   # annotations only: grids imports this module

MAX_C = 5          # c columns of 2c bits must fit a packed int64 key


@dataclass(frozen=True)
class BandShape:
    """A set of bands up to renaming digits, bands and the two rows of a band.

    `patterns` is the sorted tuple, one per digit, of the bits telling which row of each band
    holds the digit: the smallest such tuple over all band orders and row swaps.
    """

    patterns: tuple[int, ...]
    bands: int

    def rows(self) -> list[int]:
        """The graph's rows: for each band, the digits in its first row, then the rest.

        >>> BandShape((0, 0, 1, 1), 1).rows()
        [12, 3]
        """
        n = len(self.patterns)
        out = []
        for band in range(self.bands):
            first = sum(1 << i for i, p in enumerate(self.patterns) if p >> band & 1)
            out += [first, ((1 << n) - 1) ^ first]
        return out


def band_shape(halves: Iterable[int], n: int) -> tuple[BandShape, list[int]]:
    """The shape of some bands (each as the mask of its first row), and where each digit goes.

    The second value maps digit d to its position in the shape's digit order.

    >>> shape, where = band_shape([0b0011], 4)
    >>> shape.patterns, where
    ((0, 0, 1, 1), [2, 3, 0, 1])
    """
    halves = list(halves)
    best: tuple | None = None
    for order in permutations(range(len(halves))):
        for flips in product((0, 1), repeat=len(halves)):
            patterns = [sum(((halves[b] >> d & 1) ^ flip) << j
                            for j, (b, flip) in enumerate(zip(order, flips))) for d in range(n)]
            ranked = sorted(range(n), key=lambda d: patterns[d])
            key = tuple(patterns[d] for d in ranked)
            if best is None or key < best[0]:
                best = (key, ranked)
    assert best is not None
    key, ranked = best
    where = [0] * n
    for position, d in enumerate(ranked):
        where[d] = position
    return BandShape(key, len(halves)), where


@dataclass
class Side:
    """Colourings of one shape's rows, up to renaming colours, as sorted packed states."""

    keys: np.ndarray
    values: np.ndarray

    @classmethod
    def colour(cls, shape: BandShape, c: int) -> Side:
        """All colourings of the shape's rows, with how many labelled colourings each stands for."""
        n = 2 * c
        keys, values = np.zeros(1, np.int64), np.ones(1, np.int64)
        for row in shape.rows():
            keys, values = kernels.row_step(keys, values, row, c, n)
        order = np.argsort(keys)
        return cls(keys[order], values[order])

    def per_state(self, c: int) -> np.ndarray:
        """The colourings count of one labelled member of each state's orbit."""
        sizes = kernels.orbit_sizes(self.keys, c, 2 * c)
        each, rest = np.divmod(self.values, sizes)
        assert not rest.any(), "orbit totals must split evenly"
        return each


def relabel_table(mapping: list[int], n: int) -> np.ndarray:
    """For every digit mask, the mask with digit i renamed mapping[i].

    >>> relabel_table([1, 0], 2).tolist()
    [0, 2, 1, 3]
    """
    masks = np.arange(1 << n, dtype=np.int64)
    table = np.zeros(1 << n, np.int64)
    for digit, renamed in enumerate(mapping):
        table |= (masks >> digit & 1) << renamed
    return table


@dataclass(frozen=True)
class Plan:
    """How one split class is joined: its front and back shapes and the digit renaming between."""

    front: BandShape
    back: BandShape
    back_to_front: tuple[int, ...]


def plans(c: int, classes: list[tuple[tuple[int, ...], int]]) -> list[Plan]:
    """A front/back split for every class, using as few distinct front shapes as greedily found."""
    n, front_size = 2 * c, c - c // 2
    options = []
    for rows, _ in classes:
        halves = [rows[2 * b] for b in range(c)]
        shaped = {}
        for chosen in combinations(range(c), front_size):
            shape, where = band_shape((halves[b] for b in chosen), n)
            shaped.setdefault(shape, (chosen, where))
        options.append((halves, shaped))
    used: set[BandShape] = set()
    pending = list(range(len(options)))
    while pending:
        tally = Counter(shape for i in pending for shape in options[i][1])
        best = max(tally, key=lambda shape: (tally[shape], shape.patterns))
        used.add(best)
        pending = [i for i in pending if best not in options[i][1]]
    out = []
    for halves, shaped in options:
        front = min((s for s in shaped if s in used), key=lambda s: s.patterns)
        chosen, front_where = shaped[front]
        back, back_where = band_shape((halves[b] for b in range(c) if b not in chosen), n)
        digit_of = {position: d for d, position in enumerate(back_where)}
        out.append(Plan(front, back,
                        tuple(front_where[digit_of[i]] for i in range(n))))
    return out


def class_factorizations(c: int, progress: Progress | None = None) -> list[tuple[tuple[int, ...], int, int]]:
    """Each split class's stack graph rows, its weight, and F (its ordered 1-factorizations).

    >>> [(weight, f) for _, weight, f in class_factorizations(2)]
    [(12, 4), (24, 2)]
    """
    if not 1 <= c <= MAX_C:
        raise ValueError(f"2x{c}: the split count handles 2x1 to 2x{MAX_C}")
    n = 2 * c
    classes = split_classes(c, progress)
    assert sum(weight for _, weight in classes) == comb(n, c) ** c
    steps = plans(c, classes)
    fronts = sorted({plan.front for plan in steps}, key=lambda s: s.patterns)
    backs = sorted({plan.back for plan in steps}, key=lambda s: s.patterns)
    shapes = len(fronts) + len(backs)
    front_sides: dict[BandShape, tuple[np.ndarray, np.ndarray]] = {}
    back_sides: dict[BandShape, Side] = {}
    for done, shape in enumerate(fronts):
        if progress:
            progress("band shapes", done, shapes)
        side = Side.colour(shape, c)
        front_sides[shape] = (side.keys, side.per_state(c))
    for done, shape in enumerate(backs, start=len(fronts)):
        if progress:
            progress("band shapes", done, shapes)
        back_sides[shape] = Side.colour(shape, c)
    out = []
    for done, ((rows, weight), plan) in enumerate(zip(classes, steps)):
        if progress:
            progress("classes", done, len(steps))
        back = back_sides[plan.back]
        front_keys, front_each = front_sides[plan.front]
        f, approx = kernels.join(back.keys, back.values, relabel_table(list(plan.back_to_front), n),
                                 front_keys, front_each, c, n)
        if abs(f - approx) > 1e-6 * max(approx, 1.0):
            raise OverflowError(f"2x{c}: a class's colouring count overflowed 64 bits")
        out.append((rows, weight, int(f)))
    if progress:
        progress("classes", len(steps), len(steps))
    return out


def count_two_row_grids_split(c: int, progress: Progress | None = None) -> tuple[int, int]:
    """The number of complete grids with 2 x c boxes, and the number of classes joined.

    >>> count_two_row_grids_split(3)
    (28200960, 4)
    """
    classes = class_factorizations(c, progress)
    return sum(weight * f ** 2 for _, weight, f in classes), len(classes)
