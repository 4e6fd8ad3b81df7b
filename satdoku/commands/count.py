"""`satdoku count`: the number of solutions of every puzzle, through a backend's counting.

One line per puzzle, in input order: the count, or `>= N` when `--limit N` stopped the count, or
`>= N (time limit S s reached)`. Exit code: 0 when every puzzle has at least one solution, 1 when
some puzzle has none (its line says 0), 2 for bad input, 3 when a time limit ran out, 4 when a
backend misbehaves. A count with no limit runs to the end: give `--limit` or `--time-limit` for
puzzles with many solutions (an empty 9x9 has 6.67e21).
"""
from __future__ import annotations

import argparse
from collections.abc import Iterator

from satdoku.backends.base import Backend, Status
from satdoku.commands.common import (add_backend, add_backend_options, add_format, add_input, add_time_limit,
                                     chosen_backend, load_puzzles, positive_int)
from satdoku.models.puzzle import Puzzle
from satdoku.output import Report, write_reports
from satdoku.verified import checked_count

NAME = "count"
HELP = "count the solutions of every puzzle (up to --limit), through any backend"
ORDER = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input(parser)
    add_backend(parser)
    parser.add_argument("--limit", "-n", type=positive_int, metavar="N",
                        help="stop at N solutions and print '>= N'")
    add_time_limit(parser, "seconds per puzzle; a count cut short prints '>= N (time limit S s reached)'")
    add_format(parser, ("line", "json"))
    add_backend_options(parser)


def count_reports(backend: Backend, puzzles: list[Puzzle], limit: int | None,
                  time_limit: float | None) -> Iterator[Report]:
    """One count per puzzle."""
    for puzzle in puzzles:
        count = checked_count(backend, puzzle, limit, time_limit)
        status = Status.UNKNOWN if count.timed_out else Status.SOLVED if count.found else Status.NO_SOLUTION
        yield Report("count", puzzle, status, backend.name, count.seconds, count=count.found, limit=limit,
                     time_limit=time_limit)


def run(args: argparse.Namespace) -> int:
    puzzles = load_puzzles(args)
    backend = chosen_backend(args)
    return write_reports(count_reports(backend, puzzles, args.limit, args.time_limit), args.format)
