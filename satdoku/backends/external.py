"""Any DIMACS SAT solver program as a backend: `external:minisat`, `external:/usr/bin/cadical`.

The puzzle is written as DIMACS to a temporary folder, the program runs on it through an
argument list (never a shell) and is killed when the time limit runs out; its answer is read from
the exit code (10 satisfiable, 20 unsatisfiable), the `s`/`v` lines it prints, or the result file
MiniSat-style programs write. Enumeration calls the program again with blocking clauses added.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from satdoku.backends.base import Backend, Result, Status, timed
from satdoku.encoders.cnf import (AMO_KINDS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS, VarMap, check_choice,
                                  deciding_cells)
from satdoku.encoders.dimacs import DIMACS_GIVENS, Answer, Dimacs, dimacs_for, read_answer
from satdoku.errors import BackendUnavailable, InputError, SolverError
from satdoku.models.puzzle import Grid, Puzzle

KNOWN_PROGRAMS = ("minisat", "cadical", "kissat", "cryptominisat5", "picosat", "glucose", "lingeling",
                  "clasp", "minisat2", "glucose-syrup", "plingeling", "treengeling")
# programs that print no model but write it to a result file named after the input
RESULT_FILE_PROGRAMS = ("minisat", "glucose", "maplesat", "maplecomsps")
EXIT_SAT, EXIT_UNSAT = 10, 20


def locate(program: str) -> str:
    """The full path of a solver program given by name (searched on PATH) or by path.

    >>> locate("sh").endswith("/sh")
    True
    """
    if os.sep in program:
        path = Path(program)
        if not path.is_file():
            raise BackendUnavailable(f"external solver {program!r}: no such file")
        if not os.access(path, os.X_OK):
            raise BackendUnavailable(f"external solver {program!r}: not executable")
        return str(path)
    found = shutil.which(program)
    if found is None:
        raise BackendUnavailable(f"external solver {program!r} is not installed (not found on PATH); "
                                 f"install it or give its path: --backend external:/path/to/{program}")
    return found


def writes_result_file(program: str) -> bool:
    """True for MiniSat-like programs, which take a second argument naming their result file.

    >>> writes_result_file("/usr/bin/minisat"), writes_result_file("cadical")
    (True, False)
    """
    name = Path(program).name.lower()
    return any(name.startswith(prefix) for prefix in RESULT_FILE_PROGRAMS)


def run_solver(program: str, dimacs: Dimacs, time_limit: float | None = None) -> Answer | None:
    """Run a solver program on a formula; its Answer, or None when the time limit killed it."""
    with tempfile.TemporaryDirectory(prefix="satdoku-") as folder:
        cnf_path = Path(folder) / "puzzle.cnf"
        result_path = Path(folder) / "result.txt"
        cnf_path.write_text(dimacs.to_text(), encoding="ascii")
        args = [program, str(cnf_path)]
        if writes_result_file(program):
            args.append(str(result_path))
        try:
            done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  errors="replace", timeout=time_limit, check=False)
        except subprocess.TimeoutExpired:
            return None
        except OSError as err:
            raise BackendUnavailable(f"external solver {program!r} cannot run: {err.strerror or err}") from None
        result_text = result_path.read_text(errors="replace") if result_path.exists() else None
    return _answer(program, done, result_text)


def _answer(program: str, done: subprocess.CompletedProcess, result_text: str | None) -> Answer:
    """The answer from a finished run: result file, else printed lines, checked against the exit code."""
    name = Path(program).name
    try:
        answer = read_answer(result_text if result_text else done.stdout, f"output of {name}")
    except InputError as err:
        if done.returncode == EXIT_UNSAT:
            return Answer("UNSAT")
        last = (done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or [""])[-1]
        raise SolverError(f"external solver {name} exited with code {done.returncode} and no answer"
                          + (f": {last[:120]}" if last else f" ({err})")) from None
    expected = {EXIT_SAT: "SAT", EXIT_UNSAT: "UNSAT"}.get(done.returncode)
    if expected and answer.status != expected:
        raise SolverError(f"external solver {name} exited with code {done.returncode} "
                          f"but answered {answer.status}")
    return answer


class ExternalBackend(Backend):
    """A DIMACS solver program: `external:minisat`, `external:cadical`, `external:/path/to/kissat`.

    Options: `encoding`, `amo` (not native) and `givens` (simplify, the default, or units).
    """

    family = "external"
    default_engine = "minisat"
    requirement = "a DIMACS SAT solver program (apt-get install minisat cadical)"
    options = frozenset({"encoding", "amo", "givens"})

    def __init__(self, engine: str | None = None, **options: object) -> None:
        super().__init__(engine, **options)
        self.program = locate(self.engine)
        self.encoding = check_choice("encoding", str(self.settings.get("encoding", DEFAULT_ENCODING)), ENCODINGS)
        self.amo = check_choice("at-most-one encoding", str(self.settings.get("amo", DEFAULT_AMO)),
                                tuple(a for a in AMO_KINDS if a != "native"))
        self.givens = check_choice("givens mode", str(self.settings.get("givens", "simplify")), DIMACS_GIVENS)

    @classmethod
    def engines(cls) -> list[str]:
        """The well-known solver programs installed here."""
        return [p for p in KNOWN_PROGRAMS if shutil.which(p)]

    @classmethod
    def version(cls) -> str:
        return "any DIMACS solver"

    def _formula(self, puzzle: Puzzle) -> tuple[Dimacs, VarMap]:
        return dimacs_for(puzzle, self.encoding, self.amo, self.givens)

    def solve(self, puzzle: Puzzle, time_limit: float | None = None) -> Result:
        start = time.perf_counter()
        dimacs, varmap = self._formula(puzzle)
        answer = run_solver(self.program, dimacs, time_limit)
        if answer is None or answer.status == "UNKNOWN":
            return timed(Status.UNKNOWN, None, self.name, start)
        if answer.status == "UNSAT":
            return timed(Status.NO_SOLUTION, None, self.name, start)
        return timed(Status.SOLVED, varmap.decode(answer.model), self.name, start)

    def solutions(self, puzzle: Puzzle, limit: int | None = None) -> Iterator[Grid]:
        """Every solution, calling the program again with a clause blocking each one found (its deciding cells)."""
        dimacs, varmap = self._formula(puzzle)
        deciding = deciding_cells(puzzle)
        found = 0
        while limit is None or found < limit:
            answer = run_solver(self.program, dimacs)
            if answer is None or answer.status == "UNKNOWN":
                raise SolverError(f"external solver {self.engine} gave no answer while enumerating")
            if answer.status == "UNSAT":
                return
            options = varmap.true_options(answer.model)
            yield varmap.matrix.grid(options)
            found += 1
            blocking = [-(int(o) + 1) for o in options if deciding[o // puzzle.n]]
            if not blocking:
                return
            dimacs.clauses.append(blocking)
