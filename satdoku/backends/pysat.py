"""PySAT solvers (CaDiCaL, Glucose, MiniSat, ...) over the CNF encoding of the matrix."""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator

from pysat.solvers import Solver, SolverNames

from satdoku.backends.base import Backend, Result, Status, timed
from satdoku.encoders.cnf import VarMap, encode
from satdoku.errors import BackendUnavailable
from satdoku.models.puzzle import Grid, Puzzle


def _engine_names() -> list[str]:
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


def solve_limited(solver: Solver, time_limit: float | None, assumptions: list[int] | None = None) -> bool | None:
    """Solve, interrupting after `time_limit` seconds; None when interrupted.

    >>> with Solver(name="cadical195", bootstrap_with=[[1, 2], [-1]]) as s:
    ...     solve_limited(s, 5.0)
    True
    """
    if time_limit is None:
        return solver.solve(assumptions=assumptions or [])
    timer = threading.Timer(time_limit, solver.interrupt)
    timer.start()
    try:
        return solver.solve_limited(assumptions=assumptions or [], expect_interrupt=True)
    finally:
        timer.cancel()
        solver.clear_interrupt()


class PysatBackend(Backend):
    """Any PySAT solver by name: `pysat` is `pysat:cadical195`."""

    family = "pysat"
    default_engine = "cadical195"
    requirement = "python-sat"

    def __init__(self, engine: str | None = None, **options: object) -> None:
        super().__init__(engine, **options)
        if self.engine not in _engine_names():
            raise BackendUnavailable(f"unknown PySAT solver {self.engine!r}; "
                                     f"choose from {', '.join(_engine_names())}")

    @classmethod
    def engines(cls) -> list[str]:
        return _engine_names()

    @classmethod
    def version(cls) -> str:
        import pysat
        return pysat.__version__

    def _solver(self, puzzle: Puzzle) -> tuple[Solver, VarMap]:
        cnf, varmap = encode(puzzle)
        return Solver(name=self.engine, bootstrap_with=cnf.clauses), varmap

    def solve(self, puzzle: Puzzle, time_limit: float | None = None) -> Result:
        start = time.perf_counter()
        solver, varmap = self._solver(puzzle)
        with solver:
            answer = solve_limited(solver, time_limit)
            if answer is None:
                return timed(Status.UNKNOWN, None, self.name, start)
            if not answer:
                return timed(Status.NO_SOLUTION, None, self.name, start)
            return timed(Status.SOLVED, varmap.decode(solver.get_model()), self.name, start)

    def solutions(self, puzzle: Puzzle, limit: int | None = None) -> Iterator[Grid]:
        """Every solution, each blocked afterwards by a clause over its true placement variables."""
        solver, varmap = self._solver(puzzle)
        with solver:
            found = 0
            while (limit is None or found < limit) and solver.solve():
                grid = varmap.decode(solver.get_model())
                yield grid
                found += 1
                n = puzzle.n
                solver.add_clause([-varmap.var(i // n, i % n, v - 1) for i, v in enumerate(grid)])
