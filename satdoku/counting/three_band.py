"""Grids with r x 3 boxes (three bands: 3x3, 2x3, 1x3), counted from the bands' column profiles.

A band's column profile gives, for each of its n = 3r columns, the set of r digits in it; inside a
stack the three sets split the digits. A band with a given profile P is a proper r-edge-colouring
(colours: the band's rows) of the graph H_P, columns x digits, so there are N(P) = F(H_P) of them,
and three bands make a grid exactly when their profiles split every column's digits:

    grids = sum over P1 of N(P1) * sum over P2 of N(P2) * N(P3),  P3 = the columns' leftovers.

N and the inner sum C(P1) are unchanged by renaming digits, reordering the columns of a stack and
reordering stacks. Up to renaming digits, P1 is a table over [3]^r: for each digit, which column
of each stack holds it, each plane of the table summing to r; the tables fall into 44 classes
under the other two symmetries for 3x3 (the "44" of Felgenhauer and Jarvis), so C is computed 44
times, each a compiled loop over the 56^3 choices of P2 (satdoku.counting.colouring_kernels).
"""
from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, permutations, product
from math import factorial, prod
from typing import TYPE_CHECKING

import numpy as np

from satdoku.counting import colouring_kernels as kernels

if TYPE_CHECKING:
    from satdoku.counting.grids import Progress   # annotations only: grids imports this module

Cell = tuple[int, ...]


def tables(r: int, planes: int | None = None) -> Iterator[tuple[int, ...]]:
    """Every way to give the 3r digits, as counts per cell of [3]^planes, r digits per plane.

    Built coordinate by coordinate: each cell of a table over one coordinate fewer is split
    among the three values of the last coordinate, each of its planes again taking r digits.

    >>> sum(1 for _ in tables(2))     # 3 x 3 tables with every row and column summing to 2
    21
    """
    planes = r if planes is None else planes
    if planes == 0:
        yield (3 * r,)
        return
    for shorter in tables(r, planes - 1):
        yield from _split_cells(shorter, 0, [0, 0, 0], [], r)


def _split_cells(shorter: tuple[int, ...], i: int, sums: list[int], done: list[int],
                 r: int) -> Iterator[tuple[int, ...]]:
    if i == len(shorter):
        if sums == [r, r, r]:
            yield tuple(done)
        return
    m = shorter[i]
    for a in range(min(m, r - sums[0]) + 1):
        for b in range(min(m - a, r - sums[1]) + 1):
            c = m - a - b
            if sums[2] + c > r:
                continue
            sums[0] += a
            sums[1] += b
            sums[2] += c
            done.extend((a, b, c))
            yield from _split_cells(shorter, i + 1, sums, done, r)
            del done[-3:]
            sums[0] -= a
            sums[1] -= b
            sums[2] -= c


def table_classes(r: int) -> tuple[list[tuple[tuple[int, ...], int]], dict[tuple[int, ...], int]]:
    """One table per class under reordering columns in a stack and stacks, with the number of
    labelled profiles the class stands for; and every table's class.

    >>> table_classes(1)
    ([((1, 1, 1), 6)], {(1, 1, 1): 0})
    """
    cells = list(product(range(3), repeat=r))
    index = {cell: i for i, cell in enumerate(cells)}
    moves = [[index[tuple(values[k][cell[order[k]]] for k in range(r))] for cell in cells]
             for order in permutations(range(r))
             for values in product(list(permutations(range(3))), repeat=r)]
    n = 3 * r
    class_of: dict[tuple[int, ...], int] = {}
    out = []
    for table in tables(r):
        if table in class_of:
            continue
        orbit = set()
        for move in moves:
            image = [0] * len(cells)
            for i, m in enumerate(table):
                image[move[i]] = m
            orbit.add(tuple(image))
        class_of.update((t, len(out)) for t in orbit)
        weight = sum(factorial(n) // prod(factorial(m) for m in t) for t in orbit)
        out.append((table, weight))
    return out, class_of


def profile(table: tuple[int, ...], r: int) -> list[list[int]]:
    """A first-band profile with this table: for each stack, its three column masks.

    >>> profile((1, 1, 1), 1)
    [[1, 2, 4]]
    """
    cells = list(product(range(3), repeat=r))
    digits = [cell for cell, m in zip(cells, table) for _ in range(m)]
    return [[sum(1 << d for d, cell in enumerate(digits) if cell[s] == j) for j in range(3)]
            for s in range(r)]


def stack_options(first: list[int], r: int) -> list[tuple[int, ...]]:
    """The ways to continue one stack in bands 2 and 3: their three column masks each.

    >>> len(stack_options([0b000011, 0b001100, 0b110000], 2))
    10
    """
    n = 3 * r
    full = (1 << n) - 1
    out = []
    for second0 in combinations([d for d in range(n) if not first[0] >> d & 1], r):
        mask0 = sum(1 << d for d in second0)
        free1 = [d for d in range(n) if not (first[1] | mask0) >> d & 1]
        for second1 in combinations(free1, r):
            mask1 = sum(1 << d for d in second1)
            mask2 = full ^ mask0 ^ mask1
            if mask2 & first[2]:
                continue
            second = (mask0, mask1, mask2)
            third = tuple(full ^ first[j] ^ second[j] for j in range(3))
            out.append(second + third)
    return out


def table_key(table: tuple[int, ...]) -> int:
    """A table packed two bits per cell, first cell lowest.

    >>> table_key((1, 1, 1))
    21
    """
    return sum(m << 2 * i for i, m in enumerate(table))


def columns_of(masks: tuple[int, ...], n: int) -> list[int]:
    """For each digit, which of three column masks holds it.

    >>> columns_of((0b001, 0b100, 0b010), 3)
    [0, 2, 1]
    """
    return [next(j for j, mask in enumerate(masks) if mask >> d & 1) for d in range(n)]


def count_three_band_grids(r: int, progress: Progress | None = None) -> tuple[int, int]:
    """The number of complete grids with r x 3 boxes (r = 1, 2, 3), and the classes summed.

    >>> count_three_band_grids(1), count_three_band_grids(2)
    ((12, 1), (28200960, 3))
    """
    if r not in (1, 2, 3):
        raise ValueError(f"{r}x3: the three-band count handles 1x3, 2x3 and 3x3")
    n = 3 * r
    classes, class_of = table_classes(r)
    assert sum(w for _, w in classes) == (factorial(n) // factorial(r) ** 3) ** r
    firsts = [profile(table, r) for table, _ in classes]
    fillings = np.array([kernels.band_fillings(np.array([m for stack in first for m in stack], np.int64), n, r)
                         for first in firsts], np.int64)
    ordered = sorted(class_of, key=table_key)
    table_keys = np.array([table_key(t) for t in ordered], np.int64)
    class_index = np.array([class_of[t] for t in ordered], np.int64)
    total = 0
    for done, ((_, weight), first) in enumerate(zip(classes, firsts)):
        if progress:
            progress("classes", done, len(classes))
        options = [stack_options(stack, r) for stack in first]
        most = max(len(o) for o in options)
        second = np.zeros((r, most, n), np.int64)
        third = np.zeros((r, most, n), np.int64)
        for s, stack in enumerate(options):
            for i, option in enumerate(stack):
                second[s, i] = columns_of(option[:3], n)
                third[s, i] = columns_of(option[3:], n)
        counts = np.array([len(o) for o in options], np.int64)
        completions = kernels.two_band_completions(second, third, counts, r, table_keys, class_index, fillings)
        total += weight * int(fillings[done]) * int(completions)
    if progress:
        progress("classes", len(classes), len(classes))
    return total, len(classes)
