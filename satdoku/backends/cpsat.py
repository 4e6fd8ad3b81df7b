"""OR-Tools CP-SAT over the matrix model: solve, batch solve on a reused model, native enumeration."""
from __future__ import annotations

import math
import queue
import threading
from collections.abc import Iterator

from satdoku.backends.base import Backend, Result, Status, out_of_time
from satdoku.backends.options import options_of
from satdoku.deadline import Deadline
from satdoku.encoders.cpsat import CpsatModel, cp_model, encode, encode_matrix
from satdoku.encoders.givens import givens_fixed
from satdoku.errors import BackendUnavailable, InputError, SolverError
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Grid, Puzzle

MAX_WORKERS = 1024  # search workers CP-SAT is given at most

STATUSES = {
    cp_model.OPTIMAL: Status.SOLVED,
    cp_model.FEASIBLE: Status.SOLVED,
    cp_model.INFEASIBLE: Status.NO_SOLUTION,
    cp_model.UNKNOWN: Status.UNKNOWN,
}


def make_solver(workers: int = 1, time_limit: float | None = None) -> cp_model.CpSolver:
    """A CpSolver tuned for exact cover: no presolve, linearization or symmetry detection.

    The matrix is already as small as it gets and every constraint is a clause-like exactly-one, so
    those stages cost more than they save (measured in benchmarks/bench_cpsat_ilp.py).

    >>> make_solver(2, 1.5).parameters.num_workers
    2
    """
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = workers
    params.cp_model_presolve = False
    params.linearization_level = 0
    params.symmetry_level = 0
    if time_limit is not None:
        params.max_time_in_seconds = time_limit
    return solver


def set_time_limit(solver: cp_model.CpSolver, time_limit: float | None) -> None:
    """Set or clear the solver's wall-clock limit."""
    solver.parameters.max_time_in_seconds = math.inf if time_limit is None else time_limit


def run_model(solver: cp_model.CpSolver, cpm: CpsatModel) -> tuple[Status, Grid | None]:
    """Solve a prepared model once: the mapped status and, when solved, the decoded grid."""
    code = solver.solve(cpm.model)
    if code == cp_model.MODEL_INVALID:
        raise SolverError(f"CP-SAT rejected the model: {cpm.model.validate()}")
    status = STATUSES[code]
    if status is not Status.SOLVED:
        return status, None
    return status, cpm.decode(solver.response_proto.solution)


class _Enumerator(cp_model.CpSolverSolutionCallback):
    """Passes each new grid to a queue; skips repeats; stops the search once the consumer has stopped."""

    def __init__(self, cpm: CpsatModel, out: queue.Queue, cancelled: threading.Event) -> None:
        super().__init__()
        self.cpm, self.out, self.cancelled = cpm, out, cancelled
        self.seen: set[Grid] = set()
        self.repeats = 0

    def on_solution_callback(self) -> None:
        grid = self.cpm.decode(self.response_proto.solution)
        if grid in self.seen:  # or-tools #4640: presolve may report a solution twice
            self.repeats += 1
            return
        self.seen.add(grid)
        while not self.cancelled.is_set():
            try:
                self.out.put(grid, timeout=0.05)
                break
            except queue.Full:
                continue
        if self.cancelled.is_set():
            self.stop_search()


class CpsatBackend(Backend):
    """OR-Tools CP-SAT: `cpsat`, with `--workers N` search workers (default 1, reproducible)."""

    family = "cpsat"
    default_engine = ""
    requirement = "ortools"
    options = options_of("cpsat")

    def __init__(self, engine: str | None = None, **options: object) -> None:
        super().__init__(engine, **options)
        if self.engine:
            raise BackendUnavailable(f"backend 'cpsat' has no engine {self.engine!r}; write just 'cpsat'")
        workers = self.settings.get("workers", 1)
        if not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= MAX_WORKERS:
            raise InputError(f"cpsat: --workers must be a whole number from 1 to {MAX_WORKERS}, not {workers!r}")
        self.workers = workers
        self._models: dict[Geometry, CpsatModel] = {}
        self._solver = make_solver(workers)
        self.skipped_repeats = 0  # repeated grids the last enumeration dropped (or-tools #4640)

    @classmethod
    def version(cls) -> str:
        import ortools
        return ortools.__version__

    def reused_model(self, geometry: Geometry) -> CpsatModel:
        """The one model of a geometry that this backend keeps and re-fixes for every puzzle."""
        if geometry not in self._models:
            self._models[geometry] = encode_matrix(geometry, names=False)
        return self._models[geometry]

    def solve_within(self, puzzle: Puzzle, deadline: Deadline) -> Result:
        """Solve on the geometry's reused model with the givens fixed for this call."""
        cpm = self.reused_model(puzzle.geometry)
        left = deadline.remaining()
        if left is not None and left <= 0:
            return out_of_time(workers=self.workers)
        set_time_limit(self._solver, left)
        with givens_fixed(cpm, puzzle):
            status, grid = run_model(self._solver, cpm)
        return Result(status, grid, stats={"workers": self.workers})

    def solutions_within(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        """Every solution by CP-SAT's native enumeration, streamed as found, each new.

        The search runs in a helper thread and hands grids over a small queue, so a caller that
        stops early (or a limit) stops the search. Enumeration uses one worker (CP-SAT's rule).
        """
        cpm = encode(puzzle, names=False)
        solver = make_solver(1, deadline.remaining())
        solver.parameters.enumerate_all_solutions = True
        grids: queue.Queue = queue.Queue(maxsize=64)
        cancelled = threading.Event()
        callback = _Enumerator(cpm, grids, cancelled)
        done = object()
        outcome: dict[str, object] = {}

        def search() -> None:
            try:
                outcome["status"] = solver.solve(cpm.model, callback)
            except BaseException as err:  # handed to the consumer below
                outcome["error"] = err
            finally:
                while True:
                    try:
                        grids.put(done, timeout=0.05)
                        break
                    except queue.Full:
                        if cancelled.is_set():
                            break

        worker = threading.Thread(target=search, name="satdoku-cpsat-enumerate", daemon=True)
        worker.start()
        try:
            while (grid := grids.get()) is not done:
                yield grid
        finally:
            cancelled.set()
            while worker.is_alive():  # the search may not have started when the first stop came
                solver.stop_search()
                worker.join(timeout=0.05)
            self.skipped_repeats = callback.repeats
        if "error" in outcome:
            raise SolverError(f"{puzzle.where}CP-SAT failed while enumerating: {outcome['error']}")
        status = outcome.get("status")
        if status == cp_model.MODEL_INVALID:
            raise SolverError(f"{puzzle.where}CP-SAT rejected the model: {cpm.model.validate()}")
        if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):  # stopped by its time limit
            raise deadline.reached()
