"""The project's exceptions and exit codes; each exception maps to one exit code and a one-line message."""
from __future__ import annotations

# the exit codes of every command (README: "exit code" table)
EXIT_OK = 0            # solved (every puzzle) / counted / unique
EXIT_NO_SOLUTION = 1   # some puzzle has no solution (check: none or several)
EXIT_BAD_INPUT = 2     # bad input or usage
EXIT_TIME_LIMIT = 3    # a time limit ran out
EXIT_SOLVER = 4        # a solver misbehaved, or backends disagree
EXIT_INTERRUPTED = 130  # Ctrl-C


class SatdokuError(Exception):
    """Base of every error satdoku raises on purpose; the CLI prints it as one line."""

    exit_code = EXIT_BAD_INPUT


class InputError(SatdokuError, ValueError):
    """A malformed puzzle, a wrong size, contradictory givens, a missing file (exit 2)."""


class BackendUnavailable(SatdokuError):
    """A backend or solver that is unknown or not installed (exit 2)."""


class TimeLimitReached(SatdokuError):
    """A time limit ran out before an answer (exit 3); `found` is how many solutions came first.

    >>> err = TimeLimitReached("time limit of 2 s reached").after(5)
    >>> err.found, str(err)
    (5, 'time limit of 2 s reached')
    """

    exit_code = EXIT_TIME_LIMIT

    def __init__(self, message: str = "time limit reached", found: int = 0) -> None:
        super().__init__(message)
        self.found = found

    def after(self, found: int) -> "TimeLimitReached":
        """This error, saying that `found` solutions came before the time ran out."""
        self.found = max(self.found, found)
        return self


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during an enumeration or a count; `found` is how many solutions came first."""

    def __init__(self, found: int = 0) -> None:
        super().__init__(f"interrupted after {found} solutions")
        self.found = found


class SolverError(SatdokuError):
    """A solver misbehaved: crashed, printed nonsense, or returned a wrong grid (exit 4)."""

    exit_code = EXIT_SOLVER


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
