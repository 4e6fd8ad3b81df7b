"""`satdoku check`: is each puzzle proper? `unique`, `none`, or `multiple` with two solutions.

The backend enumerates at most two solutions; each is verified independently and the two must
differ. Exit code: 0 when every puzzle has exactly one solution, 1 when some puzzle has none or
several (so `satdoku check file && ...` means "all proper"), 2 for bad input, 3 when a time limit
ran out (the verdict reads `unknown (time limit S s reached)`), 4 when a backend misbehaves.
"""
from __future__ import annotations

import argparse
from collections.abc import Iterator

from satdoku.backends.base import Backend, Status
from satdoku.batch import Entry
from satdoku.commands.common import (add_backend, add_backend_options, add_format, add_input, add_output,
                                     add_time_limit, chosen_backend, load_entries)
from satdoku.fileio import atomic_output
from satdoku.output import Report, write_reports
from satdoku.verified import uniqueness

NAME = "check"
HELP = "uniqueness verdict for every puzzle: unique, none, or multiple (with two solutions)"
ORDER = 25


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input(parser)
    add_backend(parser)
    add_format(parser)
    add_output(parser)
    add_time_limit(parser)
    add_backend_options(parser)


def check_reports(backend: Backend, entries: Iterator[Entry], time_limit: float | None) -> Iterator[Report]:
    """Up to two verified, different solutions per puzzle, streamed: the verdict follows from how many; a line
    that is not a puzzle is an invalid Report in its place."""
    for entry in entries:
        if entry.puzzle is None:
            yield Report("check", None, Status.UNKNOWN, "", 0.0, entry=entry)
            continue
        found = uniqueness(backend, entry.puzzle, time_limit)
        yield Report("check", entry.puzzle, found.status, backend.name, found.seconds, found.grids, limit=2,
                     time_limit=time_limit, entry=entry)


def run(args: argparse.Namespace) -> int:
    entries = load_entries(args)
    backend = chosen_backend(args)
    with atomic_output(args.output) as out:
        return write_reports(check_reports(backend, entries, args.time_limit), args.format, out)
