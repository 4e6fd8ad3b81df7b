"""Arguments and output shared by the subcommands."""
from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from satdoku.backends.base import Result, Status
from satdoku.errors import InputError, SatdokuError, SolverError
from satdoku.models.formats import STYLES, format_cells, format_line, read_puzzles
from satdoku.models.geometry import Geometry, parse_box
from satdoku.models.puzzle import Grid, Puzzle
from satdoku.models.verify import solution_problems

EXIT_SOLVED, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_TIME_LIMIT = 0, 1, 2, 3


def positive_float(text: str) -> float:
    """argparse type: a number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be above zero")
    return value


def positive_int(text: str) -> int:
    """argparse type: a count of at least one."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def add_input(parser: argparse.ArgumentParser) -> None:
    """FILE (or '-' for stdin) and --box."""
    parser.add_argument("file", nargs="?", default="-", metavar="FILE",
                        help="puzzle file, one puzzle per line or drawn grids; '-' or none for stdin")
    parser.add_argument("--box", metavar="RxC", help="box shape, such as 2x4 (default: the squarest)")


def add_backend(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", "-b", default=None, metavar="NAME",
                        help="backend: pysat[:solver], external:PROGRAM, cpsat, ilp:cbc, dlx, ... "
                             "(default pysat; see `satdoku backends`)")


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    """Options that some backend families take; passing one to a family without it is an error."""
    group = parser.add_argument_group("backend options")
    group.add_argument("--encoding", choices=("minimal", "efficient", "extended"),
                       help="CNF encoding (pysat, external; default extended)")
    group.add_argument("--amo", choices=("pairwise", "seqcounter", "bitwise", "ladder", "native"),
                       help="at-most-one encoding (pysat; default pairwise; native needs pysat:minicard)")
    group.add_argument("--givens", choices=("auto", "assumptions", "units", "simplify"),
                       help="how givens reach the solver (pysat; default auto: one reused solver with "
                            "assumptions up to 16x16, simplified away above)")
    group.add_argument("--workers", type=positive_int, metavar="N", help="CP-SAT search workers (default 1)")
    group.add_argument("--explain", action="store_true", help="print each logical step (logic backend)")


def backend_options(args: argparse.Namespace) -> dict:
    """The backend options given on the command line, as keyword arguments for get_backend."""
    names = ("encoding", "amo", "givens", "workers", "explain")
    return {k: getattr(args, k) for k in names if getattr(args, k, None) not in (None, False)}


def add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", "-f", choices=STYLES, default="line", help="output style (default line)")


def load_puzzles(args: argparse.Namespace) -> list[Puzzle]:
    """The puzzles named by FILE and --box; every input error is raised before any output."""
    box: Geometry | None = parse_box(args.box) if getattr(args, "box", None) else None
    return read_puzzles(args.file, box)


def checked(grid: Grid, puzzle: Puzzle, backend: str) -> Grid:
    """The grid, after the independent verifier has accepted it; SolverError otherwise."""
    problems = solution_problems(grid, puzzle)
    if problems:
        raise SolverError(f"{puzzle.where}backend {backend} returned a wrong grid: {problems[0]}")
    return grid


def verified_solutions(backend, puzzle: Puzzle, limit: int | None) -> list[Grid]:
    """Up to `limit` solutions from the backend, each verified, all different; SolverError otherwise."""
    grids = [checked(g, puzzle, backend.name) for g in backend.solutions(puzzle, limit)]
    if limit is not None and len(grids) > limit:
        raise SolverError(f"{puzzle.where}backend {backend.name} returned {len(grids)} solutions "
                          f"for a limit of {limit}")
    if len(set(grids)) != len(grids):
        raise SolverError(f"{puzzle.where}backend {backend.name} returned the same solution twice")
    return grids


def status_code(statuses: Sequence[Status]) -> int:
    """The exit code of a run: 3 if any time limit ran out, 1 if any puzzle had no solution."""
    if Status.UNKNOWN in statuses:
        return EXIT_TIME_LIMIT
    if Status.NO_SOLUTION in statuses:
        return EXIT_NO_SOLUTION
    return EXIT_SOLVED


def status_text(result: Result, time_limit: float | None) -> str:
    if result.status is Status.UNKNOWN:
        return f"unknown (time limit {time_limit:g} s reached)" if time_limit else "unknown"
    return result.status.value


def geometry_json(puzzle: Puzzle) -> dict:
    g = puzzle.geometry
    return {"n": g.n, "box_rows": g.box_rows, "box_cols": g.box_cols}


def result_json(puzzle: Puzzle, result: Result, solutions: Sequence[Grid] | None = None) -> str:
    """One JSON line for a puzzle and what the backend found."""
    record: dict = {"source": puzzle.source, "geometry": geometry_json(puzzle),
                    "puzzle": format_line(puzzle.cells, puzzle), "givens": puzzle.n_givens,
                    "status": result.status.value, "backend": result.backend,
                    "time": round(result.seconds, 6)}
    if solutions is None:
        record["solution"] = format_line(result.grid, puzzle) if result.grid else None
    else:
        record["solutions"] = [format_line(g, puzzle) for g in solutions]
        record["count"] = len(solutions)
    if result.stats.get("explanation"):
        record["explanation"] = list(result.stats["explanation"])
    return json.dumps(record)


def render(grids: Sequence[Grid], puzzle: Puzzle, style: str) -> str:
    """Several grids in a text style, drawn grids separated by blank lines."""
    sep = "\n\n" if style == "grid" else "\n"
    return sep.join(format_cells(g, puzzle, style) for g in grids)


__all__ = ["InputError", "SatdokuError"]
