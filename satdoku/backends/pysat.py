"""PySAT solvers (CaDiCaL, Glucose, MiniSat, ...) over the CNF encoding of the matrix.

One solver per geometry is built once with the full encoding and reused: each puzzle's givens are
assumptions, each enumeration's blocking clauses hang off a fresh activation literal that is
switched off afterwards, so the solver stays sound and usable for the next question.
"""
from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np
from pysat.formula import CNF, CNFPlus
from pysat.solvers import Solver, SolverNames

from satdoku.backends.base import Backend, Result, out_of_time
from satdoku.backends.base import answer as answer_of
from satdoku.backends.blocking import blocked_solutions
from satdoku.backends.options import options_of
from satdoku.deadline import Deadline
from satdoku.encoders.cnf import (AMO_KINDS, BLOCK_CLAUSES, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS, GIVENS,
                                  NATIVE_SOLVERS, VarMap, check_choice, encode, given_literals)
from satdoku.errors import BackendUnavailable
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Grid, Puzzle


REUSE_MAX_SIDE = 16
REBUILD_AFTER = 20_000  # retired clauses a reused solver holds before it is built afresh


def _engine_names() -> list[str]:
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


def interruptible(solver: Solver) -> bool:
    """True when the solver can be interrupted from another thread (CaDiCaL in PySAT cannot)."""
    try:
        solver.clear_interrupt()
        return True
    except NotImplementedError:
        return False


def solve_limited(solver: Solver, time_limit: float | Deadline | None,
                  assumptions: list[int] | None = None) -> bool | None:
    """Solve, giving up when the time limit (seconds, or a Deadline) runs out; None then.

    Solvers that take an interrupt get one from a timer; the others (CaDiCaL) search in slices of
    a conflict budget until the deadline, keeping what they learnt between slices.

    >>> with Solver(name="cadical195", bootstrap_with=[[1, 2], [-1]]) as s:
    ...     solve_limited(s, 5.0)
    True
    """
    assumptions = assumptions or []
    deadline = Deadline.of(time_limit)
    left = deadline.remaining()
    if left is None:
        return solver.solve(assumptions=assumptions)
    if left <= 0:
        return None
    if not interruptible(solver):
        return _solve_in_slices(solver, deadline, assumptions)
    timer = threading.Timer(left, solver.interrupt)
    timer.start()
    try:
        return solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
        solver.clear_interrupt()


def _solve_in_slices(solver: Solver, deadline: Deadline, assumptions: list[int]) -> bool | None:
    """solve_limited under growing conflict budgets until an answer or the deadline."""
    budget = 1000
    while True:
        solver.conf_budget(budget)
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer
        if deadline.expired():
            return None
        budget = min(2 * budget, 16000)


def loaded_solver(engine: str, cnf: CNF | CNFPlus, deadline: Deadline) -> Solver:
    """A solver holding the formula, loaded a block at a time so a deadline can stop a large one."""
    if isinstance(cnf, CNFPlus) or len(cnf.clauses) <= BLOCK_CLAUSES:
        return Solver(name=engine, bootstrap_with=cnf)
    solver = Solver(name=engine)
    try:
        for start in range(0, len(cnf.clauses), BLOCK_CLAUSES):
            deadline.check()
            solver.append_formula(cnf.clauses[start:start + BLOCK_CLAUSES])
    except BaseException:
        solver.delete()
        raise
    return solver


class PysatOracle:
    """A PySAT solver seen by the blocking-clause enumerator (`blocking.SatOracle`)."""

    def __init__(self, solver: Solver, varmap: VarMap) -> None:
        self.solver = solver
        self.varmap = varmap
        self.top = varmap.n_vars
        self.added = 0  # clauses added since the solver was built

    def true_placements(self, assumptions: list[int], deadline: Deadline) -> list[int] | None:
        """The true placement variables of a model under `assumptions`; None when unsatisfiable."""
        if deadline.at is None:
            answer = self.solver.solve(assumptions=assumptions)
        else:
            answer = solve_limited(self.solver, deadline, assumptions)
            if answer is None:
                raise deadline.reached()
        if not answer:
            return None
        return [v for v in self.solver.get_model()[:self.varmap.n_placements] if v > 0]

    def add_clause(self, clause: list[int]) -> None:
        self.solver.add_clause(clause)
        self.added += 1

    def new_var(self) -> int:
        """A variable nobody uses yet (activation literals)."""
        self.top += 1
        return self.top


class FreshOracle(PysatOracle):
    """A solver built for one puzzle alone (givens as units or simplified away), freed on close."""

    @classmethod
    def for_puzzle(cls, puzzle: Puzzle, engine: str, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
                   givens: str = "simplify", deadline: Deadline | None = None) -> tuple["FreshOracle", VarMap]:
        """The oracle of one puzzle's formula and its variable map, built within `deadline`."""
        deadline = deadline or Deadline()
        cnf, varmap = encode(puzzle, encoding, amo, givens, deadline)
        return cls(loaded_solver(engine, cnf, deadline), varmap), varmap

    def close(self) -> None:
        self.solver.delete()


class ReusedSolver(PysatOracle):
    """One solver holding the full encoding of a geometry; puzzles come in as assumptions.

    Enumerations leave retired blocking clauses behind (two or more per `check`); once
    REBUILD_AFTER of them pile up, the solver is built afresh from the encoding, so a batch of any
    length runs at a flat rate in flat memory.
    """

    def __init__(self, engine: str, geometry: Geometry, encoding: str, amo: str) -> None:
        self.cnf, varmap = encode(Puzzle.empty(geometry), encoding, amo, "assumptions")
        self.engine = engine
        super().__init__(Solver(name=engine, bootstrap_with=self.cnf), varmap)
        self.n = geometry.n
        self.rebuilds = 0

    def rebuild(self) -> None:
        """A new solver from the encoding alone: every retired clause and activation literal gone."""
        self.solver.delete()
        self.solver = Solver(name=self.engine, bootstrap_with=self.cnf)
        self.top = self.varmap.n_vars
        self.added = 0
        self.rebuilds += 1

    def solve(self, puzzle: Puzzle, deadline: Deadline) -> Result:
        """One puzzle under its givens as assumptions; the model decoded with numpy."""
        answer = solve_limited(self.solver, deadline, given_literals(puzzle))
        if answer is None:
            return out_of_time()
        if not answer:
            return answer_of(None)
        model = self.solver.get_model()
        options = np.flatnonzero(np.asarray(model[:self.varmap.n_placements]) > 0)
        if len(options) == self.n * self.n:  # one per cell: in cell order already
            return answer_of(tuple((options % self.n + 1).tolist()))
        return answer_of(self.varmap.matrix.grid(options))

    def solutions(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        """Every solution of one puzzle, by the shared blocking-clause enumerator."""
        try:
            yield from blocked_solutions(self, self.varmap, puzzle, given_literals(puzzle), deadline)
        finally:
            if self.added >= REBUILD_AFTER:
                self.rebuild()

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
    options = options_of("pysat")

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

    def _fresh(self, puzzle: Puzzle, deadline: Deadline) -> tuple[FreshOracle, VarMap]:
        givens = "simplify" if self.givens in ("auto", "assumptions") else self.givens
        return FreshOracle.for_puzzle(puzzle, self.engine, self.encoding, self.amo, givens, deadline)

    def solve_within(self, puzzle: Puzzle, deadline: Deadline) -> Result:
        if self.reuses(puzzle.geometry):
            return self.reused(puzzle.geometry).solve(puzzle, deadline)
        oracle, varmap = self._fresh(puzzle, deadline)
        try:
            answer = solve_limited(oracle.solver, deadline)
            if answer is None:
                return out_of_time()
            return answer_of(varmap.decode(oracle.solver.get_model()) if answer else None)
        finally:
            oracle.close()

    def solutions_within(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        """Every solution, each blocked afterwards by a clause over its deciding placements only."""
        if self.reuses(puzzle.geometry):
            yield from self.reused(puzzle.geometry).solutions(puzzle, deadline)
            return
        oracle, varmap = self._fresh(puzzle, deadline)
        try:
            yield from blocked_solutions(oracle, varmap, puzzle, [], deadline)
        finally:
            oracle.close()

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


__all__ = ["FreshOracle", "PysatBackend", "ReusedSolver", "given_literals", "solve_limited"]
