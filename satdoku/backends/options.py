"""The options backend families take, declared once: the families read their names from here and the
command line builds its flags from here (`commands/common.add_backend_options`)."""
from __future__ import annotations

from dataclasses import dataclass

from satdoku.encoders.cnf import AMO_KINDS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS, GIVENS


@dataclass(frozen=True)
class BackendOption:
    """One keyword option: its name, the families that take it, and its command-line form."""

    name: str
    families: tuple[str, ...]
    help: str
    choices: tuple[str, ...] | None = None
    kind: str = "choice"  # choice, count (a whole number >= 1) or flag

    @property
    def flag(self) -> str:
        """The command-line flag, such as '--workers'."""
        return "--" + self.name.replace("_", "-")


BACKEND_OPTIONS: tuple[BackendOption, ...] = (
    BackendOption("encoding", ("pysat", "external"), f"CNF encoding (default {DEFAULT_ENCODING})", ENCODINGS),
    BackendOption("amo", ("pysat", "external"),
                  f"at-most-one encoding (default {DEFAULT_AMO}; native needs pysat:minicard)", AMO_KINDS),
    BackendOption("givens", ("pysat", "external"),
                  "how givens reach the solver (default auto: one reused solver with assumptions up to 16x16, "
                  "simplified away above; external: simplify)", ("auto",) + GIVENS),
    BackendOption("workers", ("cpsat",), "CP-SAT search workers (default 1)", kind="count"),
    BackendOption("explain", ("logic",), "print each logical step", kind="flag"),
)


def options_of(family: str) -> frozenset[str]:
    """The option names a family takes.

    >>> sorted(options_of("pysat"))
    ['amo', 'encoding', 'givens']
    """
    return frozenset(o.name for o in BACKEND_OPTIONS if family in o.families)
