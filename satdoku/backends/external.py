"""Any DIMACS SAT solver program as a backend: `external:minisat`, `external:/usr/bin/cadical`.

The puzzle is written as DIMACS to a temporary folder, the program runs on it through an
argument list (never a shell) and is killed when the time limit runs out; its answer is read from
the exit code (10 satisfiable, 20 unsatisfiable), the `s`/`v` lines it prints, or the result file
MiniSat-style programs write. Enumeration calls the program again with blocking clauses added.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from satdoku.backends.base import Backend, Result, out_of_time
from satdoku.backends.base import answer as answer_of
from satdoku.backends.blocking import blocked_solutions
from satdoku.backends.options import options_of
from satdoku.deadline import Deadline
from satdoku.encoders.cnf import AMO_KINDS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS, VarMap, check_choice
from satdoku.encoders.dimacs import DIMACS_GIVENS, Answer, Dimacs, dimacs_for, read_answer
from satdoku.errors import BackendUnavailable, InputError, SolverError
from satdoku.models.puzzle import Grid, Puzzle

KNOWN_PROGRAMS = ("minisat", "cadical", "kissat", "cryptominisat5", "picosat", "glucose", "lingeling",
                  "clasp", "minisat2", "glucose-syrup", "plingeling", "treengeling")
# programs that print no model but write it to a result file named after the input
RESULT_FILE_PROGRAMS = ("minisat", "glucose", "maplesat", "maplecomsps")
EXIT_SAT, EXIT_UNSAT = 10, 20
OUTPUT_BASE = 64 * 2 ** 20  # bytes of output any solver may print (banner, statistics) ...
OUTPUT_PER_VAR = 16         # ... plus this much per variable of the formula (a model line)
STDERR_CAP = 2 ** 20        # bytes of stderr kept (its last line goes into error messages)
POLL_SECONDS = 0.05


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


def output_cap(dimacs: Dimacs) -> int:
    """The most bytes a solver may print for this formula: a full model, with room for statistics.

    >>> output_cap(Dimacs(729, [])) // 2 ** 20
    64
    """
    return OUTPUT_BASE + OUTPUT_PER_VAR * dimacs.n_vars


def _drain(stream, cap: int, out: bytearray, over: threading.Event) -> None:
    """Read a pipe to its end, keeping at most `cap` bytes; set `over` when it offers more."""
    while True:
        chunk = stream.read(1 << 16)
        if not chunk:
            return
        if len(out) + len(chunk) > cap:
            out.extend(chunk[:cap - len(out)])
            over.set()
            return
        out.extend(chunk)


def run_solver(program: str, dimacs: Dimacs, time_limit: float | Deadline | None = None) -> Answer | None:
    """Run a solver program on a formula; its Answer, or None when the time limit killed it.

    Its output is read through a cap (`output_cap`): a program that prints without end is killed
    and reported, never read into memory whole.
    """
    deadline = Deadline.of(time_limit)
    with tempfile.TemporaryDirectory(prefix="satdoku-") as folder:
        cnf_path = Path(folder) / "puzzle.cnf"
        result_path = Path(folder) / "result.txt"
        with open(cnf_path, "w", encoding="ascii") as cnf_file:
            for block in dimacs.text_blocks():
                if deadline.expired():
                    return None
                cnf_file.write(block)
        args = [program, str(cnf_path)]
        if writes_result_file(program):
            args.append(str(result_path))
        try:
            process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, start_new_session=True)
        except OSError as err:
            raise BackendUnavailable(f"external solver {program!r} cannot run: {err.strerror or err}") from None
        cap = output_cap(dimacs)
        stdout, stderr, over = bytearray(), bytearray(), threading.Event()
        readers = [threading.Thread(target=_drain, args=(process.stdout, cap, stdout, over), daemon=True),
                   threading.Thread(target=_drain, args=(process.stderr, STDERR_CAP, stderr, threading.Event()),
                                    daemon=True)]
        for reader in readers:
            reader.start()
        try:
            timed_out = _wait(process, deadline, over)
        finally:
            kill_group(process)
            for reader in readers:
                reader.join()
            process.stdout.close()
            process.stderr.close()
        if over.is_set():
            raise SolverError(f"external solver {Path(program).name} printed more than {cap // 2 ** 20} MB "
                              f"for a formula of {dimacs.n_vars} variables; stopped it")
        if timed_out:
            return None
        result_text = _read_capped(result_path, cap) if result_path.exists() else None
    done = subprocess.CompletedProcess(args, process.returncode, stdout.decode("utf-8", "replace"),
                                       stderr.decode("utf-8", "replace"))
    return _answer(program, done, result_text)


def kill_group(process: subprocess.Popen) -> None:
    """Kill the solver and anything it started (a wrapper script's children hold its pipes open)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if process.poll() is None:
        process.kill()
    process.wait()


def _wait(process: subprocess.Popen, deadline: Deadline, over: threading.Event) -> bool:
    """Wait for the program to end; True when the deadline came first (it is then killed)."""
    while True:
        left = deadline.remaining()
        step = POLL_SECONDS if left is None else min(POLL_SECONDS, left)
        try:
            process.wait(timeout=step)
            return False
        except subprocess.TimeoutExpired:
            if over.is_set():
                return False
            if left is not None and deadline.expired():
                return True


def _read_capped(path: Path, cap: int) -> str:
    """A result file's text; one larger than `cap` bytes is a solver error."""
    with open(path, "rb") as f:
        data = f.read(cap + 1)
    if len(data) > cap:
        raise SolverError(f"external solver wrote a result file larger than {cap // 2 ** 20} MB")
    return data.decode("utf-8", "replace")


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
    options = options_of("external")

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

    def _formula(self, puzzle: Puzzle, deadline: Deadline) -> tuple[Dimacs, VarMap]:
        return dimacs_for(puzzle, self.encoding, self.amo, self.givens, deadline=deadline)

    def solve_within(self, puzzle: Puzzle, deadline: Deadline) -> Result:
        dimacs, varmap = self._formula(puzzle, deadline)
        answer = run_solver(self.program, dimacs, deadline)
        if answer is None or answer.status == "UNKNOWN":
            return out_of_time()
        return answer_of(varmap.decode(answer.model) if answer.status == "SAT" else None)

    def solutions_within(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        """Every solution by the shared blocking-clause enumerator, the program run once per solution."""
        dimacs, varmap = self._formula(puzzle, deadline)
        return blocked_solutions(ProgramOracle(self.program, dimacs, varmap.n_placements), varmap, puzzle, [], deadline)


class ProgramOracle:
    """A solver program seen by the blocking-clause enumerator: each call runs it on the formula so far."""

    def __init__(self, program: str, dimacs: Dimacs, placements: int) -> None:
        self.program = program
        self.dimacs = dimacs
        self.placements = placements

    def true_placements(self, assumptions: list[int], deadline: Deadline) -> list[int] | None:
        """The true placement variables of the program's model, assumptions given as unit clauses."""
        formula = Dimacs(self.dimacs.n_vars, self.dimacs.clauses + [[a] for a in assumptions],
                         self.dimacs.comments, self.dimacs.projection)
        answer = run_solver(self.program, formula, deadline)
        if answer is None:
            raise deadline.reached()
        if answer.status == "UNKNOWN":
            raise SolverError(f"external solver {Path(self.program).name} gave no answer while enumerating")
        if answer.status == "UNSAT":
            return None
        return [v for v in answer.model if 0 < v <= self.placements]

    def add_clause(self, clause: list[int]) -> None:
        self.dimacs.clauses.append(clause)

    def new_var(self) -> int:
        self.dimacs.n_vars += 1
        return self.dimacs.n_vars
