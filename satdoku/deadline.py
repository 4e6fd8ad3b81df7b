"""One deadline per question: the time limit as a point on the clock that every backend honours."""
from __future__ import annotations

import math
import time
from collections.abc import Callable

from satdoku.errors import InputError, TimeLimitReached

PROGRESS_SECONDS = 0.5  # between two progress reports
MAX_TIME_LIMIT = 10_000_000.0  # seconds (about 115 days): larger limits are refused, not overflowed


class Deadline:
    """The end of a time limit counted from now (`None`: no limit), and how much of it is left.

    >>> Deadline(None).remaining() is None, Deadline(60).expired()
    (True, False)
    """

    def __init__(self, time_limit: float | None = None,
                 progress: Callable[[int], None] | None = None) -> None:
        if time_limit is not None and not valid_time_limit(time_limit):
            raise InputError(f"time limit {time_limit!r}: give seconds above 0 and at most {MAX_TIME_LIMIT:g}")
        self.time_limit = time_limit
        self.start = time.perf_counter()
        self.at = None if time_limit is None else self.start + time_limit
        self.progress = progress  # told the solutions found so far, at most every PROGRESS_SECONDS
        self._next_report = self.start + PROGRESS_SECONDS

    @classmethod
    def of(cls, time_limit: "float | Deadline | None") -> "Deadline":
        """A deadline from seconds (or None), or the Deadline itself (one that reports progress, say)."""
        return time_limit if isinstance(time_limit, Deadline) else cls(time_limit)

    def remaining(self) -> float | None:
        """Seconds left (never below zero), or None without a limit."""
        if self.at is None:
            return None
        return max(0.0, self.at - time.perf_counter())

    def expired(self) -> bool:
        """True once the limit has run out."""
        return self.at is not None and time.perf_counter() >= self.at

    def elapsed(self) -> float:
        """Seconds since the deadline was set."""
        return time.perf_counter() - self.start

    def reached(self, found: int = 0) -> TimeLimitReached:
        """The error to raise when the limit has run out, after `found` solutions."""
        return TimeLimitReached(f"time limit of {self.time_limit:g} s reached", found)

    def check(self, found: int = 0) -> None:
        """Raise TimeLimitReached when the limit has run out; report progress now and then."""
        if self.at is None and self.progress is None:
            return
        now = time.perf_counter()
        if self.at is not None and now >= self.at:
            raise self.reached(found)
        if self.progress is not None and now >= self._next_report:
            self._next_report = now + PROGRESS_SECONDS
            self.progress(found)


def valid_time_limit(value: float) -> bool:
    """True for a finite number of seconds above zero and at most MAX_TIME_LIMIT.

    >>> valid_time_limit(2.0), valid_time_limit(math.inf), valid_time_limit(math.nan), valid_time_limit(0)
    (True, False, False, False)
    """
    return math.isfinite(value) and 0 < value <= MAX_TIME_LIMIT
