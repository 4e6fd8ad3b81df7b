"""Our DLX against the PyPI packages `dlx` (pure Python dancing links) and `exact-cover` (C), side by side.

    python benchmarks/bench_dlx.py [--file ../shared/puzzles/magictour_top1465.txt] [--limit N]

Every solver sees the same puzzles in the same run, interleaved in chunks so that the load of a
shared machine falls on all of them alike. What is timed:
- satdoku dlx: `DlxBackend().solve(puzzle)`, the whole path from a parsed Puzzle to a grid;
- satdoku algorithm_x: `exact_cover(g).reduce(puzzle)` and the dicts-of-sets Algorithm X over it;
- PyPI dlx: as its docs say, one DLX per puzzle with the 324 columns rc/rn/cn/bn, one appendRow per
  candidate (all 729) and useRow for each given, then the first solution of solve(). Timed twice:
  "solve only" (useRow + solve) and "build+solve" (also building the 729 rows);
- PyPI exact-cover: as its sudoku helper does, a 729 x 324 int32 matrix with the rows of the
  givens' other digits left empty, then get_exact_cover. Timed: get_exact_cover only.
Ratios are our dlx's puzzles/s over the row's. Every answer is checked with is_solution.

Counting: the 288 grids of the empty 4x4 and the 39,168 completions of a 6x6 (2x3 boxes) whose
first row is fixed, our count() against exact-cover's get_solution_count on the same matrix.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import harness  # first: puts the repo root on sys.path
from satdoku.backends.dlx import DlxBackend
from satdoku.models.formats import read_puzzles
from satdoku.models.geometry import Geometry
from satdoku.models.matrix import exact_cover
from satdoku.models.puzzle import Grid, Puzzle
from satdoku.models.verify import is_solution

from tests.reference.algorithm_x import reduced_covers


def ours(puzzle: Puzzle, backend: DlxBackend = DlxBackend()) -> tuple[Grid, float, float]:
    start = time.perf_counter()
    grid = backend.solve(puzzle).grid
    seconds = time.perf_counter() - start
    return grid, seconds, seconds


def assaf(puzzle: Puzzle) -> tuple[Grid, float, float]:
    start = time.perf_counter()
    matrix = exact_cover(puzzle.geometry)
    grid = matrix.grid(next(reduced_covers(matrix.reduce(puzzle))))
    seconds = time.perf_counter() - start
    return grid, seconds, seconds


def option_rows(geometry: Geometry) -> list[list[int]]:
    """The 4 columns (rc, rn, cn, bn) of every candidate, numbered the way the exact-cover article does."""
    n = geometry.n
    rows = []
    for r in range(n):
        for c in range(n):
            for d in range(n):
                b = geometry.box_of(r, c)
                rows.append([r * n + c, n * n + r * n + d, 2 * n * n + c * n + d, 3 * n * n + b * n + d])
    return rows


def grid_of(options: list[int], n: int) -> Grid:
    """The grid of a peer's cover, its options numbered (r * n + c) * n + d."""
    cells = [0] * (n * n)
    for option in options:
        cells[option // n] = option % n + 1
    return tuple(cells)


def pypi_dlx(puzzle: Puzzle) -> tuple[Grid, float, float]:
    from dlx import DLX
    n = puzzle.n
    start = time.perf_counter()
    columns = [(f"{kind}{i}", DLX.PRIMARY) for kind in ("rc", "rn", "cn", "bn") for i in range(n * n)]
    solver = DLX(columns)
    ids = solver.appendRows(option_rows(puzzle.geometry), list(range(n ** 3)))
    built = time.perf_counter()
    for r, c, d in puzzle.givens():
        solver.useRow(ids[(r * n + c) * n + d])
    rows = next(solver.solve())
    end = time.perf_counter()
    return grid_of([solver.N[row] for row in rows], n), end - built, end - start


def exact_cover_matrix(puzzle: Puzzle):
    import numpy as np
    n = puzzle.n
    matrix = np.zeros((n ** 3, 4 * n * n), dtype=np.int32)
    rows = option_rows(puzzle.geometry)
    for cell, given in enumerate(puzzle.cells):
        for d in ([given - 1] if given else range(n)):
            matrix[cell * n + d, rows[cell * n + d]] = 1
    return matrix


def pypi_exact_cover(puzzle: Puzzle) -> tuple[Grid, float, float]:
    import exact_cover as ec
    n = puzzle.n
    start = time.perf_counter()
    matrix = exact_cover_matrix(puzzle)
    built = time.perf_counter()
    cover = ec.get_exact_cover(matrix)
    end = time.perf_counter()
    return grid_of(cover.tolist(), n), end - built, end - start


def installed(module: str) -> str | None:
    """The installed version of a peer, or None."""
    try:
        from importlib.metadata import version
        __import__(module)
        return version({"dlx": "dlx", "exact_cover": "exact-cover"}[module])
    except ImportError:
        return None


def run_solvers(puzzles: list[Puzzle], chunk: int) -> list[tuple[str, int, float, float]]:
    solvers = [("satdoku dlx", ours), ("satdoku algorithm_x (dicts of sets)", assaf)]
    for module, label, func in (("dlx", "PyPI dlx", pypi_dlx), ("exact_cover", "PyPI exact-cover", pypi_exact_cover)):
        version = installed(module)
        if version is None:
            print(f"{label}: not installed (pip install dlx exact-cover), skipped")
        else:
            solvers.append((f"{label} {version}", func))
    timed = {name: [0.0, 0.0] for name, _ in solvers}
    for k in range(0, len(puzzles), chunk):
        for name, func in solvers:
            for puzzle in puzzles[k:k + chunk]:
                grid, solve_seconds, total_seconds = func(puzzle)
                if not is_solution(grid, puzzle):
                    raise SystemExit(f"{name} returned a wrong grid for {puzzle.source}")
                timed[name][0] += solve_seconds
                timed[name][1] += total_seconds
    return [(name, len(puzzles), t[0], t[1]) for name, t in timed.items()]


def print_solving(rows: list[tuple[str, int, float, float]]) -> None:
    ours_rate = rows[0][1] / rows[0][2]
    print(f"{'solver':<38} {'puzzles':>7} {'seconds':>8} {'puzzles/s':>10} {'ratio':>6}   "
          f"{'build+solve/s':>13} {'ratio':>6}")
    for name, count, solve_seconds, total_seconds in rows:
        rate, total_rate = count / solve_seconds, count / total_seconds
        print(f"{name:<38} {count:>7} {solve_seconds:>8.2f} {rate:>10.0f} {ours_rate / rate:>6.2f}   "
              f"{total_rate:>13.0f} {ours_rate / total_rate:>6.2f}")


def counting() -> None:
    cases = [("empty 4x4", Puzzle.empty(Geometry(2, 2)), 288),
             ("6x6 (2x3), first row 123456", Puzzle(Geometry(2, 3), (1, 2, 3, 4, 5, 6) + (0,) * 30), 39168)]
    version = installed("exact_cover")
    print(f"\n{'count':<30} {'expected':>9} {'satdoku dlx':>12} {'seconds':>8}   {'exact-cover':>12} {'seconds':>8}")
    for label, puzzle, expected in cases:
        start = time.perf_counter()
        got = DlxBackend().count(puzzle)
        ours_seconds = time.perf_counter() - start
        peer, peer_seconds = "-", float("nan")
        if version:
            import exact_cover as ec
            matrix = exact_cover_matrix(puzzle)
            start = time.perf_counter()
            peer = int(ec.get_solution_count(matrix))
            peer_seconds = time.perf_counter() - start
        status = "" if got == expected and peer in (expected, "-") else "  MISMATCH"
        print(f"{label:<30} {expected:>9} {got:>12} {ours_seconds:>8.3f}   {peer:>12} {peer_seconds:>8.3f}{status}")
        if status:
            raise SystemExit(f"count mismatch on {label}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_puzzle_options(parser, "magictour_top1465.txt")
    parser.add_argument("--chunk", type=int, default=25, help="puzzles per solver turn (default 25)")
    args = parser.parse_args()
    puzzles = read_puzzles(args.file)[:args.limit]
    DlxBackend().solve(puzzles[0])  # build the geometry's tables once, outside the timing
    print(f"{Path(args.file).name}: {len(puzzles)} puzzles, solvers interleaved in chunks of {args.chunk}\n")
    print_solving(run_solvers(puzzles, args.chunk))
    counting()


if __name__ == "__main__":
    main()
