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


def first_line(text: object, width: int = 160) -> str:
    """The first line of a message, cut to `width` characters.

    >>> first_line("undefined symbol: x\\nmore")
    'undefined symbol: x'
    """
    line = str(text).strip().splitlines()[0] if str(text).strip() else ""
    return line if len(line) <= width else line[:width - 3] + "..."


def missing_library(err: ImportError, library: str, requirement: str, extra: str) -> ImportError:
    """The one-line ImportError for an optional library that is absent or does not load.

    >>> str(missing_library(ModuleNotFoundError("No module named 'pulp'"), "PuLP", "pulp<4", "ilp"))
    "PuLP is not installed: pip install 'pulp<4' (or 'satdoku[ilp]')"
    """
    why = "is not installed" if isinstance(err, ModuleNotFoundError) else f"does not load ({first_line(err, 120)})"
    return ImportError(f"{library} {why}: pip install '{requirement}' (or 'satdoku[{extra}]')")
