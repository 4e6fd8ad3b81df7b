"""`satdoku solve`: solve every puzzle in a file; several solutions when asked."""
from __future__ import annotations

import argparse
from collections.abc import Iterator

from satdoku.backends.base import Backend
from satdoku.commands.common import (add_backend, add_backend_options, add_format, add_input, add_time_limit,
                                     chosen_backend, load_puzzles, positive_int)
from satdoku.models.puzzle import Puzzle
from satdoku.output import Report, write_reports
from satdoku.verified import verified_solutions, verified_solve_many

NAME = "solve"
HELP = "solve puzzles (every puzzle in FILE), verified independently"
ORDER = 10


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input(parser)
    add_backend(parser)
    add_format(parser)
    many = parser.add_mutually_exclusive_group()
    many.add_argument("--limit", "-n", type=positive_int, metavar="N", help="up to N solutions per puzzle")
    many.add_argument("--all", "-a", action="store_true", help="every solution of every puzzle")
    add_time_limit(parser, "seconds per puzzle (with --all or --limit: for all of its solutions)")
    parser.add_argument("--jobs", "-j", type=positive_int, default=1, metavar="N",
                        help="solve in N processes; output stays in input order (default 1)")
    add_backend_options(parser)


def solved_reports(backend: Backend, puzzles: list[Puzzle], args: argparse.Namespace) -> Iterator[Report]:
    """One verified solution (or none) per puzzle."""
    for puzzle, result in verified_solve_many(backend, puzzles, args.time_limit, args.jobs):
        yield Report("solve", puzzle, result.status, result.backend, result.seconds,
                     [result.grid] if result.grid is not None else [], time_limit=args.time_limit,
                     explanation=list(result.stats.get("explanation", [])))


def enumerated_reports(backend: Backend, puzzles: list[Puzzle], limit: int | None,
                       time_limit: float | None) -> Iterator[Report]:
    """Up to `limit` verified solutions per puzzle (all of them when None)."""
    for puzzle in puzzles:
        found = verified_solutions(backend, puzzle, limit, time_limit)
        yield Report("solutions", puzzle, found.status, backend.name, found.seconds, found.grids,
                     limit=limit, time_limit=time_limit)


def run(args: argparse.Namespace) -> int:
    puzzles = load_puzzles(args)
    backend = chosen_backend(args)
    if args.all or args.limit:
        reports = enumerated_reports(backend, puzzles, None if args.all else args.limit, args.time_limit)
    else:
        reports = solved_reports(backend, puzzles, args)
    return write_reports(reports, args.format)
