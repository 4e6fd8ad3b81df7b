"""Batch SAT solving: one reused solver with givens as assumptions vs a fresh CNF and solver per puzzle.

    python benchmarks/bench_sat_batch.py                      # magictour top1465, the default engines
    python benchmarks/bench_sat_batch.py --engines cadical195 minisat22 --jobs 2
    python benchmarks/bench_sat_batch.py --file ../shared/puzzles/tdoku_17_clue.txt --limit 5000

Every solution is checked by the independent verifier; verification is timed apart from solving
(and reported), so the puzzles/s columns are the solver path alone: encode or assume, solve, decode.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import harness  # first: puts the repo root on sys.path
from pysat.solvers import Solver
from satdoku.backends.base import Result, Status
from satdoku.backends.pysat import PysatBackend
from satdoku.encoders.cnf import encode
from satdoku.models.formats import read_puzzles
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from satdoku.parallel import solve_in_processes

DEFAULT_ENGINES = ("cadical195", "cadical153", "cadical300", "glucose4", "glucose3", "minisat22", "minicard", "maplechrono")


def fresh_loop(puzzles: list[Puzzle], engine: str) -> list[Result]:
    """The naive peer: encode each puzzle with unit givens, build a new solver, solve, decode."""
    results = []
    for puzzle in puzzles:
        start = time.perf_counter()
        cnf, varmap = encode(puzzle)
        with Solver(name=engine, bootstrap_with=cnf.clauses) as solver:
            grid = varmap.decode(solver.get_model()) if solver.solve() else None
        results.append(Result(Status.SOLVED if grid else Status.NO_SOLUTION, grid, f"fresh:{engine}",
                              time.perf_counter() - start))
    return results


def reused(puzzles: list[Puzzle], engine: str) -> list[Result]:
    """Our backend: one solver per geometry, built inside the timed run, givens as assumptions."""
    backend = PysatBackend(engine)
    try:
        return list(backend.solve_many(puzzles))
    finally:
        backend.close()


def timed_run(label: str, run, puzzles: list[Puzzle], repeat: int) -> tuple[str, float, list[Result]]:
    """Best wall time of `repeat` runs, and the results of the last one."""
    best, results = harness.best_of(repeat, lambda: run(puzzles))
    return label, best, results


def verify(puzzles: list[Puzzle], results: list[Result], label: str) -> float:
    """Check every grid with the independent verifier; the seconds it took."""
    start = time.perf_counter()
    assert len(results) == len(puzzles), label
    bad = [k for k, (p, r) in enumerate(zip(puzzles, results)) if not (r.solved and is_solution(r.grid, p))]
    if bad:
        raise SystemExit(f"{label}: puzzle {bad[0] + 1} not solved correctly")
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_puzzle_options(parser, "magictour_top1465.txt")
    parser.add_argument("--engines", nargs="+", default=list(DEFAULT_ENGINES), help="PySAT engines to reuse")
    parser.add_argument("--fresh-engine", default="cadical195", help="engine of the fresh-CNF loop")
    parser.add_argument("--jobs", type=int, default=2, help="also run the default backend in N processes (0: skip)")
    harness.add_repeat_option(parser, "best of N runs for the reused solvers")
    args = parser.parse_args(argv)
    puzzles = read_puzzles(args.file)[:args.limit]
    print(f"{Path(args.file).name}: {len(puzzles)} puzzles; one process unless stated\n")

    runs = [timed_run(f"fresh CNF + solver per puzzle ({args.fresh_engine})",
                      lambda ps: fresh_loop(ps, args.fresh_engine), puzzles, 1)]
    for engine in args.engines:
        runs.append(timed_run(f"reused solver, assumptions (pysat:{engine})",
                              lambda ps, e=engine: reused(ps, e), puzzles, args.repeat))
    if args.jobs > 1:
        runs.append(timed_run(f"reused solver, --jobs {args.jobs} (pysat)",
                              lambda ps: list(solve_in_processes("pysat", {}, ps, None, args.jobs)), puzzles, 1))

    base = len(puzzles) / runs[0][1]
    rows = [("peer", "puzzles", "seconds", "puzzles/s", "ratio", "verify s")]
    for label, seconds, results in runs:
        checked = verify(puzzles, results, label)
        rate = len(puzzles) / seconds
        rows.append((label, str(len(puzzles)), f"{seconds:.3f}", f"{rate:,.0f}", f"{rate / base:.1f}x", f"{checked:.3f}"))
    harness.print_table(rows)
    print("\nratio: puzzles/s over the fresh-CNF loop's; verify s: independent verifier on every grid "
          "(not in seconds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
