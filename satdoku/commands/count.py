"""`satdoku count`: the number of solutions of every puzzle, through a backend's counting.

One line per puzzle, in input order: the count, or `>= N` when `--limit N` stopped the count.
Exit code: 0 when every puzzle has at least one solution, 1 when some puzzle has none (its line
says 0), 2 for bad input, 4 when a backend misbehaves. A count with no limit runs to the end:
give `--limit` for puzzles with many solutions (an empty 9x9 has 6.67e21).
"""
from __future__ import annotations

import argparse
import json
import time

from satdoku.backends.base import Backend
from satdoku.backends.registry import get_backend
from satdoku.commands.common import (EXIT_NO_SOLUTION, EXIT_SOLVED, add_backend, add_backend_options,
                                     add_input, backend_options, geometry_json, load_puzzles, positive_int)
from satdoku.errors import SolverError
from satdoku.models.formats import format_line
from satdoku.models.puzzle import Puzzle

NAME = "count"
HELP = "count the solutions of every puzzle (up to --limit), through any backend"
ORDER = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input(parser)
    add_backend(parser)
    parser.add_argument("--limit", "-n", type=positive_int, metavar="N",
                        help="stop at N solutions and print '>= N'")
    parser.add_argument("--format", "-f", choices=("line", "json"), default="line",
                        help="line: the count alone (default); json: one object per puzzle")
    add_backend_options(parser)


def count_solutions(backend: Backend, puzzle: Puzzle, limit: int | None) -> int:
    """The backend's count, capped at `limit`; SolverError when the backend overshoots the cap."""
    found = backend.count(puzzle, limit)
    if found < 0 or (limit is not None and found > limit):
        raise SolverError(f"{puzzle.where}backend {backend.name} counted {found} with a limit of {limit}")
    return found


def count_text(found: int, limit: int | None) -> str:
    """How a count reads: the number, or '>= N' when the limit was reached.

    >>> count_text(288, None), count_text(10, 10), count_text(3, 10)
    ('288', '>= 10', '3')
    """
    return f">= {found}" if limit is not None and found >= limit else str(found)


def count_json(puzzle: Puzzle, found: int, limit: int | None, backend: str, seconds: float) -> str:
    """One JSON line: the puzzle, its count, whether the count is exact or stopped at the limit."""
    return json.dumps({"source": puzzle.source, "geometry": geometry_json(puzzle),
                       "puzzle": format_line(puzzle.cells, puzzle), "givens": puzzle.n_givens,
                       "count": found, "exact": limit is None or found < limit, "limit": limit,
                       "backend": backend, "time": round(seconds, 6)})


def run(args: argparse.Namespace) -> int:
    puzzles = load_puzzles(args)
    backend = get_backend(args.backend, **backend_options(args))
    code = EXIT_SOLVED
    for puzzle in puzzles:
        start = time.perf_counter()
        found = count_solutions(backend, puzzle, args.limit)
        seconds = time.perf_counter() - start
        if found == 0:
            code = EXIT_NO_SOLUTION
        if args.format == "json":
            print(count_json(puzzle, found, args.limit, backend.name, seconds), flush=True)
        else:
            print(count_text(found, args.limit), flush=True)
    return code
