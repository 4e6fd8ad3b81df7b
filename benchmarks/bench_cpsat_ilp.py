"""CP-SAT and ILP (CBC, HiGHS) side by side on one puzzle file, and enumeration of the 288 4x4 grids.

    python benchmarks/bench_cpsat_ilp.py                       # magictour top1465, every peer, whole file
    python benchmarks/bench_cpsat_ilp.py --ilp-limit 300       # CBC and HiGHS on the first 300 only
    python benchmarks/bench_cpsat_ilp.py --file ../shared/puzzles/norvig_top95.txt --workers 2

Peers, each over the same puzzles in the same run:
  cpsat reused (fixed)   our backend: one CpModel per geometry, givens fixed by domain edits per puzzle
  cpsat reused (assume)  one CpModel per geometry, givens passed as assumptions
  cpsat fresh            a new CpModel (givens fixed) and a new CpSolver per puzzle, our parameters
  cpsat fresh (defaults) the same with OR-Tools' default parameters (presolve on): the naive peer
  ilp:cbc / ilp:highs    our backend: one PuLP problem per geometry, givens fixed by bounds
Every solution is checked by the independent verifier (outside the timed loop). Timings are wall
clock on a shared machine: compare the ratios within one run.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import harness  # first: puts the repo root on sys.path
from satdoku.backends.base import Result, Status
from satdoku.backends.cpsat import CpsatBackend, make_solver, run_model
from satdoku.backends.registry import get_backend
from satdoku.encoders.cpsat import cp_model, encode, encode_matrix, given_literals
from satdoku.models.formats import read_puzzles
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution


def cpsat_assumptions(puzzles: list[Puzzle], workers: int) -> list[Result]:
    """One model per geometry, the givens as assumptions (cleared and set again per puzzle)."""
    models, solver, results = {}, make_solver(workers), []
    for puzzle in puzzles:
        start = time.perf_counter()
        if puzzle.geometry not in models:
            models[puzzle.geometry] = encode_matrix(puzzle.geometry, names=False)
        cpm = models[puzzle.geometry]
        cpm.model.clear_assumptions()
        cpm.model.add_assumptions(given_literals(cpm, puzzle))
        status, grid = run_model(solver, cpm)
        results.append(timed(status, grid, start))
    return results


def timed(status: Status, grid, start: float) -> Result:
    """A Result whose time runs from `start` (a time.perf_counter value) to now."""
    return Result(status, grid, "cpsat", time.perf_counter() - start)


def cpsat_fresh(puzzles: list[Puzzle], workers: int) -> list[Result]:
    """A model built for each puzzle alone, solved with the backend's tuned parameters."""
    results = []
    for puzzle in puzzles:
        start = time.perf_counter()
        status, grid = run_model(make_solver(workers), encode(puzzle, names=False))
        results.append(timed(status, grid, start))
    return results


def cpsat_defaults(puzzles: list[Puzzle], workers: int) -> list[Result]:
    """The naive peer: a fresh model and a CpSolver with OR-Tools' default parameters per puzzle."""
    results = []
    for puzzle in puzzles:
        start = time.perf_counter()
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        status, grid = run_model(solver, encode(puzzle, names=False))
        results.append(timed(status, grid, start))
    return results


def peers(workers: int) -> dict[str, Callable[[list[Puzzle]], list[Result]]]:
    """Label -> a function solving a list of puzzles, each building what it needs inside the timing."""
    return {
        "cpsat reused (fixed)": lambda ps: list(CpsatBackend(workers=workers).solve_many(ps)),
        "cpsat reused (assume)": lambda ps: cpsat_assumptions(ps, workers),
        "cpsat fresh": lambda ps: cpsat_fresh(ps, workers),
        "cpsat fresh (defaults)": lambda ps: cpsat_defaults(ps, workers),
        "ilp:cbc": lambda ps: list(get_backend("ilp:cbc").solve_many(ps)),
        "ilp:highs": lambda ps: list(get_backend("ilp:highs").solve_many(ps)),
    }


def verified(label: str, puzzles: list[Puzzle], results: list[Result]) -> None:
    """Stop the benchmark unless every puzzle got a grid that the independent verifier accepts."""
    if len(results) != len(puzzles):
        raise SystemExit(f"{label}: {len(results)} results for {len(puzzles)} puzzles")
    for k, (puzzle, result) in enumerate(zip(puzzles, results)):
        if result.status is not Status.SOLVED or not is_solution(result.grid, puzzle):
            raise SystemExit(f"{label}: puzzle {k + 1} ({puzzle.source}) not solved correctly: {result.status}")


def enumerate_288(name: str) -> tuple[int, int, float]:
    """All grids of the empty 4x4 through one backend: (grids, distinct verified grids, seconds)."""
    empty = Puzzle.empty(Geometry(2, 2))
    start = time.perf_counter()
    grids = list(get_backend(name).solutions(empty))
    seconds = time.perf_counter() - start
    good = {g for g in grids if is_solution(g, empty)}
    return len(grids), len(good), seconds


def table(rows: list[tuple[str, int, float]], base: str) -> str:
    """The solve table; `ratio` is puzzles/s over the `base` row's."""
    rates = {label: count / seconds for label, count, seconds in rows}
    lines = [f"| {'peer':<22} | {'puzzles':>7} | {'seconds':>8} | {'puzzles/s':>9} | {'ratio':>6} |",
             f"|{'-' * 24}|{'-' * 8}:|{'-' * 9}:|{'-' * 10}:|{'-' * 7}:|"]
    for label, count, seconds in rows:
        lines.append(f"| {label:<22} | {count:>7} | {seconds:>8.2f} | {rates[label]:>9.1f} | "
                     f"{rates[label] / rates[base]:>5.2f}x |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_puzzle_options(parser, "magictour_top1465.txt", limit_help="first N puzzles for every peer")
    parser.add_argument("--ilp-limit", type=int, default=None, help="first N puzzles for CBC and HiGHS only")
    parser.add_argument("--workers", type=int, default=1, help="CP-SAT workers (default 1)")
    parser.add_argument("--peers", nargs="*", default=None, help="only these peers (labels as in the table)")
    parser.add_argument("--no-enumeration", action="store_true", help="skip the 4x4 enumeration table")
    args = parser.parse_args(argv)

    puzzles = read_puzzles(args.file)[:args.limit]
    chosen = {k: v for k, v in peers(args.workers).items() if args.peers is None or k in args.peers}
    print(f"{Path(args.file).name}: {len(puzzles)} puzzles; CP-SAT workers {args.workers}; "
          f"ILP on the first {len(puzzles[:args.ilp_limit])}", flush=True)
    rows = []
    for label, run in chosen.items():
        subset = puzzles[:args.ilp_limit] if label.startswith("ilp") else puzzles
        start = time.perf_counter()
        results = run(subset)
        seconds = time.perf_counter() - start
        verified(label, subset, results)
        rows.append((label, len(subset), seconds))
        print(f"  {label}: {len(subset)} puzzles in {seconds:.2f} s, all verified", flush=True)
    base = "cpsat fresh (defaults)" if "cpsat fresh (defaults)" in chosen else rows[0][0]
    print()
    print(table(rows, base))
    if not args.no_enumeration:
        print()
        print("| enumeration, empty 4x4 | grids | distinct verified | seconds |")
        print("|------------------------|------:|------------------:|--------:|")
        for name in ("cpsat", "ilp:cbc", "ilp:highs"):
            count, good, seconds = enumerate_288(name)
            print(f"| {name:<22} | {count:>5} | {good:>17} | {seconds:>7.2f} |")
            if count != 288 or good != 288:
                raise SystemExit(f"{name}: {count} grids, {good} distinct verified, expected 288")
    return 0


if __name__ == "__main__":
    sys.exit(main())
