"""Answers a user may trust: every grid a backend returns passes the independent verifier here.

This is the one place where backends' grids meet `models.verify`; the commands, `compare` and a
Python user all call these functions rather than a backend directly.

>>> from satdoku.backends.registry import get_backend
>>> from satdoku.models.formats import parse_puzzle
>>> verified_solve(get_backend("dlx"), parse_puzzle("1...\\n...2\\n..4.\\n.3..")).grid[:4]
(1, 2, 3, 4)
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from satdoku.backends.base import Backend, Result, Status
from satdoku.deadline import Deadline
from satdoku.encoders.cnf import free_varmap
from satdoku.errors import SolverError, TimeLimitReached
from satdoku.models.puzzle import Grid, Puzzle, cell_name
from satdoku.models.verify import solution_problems


def first_problem(grid: Grid | None, puzzle: Puzzle) -> str:
    """Why `grid` is not a solution of `puzzle` (its first reason), or '' when it is one.

    >>> from satdoku.models.formats import parse_puzzle
    >>> first_problem((1,) * 16, parse_puzzle("." * 16))
    'row 1 misses digits [2, 3, 4]'
    """
    if grid is None:
        return "no grid"
    problems = solution_problems(grid, puzzle)
    return problems[0] if problems else ""


def checked(grid: Grid, puzzle: Puzzle, backend: str) -> Grid:
    """The grid, once the verifier has accepted it; SolverError naming the backend otherwise."""
    problem = first_problem(grid, puzzle)
    if problem:
        raise SolverError(f"{puzzle.where}backend {backend} returned a wrong grid: {problem}")
    return grid


def checked_result(result: Result, puzzle: Puzzle) -> Result:
    """A solve's Result, its grid verified when it has one (a solved Result must have one)."""
    if result.status is Status.SOLVED:
        checked(result.grid, puzzle, result.backend)  # type: ignore[arg-type]
    return result


def verified_solve(backend: Backend, puzzle: Puzzle, time_limit: float | None = None) -> Result:
    """One solve, its grid verified."""
    return checked_result(backend.solve(puzzle, time_limit), puzzle)


def verified_solve_many(backend: Backend, puzzles: Iterable[Puzzle], time_limit: float | None = None,
                        jobs: int = 1) -> Iterator[tuple[Puzzle, Result]]:
    """Every puzzle with its verified Result, in input order; `jobs` > 1 solves in that many processes."""
    puzzles = list(puzzles)
    if jobs > 1 and len(puzzles) > 1:
        from satdoku.parallel import solve_in_processes
        results: Iterable[Result] = solve_in_processes(backend.name, backend.settings, puzzles, time_limit, jobs)
    else:
        results = backend.solve_many(puzzles, time_limit)
    for puzzle, result in zip(puzzles, results):
        yield puzzle, checked_result(result, puzzle)


@dataclass
class Solutions:
    """Up to `limit` verified, distinct solutions of one puzzle, and whether the time ran out first."""

    grids: list[Grid] = field(default_factory=list)
    timed_out: bool = False
    seconds: float = 0.0

    @property
    def status(self) -> Status:
        """Unknown when the time ran out (the grids found before are still good); else solved or no solution."""
        if self.timed_out:
            return Status.UNKNOWN
        return Status.SOLVED if self.grids else Status.NO_SOLUTION


def verified_solutions(backend: Backend, puzzle: Puzzle, limit: int | None = None,
                       time_limit: float | Deadline | None = None) -> Solutions:
    """Up to `limit` solutions, each verified, all different; SolverError when a backend breaks that."""
    deadline = Deadline.of(time_limit)  # one clock: the backend's limit and the time reported
    found = Solutions()
    try:
        for grid in backend.solutions(puzzle, limit, deadline):
            found.grids.append(checked(grid, puzzle, backend.name))
    except TimeLimitReached:
        found.timed_out = True
    found.seconds = deadline.elapsed()
    if limit is not None and len(found.grids) > limit:
        raise SolverError(f"{puzzle.where}backend {backend.name} returned {len(found.grids)} solutions "
                          f"for a limit of {limit}")
    if len(set(found.grids)) != len(found.grids):
        raise SolverError(f"{puzzle.where}backend {backend.name} returned the same solution twice")
    return found


VERDICTS = ("none", "unique", "multiple")


def verdict(found: Solutions) -> str:
    """Uniqueness from up to two solutions: none, unique, multiple, or unknown when the time ran out first.

    >>> verdict(Solutions([])), verdict(Solutions([(1,)])), verdict(Solutions([(1,), (2,)]))
    ('none', 'unique', 'multiple')
    >>> verdict(Solutions([(1,)], timed_out=True))
    'unknown'
    """
    if found.timed_out and len(found.grids) < 2:
        return "unknown"
    return VERDICTS[min(len(found.grids), 2)]


def uniqueness(backend: Backend, puzzle: Puzzle, time_limit: float | None = None) -> Solutions:
    """Up to two verified solutions: enough to tell none, unique and multiple apart (see `verdict`)."""
    return verified_solutions(backend, puzzle, 2, time_limit)


@dataclass
class Count:
    """A count of solutions: exact, stopped at the limit, or stopped by the time limit."""

    found: int
    limit: int | None = None
    timed_out: bool = False
    seconds: float = 0.0

    @property
    def exact(self) -> bool:
        """True when every solution was counted (neither the limit nor the time limit stopped it)."""
        return not self.timed_out and (self.limit is None or self.found < self.limit)

    @property
    def status(self) -> Status:
        """Unknown when the time ran out; else solved (at least one solution) or no solution.

        >>> Count(3).status.value, Count(0).status.value, Count(3, timed_out=True).status.value
        ('solved', 'no solution', 'unknown')
        """
        if self.timed_out:
            return Status.UNKNOWN
        return Status.SOLVED if self.found else Status.NO_SOLUTION


def checked_count(backend: Backend, puzzle: Puzzle, limit: int | None = None,
                  time_limit: float | Deadline | None = None) -> Count:
    """The backend's count up to `limit`; SolverError when it is negative or overshoots the limit.

    `time_limit` may be a Deadline that reports progress; Ctrl-C raises `errors.Interrupted` with
    the count so far.
    """
    deadline = Deadline.of(time_limit)
    try:
        count = Count(backend.count(puzzle, limit, deadline), limit)
    except TimeLimitReached as err:
        count = Count(err.found, limit, timed_out=True)
    count.seconds = deadline.elapsed()
    if count.found < 0 or (limit is not None and count.found > limit):
        raise SolverError(f"{puzzle.where}backend {backend.name} counted {count.found} with a limit of {limit}")
    return count


def decoded_model(puzzle: Puzzle, model: list[int], source: str) -> Grid:
    """The grid a SAT model (of an exported puzzle) gives; SolverError naming `source` unless it verifies.

    >>> from satdoku.models.formats import parse_puzzle
    >>> p = parse_puzzle("1000000200400300")
    >>> decoded_model(p, [1, 6, 11, 16, 19, 24, 25, 30, 34, 37, 44, 47, 52, 55, 58, 61], "m")[:4]
    (1, 2, 3, 4)
    """
    varmap = free_varmap(puzzle)
    options = varmap.true_options(model)
    n = puzzle.n
    cells = options // n
    if len(np.unique(cells)) != len(cells):
        twice = int(np.flatnonzero(np.bincount(cells, minlength=n * n) > 1)[0])
        raise SolverError(f"{source}: the model puts two digits in cell {cell_name(twice, n)}")
    grid = varmap.matrix.grid(options)
    problem = first_problem(grid, puzzle)
    if problem:
        empty = [cell_name(i, n) for i, v in enumerate(grid) if v == 0]
        reason = f"cell {empty[0]} has no digit in the model" if empty else problem
        raise SolverError(f"{source}: the model is not a solution of the puzzle: {reason}")
    return grid
