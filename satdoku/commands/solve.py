"""`satdoku solve`: solve every puzzle in a file; several solutions when asked."""
from __future__ import annotations

import argparse
import sys
import time

from satdoku.backends.base import Result, Status
from satdoku.backends.registry import get_backend
from satdoku.commands.common import (add_backend, add_backend_options, add_format, add_input,
                                     backend_options, checked, load_puzzles, positive_float,
                                     positive_int, render, result_json, status_code, status_text,
                                     verified_solutions)

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
    parser.add_argument("--time-limit", "-t", type=positive_float, metavar="S", help="seconds per puzzle")
    parser.add_argument("--jobs", "-j", type=positive_int, default=1, metavar="N",
                        help="solve in N processes; output stays in input order (default 1)")
    add_backend_options(parser)


def _print(text: str, style: str, first: bool) -> None:
    if style == "grid" and not first:
        print()
    print(text, flush=True)


def _enumerate(backend, puzzle, limit):
    start = time.perf_counter()
    grids = verified_solutions(backend, puzzle, limit)
    status = Status.SOLVED if grids else Status.NO_SOLUTION
    return Result(status, grids[0] if grids else None, backend.name, time.perf_counter() - start), grids


def _results(backend, puzzles, args):
    if args.jobs > 1 and len(puzzles) > 1:
        from satdoku.parallel import solve_in_processes
        return solve_in_processes(backend.name, backend.settings, puzzles, args.time_limit, args.jobs)
    return backend.solve_many(puzzles, args.time_limit)


def run(args: argparse.Namespace) -> int:
    puzzles = load_puzzles(args)
    backend = get_backend(args.backend, **backend_options(args))
    statuses = []
    if args.all or args.limit:
        for k, puzzle in enumerate(puzzles):
            result, grids = _enumerate(backend, puzzle, None if args.all else args.limit)
            statuses.append(result.status)
            if args.format == "json":
                _print(result_json(puzzle, result, grids), "json", k == 0)
            else:
                _print(render(grids, puzzle, args.format) if grids else "no solution", args.format, k == 0)
        return status_code(statuses)
    for k, (puzzle, result) in enumerate(zip(puzzles, _results(backend, puzzles, args))):
        if result.grid is not None:
            checked(result.grid, puzzle, backend.name)
        statuses.append(result.status)
        if args.format != "json":
            for step in result.stats.get("explanation", []):
                print(step)
        if args.format == "json":
            _print(result_json(puzzle, result), "json", k == 0)
        elif result.solved:
            _print(render([result.grid], puzzle, args.format), args.format, k == 0)
        else:
            _print(status_text(result, args.time_limit), args.format, k == 0)
            if result.status is Status.UNKNOWN:
                print(f"satdoku: {puzzle.where}time limit of {args.time_limit:g} s reached", file=sys.stderr)
    return status_code(statuses)
