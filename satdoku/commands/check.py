"""`satdoku check`: is each puzzle proper? `unique`, `none`, or `multiple` with two solutions.

The backend enumerates at most two solutions; each is verified independently and the two must
differ. Exit code: 0 when every puzzle has exactly one solution, 1 when some puzzle has none or
several (so `satdoku check file && ...` means "all proper"), 2 for bad input, 3 when a time limit
ran out (the verdict reads `unknown (time limit S s reached)`), 4 when a backend misbehaves.
"""
from __future__ import annotations

import argparse
from collections.abc import Iterator

from satdoku.backends.base import Backend
from satdoku.commands.common import (add_backend, add_backend_options, add_format, add_input, add_time_limit,
                                     chosen_backend, load_puzzles)
from satdoku.models.puzzle import Puzzle
from satdoku.output import Report, write_reports
from satdoku.verified import uniqueness

NAME = "check"
HELP = "uniqueness verdict for every puzzle: unique, none, or multiple (with two solutions)"
ORDER = 25


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input(parser)
    add_backend(parser)
    add_format(parser)
    add_time_limit(parser)
    add_backend_options(parser)


def check_reports(backend: Backend, puzzles: list[Puzzle], time_limit: float | None) -> Iterator[Report]:
    """Up to two verified, different solutions per puzzle: the verdict follows from how many."""
    for puzzle in puzzles:
        found = uniqueness(backend, puzzle, time_limit)
        yield Report("check", puzzle, found.status, backend.name, found.seconds, found.grids, limit=2,
                     time_limit=time_limit)


def run(args: argparse.Namespace) -> int:
    puzzles = load_puzzles(args)
    return write_reports(check_reports(chosen_backend(args), puzzles, args.time_limit), args.format)
