"""Reference: grids with 2 x c boxes as the plain class sum, each class's F by memoised 1-factorizations.

grids(2 x c) = sum over split classes of weight * F(G)^2 (satdoku.counting.two_row), with F(G) from
satdoku.counting.bipartite's memoised peeling of perfect matchings instead of the met-in-the-middle
colourings of satdoku.counting.two_row_split: the tests hold the two against each other up to 2x4.
"""
from __future__ import annotations

from math import comb

from satdoku.counting.bipartite import Factorizations
from satdoku.counting.grids import Progress
from satdoku.counting.two_row import split_classes


def count_two_row_grids(c: int, progress: Progress | None = None) -> tuple[int, int]:
    """The number of complete grids with 2 x c boxes, and the number of classes summed over.

    >>> count_two_row_grids(2)
    (288, 2)
    """
    classes = split_classes(c, progress)
    assert sum(weight for _, weight in classes) == comb(2 * c, c) ** c
    factorizations = Factorizations()
    total = 0
    for done, (rows, weight) in enumerate(classes):
        if progress:
            progress("stacks", done, len(classes))
        total += weight * factorizations(rows, 2 * c) ** 2
    if progress:
        progress("stacks", len(classes), len(classes))
    return total, len(classes)
