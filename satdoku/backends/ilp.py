"""Integer programming through PuLP: `ilp:cbc` (CBC, bundled with PuLP) and `ilp:highs` (highspy)."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from satdoku.backends.base import Backend, Result, Status
from satdoku.deadline import Deadline
from satdoku.encoders.givens import givens_fixed
from satdoku.encoders.ilp import IlpModel, encode, encode_matrix, pulp
from satdoku.errors import BackendUnavailable, SolverError, first_line
from satdoku.models.geometry import Geometry
from satdoku.models.matrix import exact_cover
from satdoku.models.puzzle import Grid, Puzzle

HIGHSPY = "highspy>=1.16,<1.17"
PULP = "pulp>=3.3.2,<3.4"
CBC_GRACE = 0.5  # seconds CBC may overrun its time limit before it is killed
HANDOVER_SECONDS_PER_VAR = 8e-6  # PuLP's model hand-over (measured: 0.9 s for a 49x49's 117,649 binaries)


def silence_highs_banner() -> None:
    """Create the process's first Highs object with stdout muted: HiGHS prints its banner then, once.

    The banner goes to file descriptor 1 from C++, which would mix it into solutions on stdout.
    """
    import highspy

    if sys.stdout is not None:
        sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no stdout at all: nothing to protect
        highspy.Highs()
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


def check_highs() -> None:
    """Raise BackendUnavailable, naming the package to install, when highspy cannot be used."""
    try:
        import highspy  # noqa: F401
    except ModuleNotFoundError:
        raise BackendUnavailable(f"ilp:highs needs HiGHS: pip install '{HIGHSPY}' "
                                 f"(or pip install 'satdoku[ilp]')") from None
    except ImportError as err:
        raise BackendUnavailable(f"ilp:highs: highspy does not load ({first_line(err, 100)}); "
                                 f"highspy 1.15 and ortools 9.15 clash in one process: "
                                 f"pip install '{HIGHSPY}'") from None
    if not pulp.HiGHS(msg=False).available():
        raise BackendUnavailable(f"ilp:highs: PuLP cannot drive highspy here: pip install '{PULP}' '{HIGHSPY}'")


def cbc_command() -> pulp.COIN_CMD:
    """PuLP's bundled CBC, or a `cbc` program on PATH when PuLP ships none for this platform."""
    with warnings.catch_warnings():  # PuLP 3.3 announces PULP_CBC_CMD's removal in PuLP 4 (we pin < 3.4)
        warnings.simplefilter("ignore", DeprecationWarning)
        bundled = pulp.PULP_CBC_CMD(msg=False)
    if bundled.available():
        return bundled
    system = pulp.COIN_CMD(msg=False)
    if system.available():
        return system
    raise BackendUnavailable(f"ilp:cbc needs CBC: pip install --force-reinstall '{PULP}' (PuLP bundles it), "
                             f"or install the coinor-cbc package")


def run_cbc(problem: pulp.LpProblem, command: pulp.COIN_CMD, time_limit: float | None) -> float | None:
    """Solve `problem` with the CBC program: its wall time, or None when it was killed at the limit.

    CBC checks its own `-sec` limit only now and then (not while reading a large file or solving the
    root LP), so the program is also killed `CBC_GRACE` seconds after the limit. The MPS writing and
    the solution reading are PuLP's own.
    """
    with tempfile.TemporaryDirectory(prefix="satdoku-cbc-") as folder:
        mps, sol = Path(folder) / "model.mps", Path(folder) / "model.sol"
        columns, column_names, row_names, _ = problem.writeMPS(str(mps), rename=1)
        args = [command.path, str(mps)]
        if time_limit is not None:
            args += ["-sec", f"{time_limit:g}"]
        args += ["-solve", "-printingOptions", "all", "-solution", str(sol)]
        start = time.perf_counter()
        try:
            done = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, timeout=None if time_limit is None else time_limit + CBC_GRACE)
        except subprocess.TimeoutExpired:
            return None
        seconds = time.perf_counter() - start
        if done.returncode != 0 or not sol.exists():
            detail = first_line(done.stderr.decode("utf-8", "replace")) or f"exit code {done.returncode}"
            raise SolverError(f"CBC ({command.path}) failed: {detail}")
        status, values, _, _, _, sol_status = command.readsol_MPS(str(sol), problem, columns, column_names, row_names)
    problem.assignVarsVals(values)
    problem.assignStatus(status, sol_status)
    return seconds


class IlpBackend(Backend):
    """Integer programming over the matrix: `ilp` is `ilp:cbc`; `ilp:highs` uses HiGHS."""

    family = "ilp"
    default_engine = "cbc"
    requirement = "pulp"
    max_cuts = 8  # no-good cuts per subproblem before enumeration splits it

    def __init__(self, engine: str | None = None, **options: object) -> None:
        super().__init__(engine, **options)
        self.engine = self.engine.lower()
        if self.engine not in self.engines():
            raise BackendUnavailable(f"unknown ILP solver {self.engine!r}; choose from {', '.join(self.engines())}")
        if self.engine == "highs":
            check_highs()
            silence_highs_banner()
        else:
            self._cbc = cbc_command()
        self._models: dict[Geometry, IlpModel] = {}

    @classmethod
    def engines(cls) -> list[str]:
        return ["cbc", "highs"]

    @classmethod
    def version(cls) -> str:
        return pulp.__version__

    def run(self, model: IlpModel, deadline: Deadline) -> tuple[Status, Grid | None]:
        """Solve the problem as it stands: the status and, when solved, the decoded grid.

        PuLP hands the problem to the solver in Python (HiGHS) or through an MPS file (CBC) before the
        solver's own clock starts; that time, about HANDOVER_SECONDS_PER_VAR a binary, is taken
        off the solver's limit so the whole call ends by the deadline.
        """
        time_limit = deadline.remaining()
        if time_limit is not None:
            time_limit -= HANDOVER_SECONDS_PER_VAR * len(model.variables)
            if time_limit <= 0.01:
                return Status.UNKNOWN, None
        if self.engine == "highs":
            try:
                model.problem.solve(pulp.HiGHS(msg=False, timeLimit=time_limit, threads=1))
            except pulp.PulpSolverError as err:
                raise SolverError(f"{self.name} failed: {first_line(err)}") from None
            return self._highs_answer(model, time_limit)
        seconds = run_cbc(model.problem, self._cbc, time_limit)
        if seconds is None:
            return Status.UNKNOWN, None
        return self._cbc_answer(model, time_limit, seconds)

    def _cbc_answer(self, model: IlpModel, time_limit: float | None, seconds: float) -> tuple[Status, Grid | None]:
        """CBC's answer; with a time limit, "infeasible" after the limit means "stopped" (CBC says
        "LP relaxation is infeasible or too expensive" when time runs out in the root LP)."""
        problem = model.problem
        if problem.sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible) and model.feasible():
            return Status.SOLVED, model.decode()
        if time_limit is not None and (seconds >= time_limit or problem.status == pulp.LpStatusNotSolved):
            return Status.UNKNOWN, None
        if problem.status == pulp.LpStatusInfeasible:
            return Status.NO_SOLUTION, None
        raise SolverError(f"{self.name} answered {pulp.LpStatus[problem.status]!r} with no solution")

    def _highs_answer(self, model: IlpModel, time_limit: float | None) -> tuple[Status, Grid | None]:
        """HiGHS's own model status (PuLP reports a time-out as a feasible solution even without one)."""
        import highspy

        status = model.problem.solverModel.getModelStatus()
        states = highspy.HighsModelStatus
        if status in (states.kOptimal, states.kTimeLimit, states.kInterrupt) and model.feasible():
            return Status.SOLVED, model.decode()
        if status in (states.kInfeasible, states.kUnboundedOrInfeasible):
            return Status.NO_SOLUTION, None
        if status in (states.kTimeLimit, states.kInterrupt):
            return Status.UNKNOWN, None
        raise SolverError(f"{self.name} answered {model.problem.solverModel.modelStatusToString(status)!r} "
                          f"with no solution")

    def reused_model(self, geometry: Geometry, deadline: Deadline | None = None) -> IlpModel:
        """The one problem of a geometry that this backend keeps and re-fixes for every puzzle; building it
        stops at `deadline` (TimeLimitReached; nothing half-built is kept)."""
        if geometry not in self._models:
            self._models[geometry] = encode_matrix(geometry, deadline)
        return self._models[geometry]

    def solve_within(self, puzzle: Puzzle, deadline: Deadline) -> Result:
        """Solve on the geometry's reused problem, the givens fixed by bounds for this call."""
        model = self.reused_model(puzzle.geometry, deadline)
        with givens_fixed(model, puzzle):
            status, grid = self.run(model, deadline)
        return Result(status, grid)

    def solutions_within(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        """Every solution by no-good cuts: solve, cut that grid off (its placements sum <= n*n - 1), repeat.

        A growing pile of cuts makes each LP relaxation weaker and each solve slower (CBC took 112 s
        for the 288 4x4 grids in one pile), so once a subproblem holds `max_cuts` cuts it is split on
        the digit of its next open cell; each part keeps only the cuts of grids it still contains.
        """
        seen: set[Grid] = set()
        stack: list[Subproblem] = [Subproblem((), [])]
        open_cells = [i for i, v in enumerate(puzzle.cells) if not v]
        candidates = cell_candidates(puzzle)
        while stack:
            part = stack.pop()
            model = encode(puzzle)
            model.fix(part.fixed)
            for grid in part.cuts:
                model.add_no_good(grid)
            while True:
                if len(part.cuts) >= self.max_cuts and len(part.fixed) < len(open_cells):
                    stack.extend(reversed(part.split(open_cells[len(part.fixed)], candidates, puzzle.n)))
                    break
                status, grid = self.run(model, deadline)
                if status is Status.UNKNOWN:
                    raise deadline.reached()
                if status is not Status.SOLVED:
                    break
                if grid in seen:
                    raise SolverError(f"{puzzle.where}{self.name} returned a grid its no-good cut excludes")
                seen.add(grid)
                yield grid
                part.cuts.append(grid)
                model.add_no_good(grid)


def cell_candidates(puzzle: Puzzle) -> dict[int, list[int]]:
    """The 0-based digits still possible in each open cell once the givens are placed.

    >>> cell_candidates(Puzzle.from_rows([[1, 0, 0, 0], [0, 0, 0, 2], [0, 0, 4, 0], [0, 3, 0, 0]]))[1]
    [1, 3]
    """
    n = puzzle.n
    reduced = exact_cover(puzzle.geometry).reduce(puzzle)
    found: dict[int, list[int]] = {}
    for o in reduced.options.tolist():
        found.setdefault(o // n, []).append(o % n)
    return found


@dataclass
class Subproblem:
    """A part of the search: placements fixed on top of the givens, and the grids cut off in it."""

    fixed: tuple[int, ...]
    cuts: list[Grid]

    def split(self, cell: int, candidates: dict[int, list[int]], n: int) -> list["Subproblem"]:
        """One part per candidate digit of `cell`, each keeping the cuts of its own grids.

        >>> Subproblem((), [(1, 2), (2, 1)]).split(0, {0: [0, 1]}, 2)
        [Subproblem(fixed=(0,), cuts=[(1, 2)]), Subproblem(fixed=(1,), cuts=[(2, 1)])]
        """
        return [Subproblem(self.fixed + (cell * n + d,), [g for g in self.cuts if g[cell] == d + 1])
                for d in candidates.get(cell, [])]
