"""`satdoku solve`: solve every puzzle in a file; several solutions when asked."""
from __future__ import annotations

import argparse
from collections.abc import Iterator

from satdoku.backends.base import Backend, Status
from satdoku.batch import Entry, solve_entries
from satdoku.commands.common import (add_backend, add_backend_options, add_format, add_input, add_output,
                                     add_time_limit, chosen_backend, load_entries, positive_int)
from satdoku.fileio import atomic_output
from satdoku.output import BATCH_STYLES, Report, write_reports
from satdoku.verified import verified_solutions

NAME = "solve"
HELP = "solve puzzles (every puzzle in FILE), verified independently"
ORDER = 10


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input(parser)
    add_backend(parser)
    add_format(parser, BATCH_STYLES)
    add_output(parser)
    many = parser.add_mutually_exclusive_group()
    many.add_argument("--limit", "-n", type=positive_int, metavar="N", help="up to N solutions per puzzle")
    many.add_argument("--all", "-a", action="store_true", help="every solution of every puzzle")
    add_time_limit(parser, "seconds per puzzle (with --all or --limit: for all of its solutions)")
    parser.add_argument("--jobs", "-j", type=positive_int, default=1, metavar="N",
                        help="solve in N processes; output stays in input order (default 1)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="solve on a Dask cluster: the scheduler's address, such as tcp://10.0.0.5:8786 "
                             "(pip install 'satdoku[cluster]'); output stays in input order")
    add_backend_options(parser)


def invalid_report(kind: str, entry: Entry) -> Report:
    """The Report of a line that is not a puzzle."""
    return Report(kind, None, Status.UNKNOWN, "", 0.0, entry=entry)


def solved_reports(backend: Backend, entries: Iterator[Entry], args: argparse.Namespace) -> Iterator[Report]:
    """One verified solution (or none) per entry, streamed in input order."""
    for entry, result in solve_entries(backend, entries, args.time_limit, args.jobs, cluster=args.cluster):
        if result is None:
            yield invalid_report("solve", entry)
            continue
        yield Report("solve", entry.puzzle, result.status, result.backend, result.seconds,
                     [result.grid] if result.grid is not None else [], time_limit=args.time_limit,
                     explanation=list(result.stats.get("explanation", [])), entry=entry)


def enumerated_reports(backend: Backend, entries: Iterator[Entry], limit: int | None,
                       time_limit: float | None) -> Iterator[Report]:
    """Up to `limit` verified solutions per puzzle (all of them when None)."""
    for entry in entries:
        if entry.puzzle is None:
            yield invalid_report("solutions", entry)
            continue
        found = verified_solutions(backend, entry.puzzle, limit, time_limit)
        yield Report("solutions", entry.puzzle, found.status, backend.name, found.seconds, found.grids,
                     limit=limit, time_limit=time_limit, entry=entry)


def run(args: argparse.Namespace) -> int:
    entries = load_entries(args)
    backend = chosen_backend(args)
    if args.all or args.limit:
        reports = enumerated_reports(backend, entries, None if args.all else args.limit, args.time_limit)
    else:
        reports = solved_reports(backend, entries, args)
    with atomic_output(args.output) as out:
        return write_reports(reports, args.format, out)
