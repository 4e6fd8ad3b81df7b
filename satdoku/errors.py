"""The project's exceptions; each maps to one CLI exit code and a one-line message."""
from __future__ import annotations


class SatdokuError(Exception):
    """Base of every error satdoku raises on purpose; the CLI prints it as one line."""

    exit_code = 2


class InputError(SatdokuError, ValueError):
    """A malformed puzzle, a wrong size, contradictory givens, a missing file (exit 2)."""


class BackendUnavailable(SatdokuError):
    """A backend or solver that is unknown or not installed (exit 2)."""


class TimeLimitReached(SatdokuError):
    """A time limit ran out before an answer (exit 3)."""

    exit_code = 3


class SolverError(SatdokuError):
    """A solver misbehaved: crashed, printed nonsense, or returned a wrong grid (exit 4)."""

    exit_code = 4
