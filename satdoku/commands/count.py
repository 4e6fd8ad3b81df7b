"""`satdoku count`: the number of solutions of every puzzle, through a backend's counting.

One line per puzzle, in input order: the count, or `>= N` when `--limit N` stopped the count, or
`>= N (time limit S s reached)`. An empty grid of a shape `satdoku grids` counts is answered with
that exact figure at once, unless a backend is named with `-b` (which then enumerates: the way to
cross-check the two). A progress line is drawn on stderr when it is a terminal; Ctrl-C prints the
count so far. Exit code: 0 when every puzzle has at least one solution, 1 when some puzzle has none
(its line says 0), 2 for bad input, 3 when a time limit ran out, 4 when a backend misbehaves, 130
on Ctrl-C. Without a limit a count runs to the end: give `--limit` or `--time-limit` for puzzles
with many solutions (an empty 9x9 has 6.67e21).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from satdoku.backends.base import Backend, Status
from satdoku.commands.common import (add_backend, add_backend_options, add_format, add_input, add_time_limit,
                                     chosen_backend, load_puzzles, positive_int)
from satdoku.deadline import Deadline
from satdoku.errors import EXIT_INTERRUPTED, Interrupted
from satdoku.models.puzzle import Puzzle
from satdoku.output import ProgressLine, Report, write_reports
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


def grids_report(puzzle: Puzzle, limit: int | None) -> Report | None:
    """The count of an empty grid from `satdoku grids`, when that shape is counted there; else None."""
    if puzzle.n_givens or not puzzle.geometry.is_classic:
        return None
    from satdoku.counting.grids import known_count
    known = known_count(puzzle.geometry)
    if known is None:
        return None
    found = known.count if limit is None else min(known.count, limit)
    return Report("count", puzzle, Status.SOLVED, f"grids ({known.method})", known.seconds, count=found, limit=limit)


def count_reports(backend: Backend, puzzles: list[Puzzle], limit: int | None, time_limit: float | None,
                  shortcut: bool = False) -> Iterator[Report]:
    """One count per puzzle; with `shortcut`, empty grids of known shapes from `satdoku grids`."""
    for puzzle in puzzles:
        known = grids_report(puzzle, limit) if shortcut else None
        if known is not None:
            yield known
            continue
        progress = ProgressLine(f"counting {puzzle.source or 'puzzle'}", sys.stderr) if sys.stderr.isatty() else None
        try:
            count = checked_count(backend, puzzle, limit, Deadline(time_limit, progress))
        finally:
            if progress is not None:
                progress.close()
        yield Report("count", puzzle, count.status, backend.name, count.seconds, count=count.found, limit=limit,
                     time_limit=time_limit)


def run(args: argparse.Namespace) -> int:
    puzzles = load_puzzles(args)
    backend = chosen_backend(args)
    try:
        return write_reports(count_reports(backend, puzzles, args.limit, args.time_limit, args.backend is None),
                             args.format)
    except Interrupted as stop:
        print(f"satdoku: interrupted: >= {stop.found:,} solutions counted so far", file=sys.stderr)
        return EXIT_INTERRUPTED
