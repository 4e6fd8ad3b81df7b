"""The exact-cover matrix as CNF: exactly one option per item, over placement variables o + 1."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
from pysat.formula import CNF

from satdoku.models.matrix import ExactCover, exact_cover
from satdoku.models.puzzle import Grid, Puzzle


@dataclass(frozen=True)
class VarMap:
    """How CNF variables relate to the matrix: placement variable v is option v - 1."""

    matrix: ExactCover

    @property
    def n_placements(self) -> int:
        return self.matrix.n_options

    def var(self, r: int, c: int, d: int) -> int:
        """The variable of a 0-based placement.

        >>> from satdoku.models.geometry import Geometry
        >>> VarMap(exact_cover(Geometry(3, 3))).var(8, 8, 8)
        729
        """
        return self.matrix.option(r, c, d) + 1

    def decode(self, model: list[int] | np.ndarray) -> Grid:
        """The grid a model describes, read from its positive placement literals."""
        lits = np.asarray(model, dtype=np.int64)
        true = lits[(lits > 0) & (lits <= self.n_placements)] - 1
        return self.matrix.grid(true)


def exactly_one(lits: list[int]) -> list[list[int]]:
    """Exactly one of `lits`: one at-least-one clause and the pairwise at-most-one clauses.

    >>> exactly_one([1, 2, 3])
    [[1, 2, 3], [-1, -2], [-1, -3], [-2, -3]]
    """
    return [list(lits)] + [[-a, -b] for a, b in combinations(lits, 2)]


def encode(puzzle: Puzzle) -> tuple[CNF, VarMap]:
    """The puzzle as CNF: exactly one per item of the full matrix, each given a unit clause."""
    matrix = exact_cover(puzzle.geometry)
    cnf = CNF()
    for options in matrix.item_options:
        cnf.extend(exactly_one([int(o) + 1 for o in options]))
    varmap = VarMap(matrix)
    for r, c, d in puzzle.givens():
        cnf.append([varmap.var(r, c, d)])
    return cnf, varmap
