"""The one backend contract: solve, enumerate, count, over one puzzle or a batch, under a time limit.

Callers use the four public methods, which every family has and none overrides:

- `solve(puzzle, time_limit)` -> Result (status `unknown` when the time runs out);
- `solutions(puzzle, limit, time_limit)` -> grids, up to `limit`;
- `count(puzzle, limit, time_limit)` -> int, up to `limit`;
- `solve_many(puzzles, time_limit)` -> one Result per puzzle, in order (the limit is per puzzle).

`solutions` and `count` raise TimeLimitReached (its `found`: the solutions before the time ran out)
when the limit runs out. A family writes the hooks below, each given one `Deadline` counted from the
start of the call (encoding included): `solutions_within` always, `solve_within` and
`count_within` only when it does better than the generic versions here (a reused solver, native
counting). `backends/TEMPLATE.py` shows what a new family writes.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum

from satdoku.deadline import Deadline
from satdoku.errors import BackendUnavailable, Interrupted, TimeLimitReached
from satdoku.models.puzzle import Grid, Puzzle


class Status(str, Enum):
    """The answer a backend gives for one puzzle."""

    SOLVED = "solved"
    NO_SOLUTION = "no solution"
    UNKNOWN = "unknown"


@dataclass
class Result:
    """One solve: status, the grid when solved, the backend that answered and its wall time."""

    status: Status
    grid: Grid | None = None
    backend: str = ""
    seconds: float = 0.0
    stats: dict = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED


def answer(grid: Grid | None, **stats: object) -> Result:
    """The Result of a finished search: solved with `grid`, or no solution when it is None.

    >>> answer(None).status.value, answer((1,)).solved
    ('no solution', True)
    """
    return Result(Status.NO_SOLUTION if grid is None else Status.SOLVED, grid, stats=dict(stats))


def out_of_time(**stats: object) -> Result:
    """The Result of a search the time limit stopped."""
    return Result(Status.UNKNOWN, stats=dict(stats))


@contextmanager
def closing(grids: Iterator[Grid]) -> Iterator[Iterator[Grid]]:
    """Use an iterator of grids, then close it (a generator's `finally` runs: retire, stop, free)."""
    try:
        yield grids
    finally:
        close = getattr(grids, "close", None)
        if close is not None:
            close()


def limited(grids: Iterable[Grid], limit: int | None, deadline: Deadline) -> Iterator[Grid]:
    """Grids up to `limit`, checking `deadline` between two; TimeLimitReached carries how many came.

    >>> list(limited(iter([(1,), (2,), (3,)]), 2, Deadline(None)))
    [(1,), (2,)]
    """
    found = 0
    try:
        for grid in grids:
            yield grid
            found += 1
            if limit is not None and found >= limit:
                return
            deadline.check(found)
    except TimeLimitReached as err:
        raise err.after(found) from None
    except KeyboardInterrupt:
        raise Interrupted(found) from None


class Backend:
    """The interface; a family (pysat, cpsat, dlx, ...) subclasses it, one engine per instance."""

    family: str = ""
    default_engine: str = ""
    requirement: str = ""
    # keyword options this family accepts (their command-line form is declared in backends/options.py)
    options: frozenset[str] = frozenset()

    def __init__(self, engine: str | None = None, **options: object) -> None:
        unknown = set(options) - self.options
        if unknown:
            raise BackendUnavailable(f"backend {self.family!r} takes no option "
                                     f"{', '.join('--' + o.replace('_', '-') for o in sorted(unknown))}")
        self.engine = engine or self.default_engine
        self.settings = dict(options)

    @property
    def name(self) -> str:
        """The registry name of this backend, such as 'pysat:cadical195'."""
        return f"{self.family}:{self.engine}" if self.engine else self.family

    @classmethod
    def engines(cls) -> list[str]:
        """The engine names this family accepts after the colon."""
        return [cls.default_engine] if cls.default_engine else []

    @classmethod
    def version(cls) -> str:
        """The version of the library or program behind the family."""
        return ""

    # --- the contract: every caller uses these four, no family overrides them ---

    def solve(self, puzzle: Puzzle, time_limit: float | Deadline | None = None) -> Result:
        """One solution, or no solution, or unknown when `time_limit` seconds (or a Deadline) run out."""
        deadline = Deadline.of(time_limit)
        try:
            result = self.solve_within(puzzle, deadline)
        except TimeLimitReached:
            result = out_of_time()
        result.backend = self.name
        result.seconds = deadline.elapsed()
        return result

    def solutions(self, puzzle: Puzzle, limit: int | None = None,
                  time_limit: float | Deadline | None = None) -> Iterator[Grid]:
        """Solutions up to `limit` (all when None); TimeLimitReached past `time_limit`."""
        if limit is not None and limit < 1:
            return
        deadline = Deadline.of(time_limit)
        with closing(self.solutions_within(puzzle, deadline)) as grids:
            yield from limited(grids, limit, deadline)

    def count(self, puzzle: Puzzle, limit: int | None = None, time_limit: float | Deadline | None = None) -> int:
        """The number of solutions, stopping at `limit`; TimeLimitReached (with the count so far) past `time_limit`.

        `time_limit` is seconds, or a Deadline (which may also report progress as the count runs).
        """
        if limit is not None and limit < 1:
            return 0
        return self.count_within(puzzle, limit, Deadline.of(time_limit))

    def solve_many(self, puzzles: Iterable[Puzzle], time_limit: float | None = None) -> Iterator[Result]:
        """Solve puzzles in order, `time_limit` seconds for each; a family's reused solver serves them all."""
        for puzzle in puzzles:
            yield self.solve(puzzle, time_limit)

    # --- the hooks a family writes (see TEMPLATE.py) ---

    def solutions_within(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        """Every solution, each new, raising TimeLimitReached once `deadline` has passed. Required."""
        raise NotImplementedError(f"backend {self.family!r} does not enumerate solutions")

    def solve_within(self, puzzle: Puzzle, deadline: Deadline) -> Result:
        """One solve (status, grid, stats); generic: the first solution of `solutions_within`."""
        with closing(self.solutions_within(puzzle, deadline)) as grids:
            return answer(next(iter(grids), None))

    def count_within(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> int:
        """The number of solutions up to `limit`; generic: enumerate them and count."""
        with closing(self.solutions_within(puzzle, deadline)) as grids:
            return sum(1 for _ in limited(grids, limit, deadline))


class BuiltinBackend(Backend):
    """A backend written in this package in pure Python; its version is satdoku's own."""

    @classmethod
    def version(cls) -> str:
        from satdoku import __version__
        return f"satdoku {__version__}"
