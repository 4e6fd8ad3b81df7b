"""Killer sudoku with no givens: each backend's median and worst seconds a puzzle, side by side, and the
two CNF routes for cage sums measured against each other.

    python benchmarks/bench_killer.py                         # puzzles/variants/killer_9x9/*.json
    python benchmarks/bench_killer.py --folder DIR --backends pysat dlx --time-limit 60

Backends run interleaved puzzle by puzzle through `satdoku.comparison` (one clock per call, every grid
verified from the puzzle's own cages, agreement checked), then `check` (uniqueness: count up to 2) on
pysat. The 'cnf route' table solves the same puzzles with CaDiCaL on two formulas: satdoku's (the
matrix: a cage's digit sets as options) and a pseudo-Boolean one built here only for the comparison
(the classic matrix, then per cage each digit at most once and sum of digit * x[cell, digit] = total,
PySAT's pysat.pb with pindakaas; needs `pip install 'python-sat[pb]'`).
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import harness  # first: puts the repo root on sys.path
from satdoku.backends.registry import get_backend
from satdoku.comparison import backends_by_names, compare_backends, first_disagreement
from satdoku.encoders.cnf import encode, given_literals
from satdoku.models.fpuzzles import read_json_text
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution

BACKENDS = ("pysat", "cpsat", "ilp:highs", "dlx", "logic")


def read_folder(folder: Path) -> list[Puzzle]:
    """Every f-puzzles JSON file of a folder, in name order."""
    return [read_json_text(path.read_text(), str(path)) for path in sorted(folder.glob("*.json"))]


def backend_rows(names: list[str], puzzles: list[Puzzle], time_limit: float) -> list[tuple[str, ...]]:
    """Per backend: solved, median and worst seconds a puzzle."""
    backends = backends_by_names(",".join(names))
    records = compare_backends(backends, puzzles, time_limit=time_limit)
    problem = first_disagreement(records)
    if problem:
        raise SystemExit(problem)
    rows = []
    for b in backends:
        answers = [r.answers[b.name] for r in records]
        seconds = [a.seconds for a in answers]
        solved = sum(a.grid is not None for a in answers)
        rows.append((b.name, f"{solved}/{len(puzzles)}", f"{statistics.median(seconds):.3f}", f"{max(seconds):.3f}"))
    return rows


def unique_row(puzzles: list[Puzzle]) -> tuple[str, ...]:
    """Uniqueness on pysat (count up to 2): how many are unique, median and worst seconds."""
    sat = get_backend("pysat")
    seconds, unique = [], 0
    for p in puzzles:
        start = time.perf_counter()
        unique += sat.count(p, limit=2) == 1
        seconds.append(time.perf_counter() - start)
    return ("pysat check (count to 2)", f"{unique}/{len(puzzles)} unique", f"{statistics.median(seconds):.3f}",
            f"{max(seconds):.3f}")


def pb_formula(puzzle: Puzzle) -> tuple[list[list[int]], int]:
    """The classic CNF of the grid plus, per cage, at most one of each digit and the weighted sum = total."""
    from pysat.card import CardEnc, EncType
    from pysat.pb import PBEnc
    g = puzzle.geometry
    n = g.n
    cnf, _ = encode(Puzzle(Geometry(g.box_rows, g.box_cols), puzzle.cells))
    clauses, top = list(cnf.clauses), cnf.nv
    for cells, total in g.cages:
        for d in range(n):
            clauses += CardEnc.atmost([c * n + d + 1 for c in cells], 1, encoding=EncType.pairwise).clauses
        if total is not None:
            lits = [c * n + d + 1 for c in cells for d in range(n)]
            weights = [d + 1 for _ in cells for d in range(n)]
            pb = PBEnc.equals(lits=lits, weights=weights, bound=total, top_id=top)
            clauses += pb.clauses
            top = max(top, pb.nv)
    return clauses, top


def route_rows(puzzles: list[Puzzle]) -> list[tuple[str, ...]]:
    """CaDiCaL on satdoku's formula (digit sets as options) and on the pseudo-Boolean one: clauses, variables,
    median and worst seconds (formula building included), every grid verified."""
    from pysat.solvers import Solver
    rows = []
    for route in ("digit sets (satdoku)", "pseudo-Boolean (pysat.pb)"):
        seconds, sizes = [], []
        for p in puzzles:
            start = time.perf_counter()
            if route.startswith("digit"):
                cnf, _ = encode(p)
                clauses, nv = cnf.clauses, cnf.nv
            else:
                clauses, nv = pb_formula(p)
            with Solver(name="cadical195", bootstrap_with=clauses) as solver:
                assert solver.solve(assumptions=given_literals(p))
                model = solver.get_model()[:p.n ** 3]
            seconds.append(time.perf_counter() - start)
            grid = tuple(v % p.n or p.n for v in sorted(x for x in model if x > 0))
            assert is_solution(grid, p), route
            sizes.append((len(clauses), nv))
        rows.append((route, f"{statistics.mean(c for c, _ in sizes):,.0f}", f"{statistics.mean(v for _, v in sizes):,.0f}",
                     f"{statistics.median(seconds):.3f}", f"{max(seconds):.3f}"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", default=str(harness.REPO / "puzzles" / "variants" / "killer_9x9"))
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per puzzle and backend")
    parser.add_argument("--no-routes", action="store_true", help="skip the CNF route comparison")
    args = parser.parse_args()
    puzzles = read_folder(Path(args.folder))
    print(f"{len(puzzles)} killer puzzles from {args.folder}, no givens; time limit {args.time_limit:g} s\n")
    harness.print_table([("backend", "solved", "median s", "worst s")]
                        + backend_rows(args.backends, puzzles, args.time_limit) + [unique_row(puzzles)])
    if not args.no_routes:
        print()
        harness.print_table([("cnf route (cadical195)", "clauses", "variables", "median s", "worst s")]
                            + route_rows(puzzles))


if __name__ == "__main__":
    main()
