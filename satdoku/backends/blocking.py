"""The one blocking-clause enumerator, over any SAT solver that can take clauses between calls.

Each solution found is blocked by a clause over the placements of its deciding cells only (never
auxiliary variables: see `cnf.deciding_cells`), so the next call must find another grid. Every
blocking clause carries a fresh activation literal; the enumeration assumes it and, when it
ends (exhausted, stopped at a limit, or out of time), adds its negation, which retires those
clauses for good and leaves the solver as sound and usable as before.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

import numpy as np

from satdoku.deadline import Deadline
from satdoku.encoders.cnf import VarMap, deciding_cells
from satdoku.models.puzzle import Grid, Puzzle


class SatOracle(Protocol):
    """What the enumerator needs of a solver: solve under assumptions, take clauses, new variables."""

    def true_placements(self, assumptions: list[int], deadline: Deadline) -> list[int] | None:
        """The true placement variables of a model, None when unsatisfiable; TimeLimitReached when out of time."""

    def add_clause(self, clause: list[int]) -> None:
        """Add a clause for every later call."""

    def new_var(self) -> int:
        """A variable no clause uses yet."""


def blocked_solutions(oracle: SatOracle, varmap: VarMap, puzzle: Puzzle, assumptions: list[int],
                      deadline: Deadline) -> Iterator[Grid]:
    """Every solution of the puzzle's formula under `assumptions`, each blocked once found.

    >>> from satdoku.backends.pysat import FreshOracle
    >>> from satdoku.models.formats import parse_puzzle
    >>> p = parse_puzzle("." * 16)
    >>> sum(1 for _ in blocked_solutions(*FreshOracle.for_puzzle(p, "cadical195"), p, [], Deadline(None)))
    288
    """
    n, n_cells = puzzle.n, puzzle.geometry.n_cells
    plain = not varmap.fixed and varmap.free is None  # every placement variable is in the formula
    blocks = [False] + [d for d in deciding_cells(puzzle) for _ in range(n)]
    act = oracle.new_var()
    assumptions = assumptions + [act]
    try:
        while True:
            true = oracle.true_placements(assumptions, deadline)
            if true is None:
                return
            if not plain:
                true = (np.sort(varmap.true_options(true)) + 1).tolist()
            if len(true) == n_cells:  # one per cell, in cell order already
                yield tuple([(v - 1) % n + 1 for v in true])
            else:
                yield varmap.matrix.grid([v - 1 for v in true])
            deciding = [-v for v in true if blocks[v]]
            if not deciding:  # nothing open: that was the only grid
                return
            oracle.add_clause([-act] + deciding)
    finally:
        oracle.add_clause([-act])
