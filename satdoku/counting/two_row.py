"""The band-split classes that the count of grids with two-row boxes (2 x c, side n = 2c) sums over.

The grid has c bands of two rows and two stacks of c columns. In band b the two rows of the box in
stack 1 hold a half-set S_b of the digits and its complement; stack 2 then holds the complement in
the first row and S_b in the second. A stack is filled column by column with permutations whose
row r takes the digits of its row set: the number of ways is F(G), the ordered 1-factorizations of
the c-regular bipartite graph G (rows x digits). Stack 2's graph has the same row sets (each band's
two sets swapped), so

    grids(2 x c) = sum over (S_1, ..., S_c) of F(G(S))^2.

G(S) only depends on the multiset of splits {S_b, complement} up to relabelling digits, so the sum
runs over a few classes (26 for 2x4), each met with the number of tuples (S_1..S_c) it stands for,
built band by band: a class and a new split give a class whose weight grows by the old weight.
satdoku.counting.two_row_split computes F(G) for every class; tests/reference/two_row_class_sum.py
sums the same classes with the memoised F of satdoku.counting.bipartite, as a cross-check.
"""
from __future__ import annotations

from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from satdoku.counting.bipartite import Rows, canonical_form

if TYPE_CHECKING:
    from satdoku.counting.grids import Progress   # annotations only: grids imports this module


def splits(c: int) -> list[int]:
    """Each way to halve 2c digits once: the half holding digit 0, as a mask.

    >>> [bin(s) for s in splits(2)]
    ['0b11', '0b101', '0b1001']
    """
    return [sum(1 << d for d in half) for half in combinations(range(2 * c), c) if 0 in half]


def split_classes(c: int, progress: Progress | None = None) -> list[tuple[Rows, int]]:
    """Representatives of G(S) up to relabelling, each with its number of tuples (S_1..S_c).

    >>> [(len(rows), weight) for rows, weight in split_classes(2)]
    [(4, 12), (4, 24)]
    """
    n, full = 2 * c, (1 << 2 * c) - 1
    halves = splits(c)
    first = (halves[0], full ^ halves[0])
    level: dict[tuple, list] = {canonical_form(first, n): [first, comb(n, c)]}
    for band in range(2, c + 1):
        following: dict[tuple, list] = {}
        for done, (rows, weight) in enumerate(level.values()):
            if progress:
                progress(f"bands 1-{band}", done, len(level))
            for half in halves:
                grown = rows + (half, full ^ half)
                key = canonical_form(grown, n)
                if key in following:
                    following[key][1] += 2 * weight      # the split as S_b or as its complement
                else:
                    following[key] = [grown, 2 * weight]
        level = following
    return [(rows, weight) for rows, weight in level.values()]

