"""What every backend offers: solve, enumerate, count, over one puzzle or a batch."""
from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum

from satdoku.errors import BackendUnavailable
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


class Backend:
    """The interface; a family (pysat, cpsat, dlx, ...) subclasses it, one engine per instance.

    Subclasses implement `solve` and `solutions`; `count` and `solve_many` have generic versions
    that a backend overrides when it can do better (reused solvers, native counting).
    """

    family: str = ""
    default_engine: str = ""
    requirement: str = ""
    # keyword options this family accepts from the command line (--workers, --explain, ...)
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

    def solve(self, puzzle: Puzzle, time_limit: float | None = None) -> Result:
        raise NotImplementedError

    def solutions(self, puzzle: Puzzle, limit: int | None = None) -> Iterator[Grid]:
        raise NotImplementedError

    def count(self, puzzle: Puzzle, limit: int | None = None) -> int:
        """The number of solutions, stopping at `limit` when one is given."""
        return sum(1 for _ in self.solutions(puzzle, limit))

    def solve_many(self, puzzles: Iterable[Puzzle], time_limit: float | None = None) -> Iterator[Result]:
        """Solve puzzles in order; batch-aware backends override this to reuse their solver."""
        for puzzle in puzzles:
            yield self.solve(puzzle, time_limit)


class BuiltinBackend(Backend):
    """A backend written in this package in pure Python; its version is satdoku's own."""

    @classmethod
    def version(cls) -> str:
        from satdoku import __version__
        return f"satdoku {__version__}"


def timed(status: Status, grid: Grid | None, backend: str, start: float, **stats: object) -> Result:
    """A Result whose time runs from `start` (a time.perf_counter value) to now."""
    return Result(status, grid, backend, time.perf_counter() - start, dict(stats))
