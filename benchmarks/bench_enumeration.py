"""Enumeration over SAT: our blocking clauses (placements only, under an activation literal) vs peers.

    python benchmarks/bench_enumeration.py
    python benchmarks/bench_enumeration.py --engines cadical195 minisat22 --repeat 3

Cases: the empty 4x4 (288 grids) and a 6x6 (2x3 boxes) whose first row is fixed (39,168
completions). Peers: PySAT's own `enum_models` on the same pairwise CNF, and CP-SAT's native
enumeration (`enumerate_all_solutions`) of the same exact-cover matrix, through satdoku's cpsat
backend when it exists and through ortools directly. Every grid is checked by the independent
verifier (timed apart) and the counts must be exact.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import harness  # first: puts the repo root on sys.path
from pysat.solvers import Solver
from satdoku.backends.pysat import PysatBackend
from satdoku.encoders.cnf import encode
from satdoku.models.geometry import Geometry
from satdoku.models.matrix import exact_cover
from satdoku.models.puzzle import Grid, Puzzle
from satdoku.models.verify import is_solution

CASES = [("empty 4x4", Puzzle.empty(Geometry(2, 2)), 288),
         ("6x6, first row fixed", Puzzle(Geometry(2, 3), (1, 2, 3, 4, 5, 6) + (0,) * 30), 39168)]
TARGETS = {"empty 4x4": 0.050, "6x6, first row fixed": 2.0}


def ours(engine: str, amo: str) -> Callable[[Puzzle], list[Grid]]:
    def run(puzzle: Puzzle) -> list[Grid]:
        backend = PysatBackend(engine, amo=amo)
        try:
            return list(backend.solutions(puzzle))
        finally:
            backend.close()
    return run


def pysat_enum_models(engine: str) -> Callable[[Puzzle], list[Grid]]:
    """PySAT's enum_models on the pairwise CNF (no auxiliaries, so blocking every variable is right)."""
    def run(puzzle: Puzzle) -> list[Grid]:
        cnf, varmap = encode(puzzle)
        with Solver(name=engine, bootstrap_with=cnf.clauses) as solver:
            return [varmap.decode(model) for model in solver.enum_models()]
    return run


def cpsat_direct(puzzle: Puzzle) -> list[Grid]:
    """CP-SAT's native enumeration of the exact-cover matrix, written against ortools directly."""
    from ortools.sat.python import cp_model
    matrix = exact_cover(puzzle.geometry)
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"o{o}") for o in range(matrix.n_options)]
    for options in matrix.item_options:
        model.AddExactlyOne(x[int(o)] for o in options)
    for r, c, d in puzzle.givens():
        model.Add(x[matrix.option(r, c, d)] == 1)
    grids: list[Grid] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            grids.append(matrix.grid([o for o in range(matrix.n_options) if self.BooleanValue(x[o])]))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.Solve(model, Collect())
    return grids


def cpsat_backend() -> Callable[[Puzzle], list[Grid]] | None:
    """satdoku's own cpsat backend, when that module exists in this checkout."""
    try:
        from satdoku.backends.registry import get_backend
        backend = get_backend("cpsat")
    except Exception:  # not written yet, or ortools missing
        return None
    return lambda puzzle: list(backend.solutions(puzzle))


def check(grids: list[Grid], puzzle: Puzzle, expected: int, label: str) -> float:
    start = time.perf_counter()
    if len(grids) != expected or len(set(grids)) != expected:
        raise SystemExit(f"{label}: {len(grids)} grids ({len(set(grids))} distinct), expected {expected}")
    if not all(is_solution(g, puzzle) for g in grids):
        raise SystemExit(f"{label}: a grid fails the verifier")
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", nargs="+", default=["cadical195", "cadical153", "minisat22", "glucose4"])
    parser.add_argument("--amo", nargs="+", default=["pairwise", "seqcounter"], help="at-most-one kinds for ours")
    harness.add_repeat_option(parser)
    args = parser.parse_args(argv)
    peers: list[tuple[str, Callable]] = []
    for amo in args.amo:
        peers += [(f"ours, blocking clauses (pysat:{e}, {amo})", ours(e, amo)) for e in args.engines]
    peers.append(("pysat enum_models (cadical195, pairwise)", pysat_enum_models("cadical195")))
    own = cpsat_backend()
    if own is not None:
        peers.append(("satdoku cpsat backend (native enumeration)", own))
    peers.append(("CP-SAT enumerate_all_solutions (ortools direct)", cpsat_direct))

    rows = [("case", "peer", "models", "seconds", "models/s", "vs ours", "verify s")]
    for case, puzzle, expected in CASES:
        reference = None
        for label, run in peers:
            seconds, grids = harness.best_of(args.repeat, lambda: list(run(puzzle)))
            verify_seconds = check(grids, puzzle, expected, label)
            rate = expected / seconds
            reference = reference or rate
            rows.append((case, label, f"{expected:,}", f"{seconds:.3f}", f"{rate:,.0f}",
                         f"{rate / reference:.2f}x", f"{verify_seconds:.3f}"))
    harness.print_table(rows, left=2)
    print("\ntargets: " + "; ".join(f"{case} <= {t * 1000:g} ms" for case, t in TARGETS.items())
          + ". 'vs ours': models/s over the first row of the case; verify s is not in seconds.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
