"""PySAT solvers (CaDiCaL, Glucose, MiniSat, ...) over the CNF encoding of the matrix.

One solver per geometry is built once with the full encoding and reused: each puzzle's givens are
assumptions, each enumeration's blocking clauses hang off a fresh activation literal that is
switched off afterwards, so the solver stays sound and usable for the next question.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator

import numpy as np
from pysat.solvers import Solver, SolverNames

from satdoku.backends.base import Backend, Result, Status, timed
from satdoku.encoders.cnf import (AMO_KINDS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS, GIVENS,
                                  NATIVE_SOLVERS, VarMap, check_choice, deciding_cells, encode,
                                  given_literals)
from satdoku.errors import BackendUnavailable
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Grid, Puzzle


REUSE_MAX_SIDE = 16


def _engine_names() -> list[str]:
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


def interruptible(solver: Solver) -> bool:
    """True when the solver can be interrupted from another thread (CaDiCaL in PySAT cannot)."""
    try:
        solver.clear_interrupt()
        return True
    except NotImplementedError:
        return False


def solve_limited(solver: Solver, time_limit: float | None, assumptions: list[int] | None = None) -> bool | None:
    """Solve, giving up after `time_limit` seconds; None when the time ran out.

    Solvers that take an interrupt get one from a timer; the others (CaDiCaL) search in slices of
    a conflict budget until the deadline, keeping what they learnt between slices.

    >>> with Solver(name="cadical195", bootstrap_with=[[1, 2], [-1]]) as s:
    ...     solve_limited(s, 5.0)
    True
    """
    assumptions = assumptions or []
    if time_limit is None:
        return solver.solve(assumptions=assumptions)
    if not interruptible(solver):
        return _solve_in_slices(solver, time.perf_counter() + time_limit, assumptions)
    timer = threading.Timer(time_limit, solver.interrupt)
    timer.start()
    try:
        return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
        solver.clear_interrupt()


def _solve_in_slices(solver: Solver, deadline: float, assumptions: list[int]) -> bool | None:
    """solve_limited under growing conflict budgets until an answer or the deadline."""
    budget = 1000
    while True:
        solver.conf_budget(budget)
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer
        if time.perf_counter() >= deadline:
            return None
        budget = min(2 * budget, 16000)


class ReusedSolver:
    """One solver holding the full encoding of a geometry; puzzles come in as assumptions."""

    def __init__(self, engine: str, geometry: Geometry, encoding: str, amo: str) -> None:
        cnf, self.varmap = encode(Puzzle.empty(geometry), encoding, amo, "assumptions")
        self.solver = Solver(name=engine, bootstrap_with=cnf)
        self.n = geometry.n
        self.top = self.varmap.n_vars

    def true_options(self) -> np.ndarray:
        """The placement options of the solver's current model, in option order."""
        model = self.solver.get_model()
        return np.flatnonzero(np.asarray(model[:self.varmap.n_placements]) > 0)

    def grid(self, options: np.ndarray) -> Grid:
        """The grid of a model's true options: with one per cell they are in cell order already."""
        if len(options) == self.n * self.n:
            return tuple((options % self.n + 1).tolist())
        return self.varmap.matrix.grid(options)

    def solve(self, puzzle: Puzzle, time_limit: float | None) -> tuple[Status, Grid | None]:
        """Status and grid of one puzzle under its givens as assumptions."""
        answer = solve_limited(self.solver, time_limit, given_literals(puzzle))
        if answer is None:
            return Status.UNKNOWN, None
        if not answer:
            return Status.NO_SOLUTION, None
        return Status.SOLVED, self.grid(self.true_options())

    def new_var(self) -> int:
        """A variable nobody uses yet (activation literals)."""
        self.top += 1
        return self.top

    def solutions(self, puzzle: Puzzle, limit: int | None) -> Iterator[Grid]:
        """Every solution, each blocked by a clause over its deciding placements under an activation literal.

        A plain Python loop: for one small model per call it beats numpy's per-call overhead.
        """
        act = self.new_var()
        assumptions = given_literals(puzzle) + [act]
        n, n_cells, placements = self.n, self.n * self.n, self.varmap.n_placements
        deciding = deciding_cells(puzzle)
        blocks = [False] + [deciding[(v - 1) // n] for v in range(1, placements + 1)]
        solver = self.solver
        found = 0
        try:
            while (limit is None or found < limit) and solver.solve(assumptions=assumptions):
                true = [v for v in solver.get_model()[:placements] if v > 0]
                if len(true) == n_cells:
                    yield tuple([(v - 1) % n + 1 for v in true])
                else:
                    yield self.varmap.matrix.grid([v - 1 for v in true])
                found += 1
                solver.add_clause([-act] + [-v for v in true if blocks[v]])
        finally:
            solver.add_clause([-act])  # retire this enumeration's blocking clauses for good

    def close(self) -> None:
        self.solver.delete()


class PysatBackend(Backend):
    """Any PySAT solver by name: `pysat` is `pysat:cadical195`.

    Options: `encoding` (minimal, efficient, extended), `amo` (pairwise, seqcounter, bitwise,
    ladder, native) and `givens`: `assumptions` on one reused solver per geometry, `units` or
    `simplify` for a fresh solver per puzzle, or `auto` (default): assumptions up to 16x16, where
    the full encoding is cheap to build once, simplify above (a 25x25's full encoding has 752,500
    clauses; simplified, a few thousand).

    >>> from satdoku.models.formats import parse_puzzle
    >>> PysatBackend(encoding="minimal").count(parse_puzzle("1000000200400300"))
    1
    """

    family = "pysat"
    default_engine = "cadical195"
    requirement = "python-sat"
    options = frozenset({"encoding", "amo", "givens"})

    def __init__(self, engine: str | None = None, **options: object) -> None:
        super().__init__(engine, **options)
        if self.engine not in _engine_names():
            raise BackendUnavailable(f"unknown PySAT solver {self.engine!r}; "
                                     f"choose from {', '.join(_engine_names())}")
        self.encoding = check_choice("encoding", str(self.settings.get("encoding", DEFAULT_ENCODING)), ENCODINGS)
        self.amo = check_choice("at-most-one encoding", str(self.settings.get("amo", DEFAULT_AMO)), AMO_KINDS)
        self.givens = check_choice("givens mode", str(self.settings.get("givens", "auto")), GIVENS + ("auto",))
        if self.amo == "native" and self.engine not in NATIVE_SOLVERS:
            raise BackendUnavailable(f"native at-most-one constraints need a cardinality solver "
                                     f"({', '.join('pysat:' + s for s in NATIVE_SOLVERS)}), not {self.engine}")
        self._reused: dict[Geometry, ReusedSolver] = {}

    @classmethod
    def engines(cls) -> list[str]:
        return _engine_names()

    @classmethod
    def version(cls) -> str:
        import pysat
        return pysat.__version__

    def reused(self, geometry: Geometry) -> ReusedSolver:
        """The solver of a geometry, built on first use."""
        if geometry not in self._reused:
            self._reused[geometry] = ReusedSolver(self.engine, geometry, self.encoding, self.amo)
        return self._reused[geometry]

    def reuses(self, geometry: Geometry) -> bool:
        """Whether puzzles of this geometry go to the reused solver (givens as assumptions)."""
        if self.givens == "auto":
            return geometry.n <= REUSE_MAX_SIDE
        return self.givens == "assumptions"

    def _fresh(self, puzzle: Puzzle) -> tuple[Solver, VarMap]:
        givens = "simplify" if self.givens in ("auto", "assumptions") else self.givens
        cnf, varmap = encode(puzzle, self.encoding, self.amo, givens)
        return Solver(name=self.engine, bootstrap_with=cnf), varmap

    def solve(self, puzzle: Puzzle, time_limit: float | None = None) -> Result:
        start = time.perf_counter()
        if self.reuses(puzzle.geometry):
            status, grid = self.reused(puzzle.geometry).solve(puzzle, time_limit)
            return timed(status, grid, self.name, start)
        solver, varmap = self._fresh(puzzle)
        with solver:
            answer = solve_limited(solver, time_limit)
            if answer is None:
                return timed(Status.UNKNOWN, None, self.name, start)
            if not answer:
                return timed(Status.NO_SOLUTION, None, self.name, start)
            return timed(Status.SOLVED, varmap.decode(solver.get_model()), self.name, start)

    def solve_many(self, puzzles: Iterable[Puzzle], time_limit: float | None = None) -> Iterator[Result]:
        """Solve in order; with assumptions, one solver per geometry serves the whole batch."""
        for puzzle in puzzles:
            if not self.reuses(puzzle.geometry):
                yield self.solve(puzzle, time_limit)
                continue
            start = time.perf_counter()
            status, grid = self.reused(puzzle.geometry).solve(puzzle, time_limit)
            yield Result(status, grid, self.name, time.perf_counter() - start)

    def solutions(self, puzzle: Puzzle, limit: int | None = None) -> Iterator[Grid]:
        """Every solution, each blocked afterwards by a clause over its placement variables only."""
        if self.reuses(puzzle.geometry):
            yield from self.reused(puzzle.geometry).solutions(puzzle, limit)
            return
        solver, varmap = self._fresh(puzzle)
        needed = deciding_cells(puzzle)
        with solver:
            found = 0
            while (limit is None or found < limit) and solver.solve():
                options = varmap.true_options(solver.get_model())
                yield varmap.matrix.grid(options)
                found += 1
                deciding = [int(o) + 1 for o in options if needed[o // puzzle.n]]
                if not deciding:
                    break
                solver.add_clause([-v for v in deciding])

    def close(self) -> None:
        """Free the reused solvers."""
        for reused in self._reused.values():
            reused.close()
        self._reused.clear()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing left to free
            pass


__all__ = ["PysatBackend", "ReusedSolver", "given_literals", "solve_limited"]
