"""`satdoku check`: is each puzzle proper? `unique`, `none`, or `multiple` with two solutions.

The backend enumerates at most two solutions; each is verified independently and the two must
differ. Exit code: 0 when every puzzle has exactly one solution, 1 when some puzzle has none or
several (so `satdoku check file && ...` means "all proper"), 2 for bad input, 4 when a backend
misbehaves.
"""
from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence

from satdoku.backends.base import Backend
from satdoku.backends.registry import get_backend
from satdoku.commands.common import (EXIT_NO_SOLUTION, EXIT_SOLVED, add_backend, add_backend_options,
                                     add_format, add_input, backend_options, geometry_json,
                                     load_puzzles, render, verified_solutions)
from satdoku.models.formats import format_line
from satdoku.models.puzzle import Grid, Puzzle, cell_name

NAME = "check"
HELP = "uniqueness verdict for every puzzle: unique, none, or multiple (with two solutions)"
ORDER = 25
VERDICTS = ("none", "unique", "multiple")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input(parser)
    add_backend(parser)
    add_format(parser)
    add_backend_options(parser)


def first_two(backend: Backend, puzzle: Puzzle) -> list[Grid]:
    """Up to two solutions from the backend, both verified and different."""
    return verified_solutions(backend, puzzle, 2)


def verdict(grids: Sequence[Grid]) -> str:
    """The verdict for the solutions found with a limit of two.

    >>> verdict([]), verdict([(1,)]), verdict([(1,), (2,)])
    ('none', 'unique', 'multiple')
    """
    return VERDICTS[len(grids)]


def differing_cells(grids: Sequence[Grid], n: int) -> list[str]:
    """The cells where two solutions differ, as r1c1 names.

    >>> differing_cells([(1, 2, 2, 1), (2, 1, 1, 2)], 2)
    ['r1c1', 'r1c2', 'r2c1', 'r2c2']
    """
    if len(grids) < 2:
        return []
    return [cell_name(i, n) for i, (a, b) in enumerate(zip(grids[0], grids[1])) if a != b]


def check_json(puzzle: Puzzle, grids: Sequence[Grid], backend: str, seconds: float) -> str:
    """One JSON line: the verdict, the solutions found (0, 1 or 2) and where two of them differ."""
    return json.dumps({"source": puzzle.source, "geometry": geometry_json(puzzle),
                       "puzzle": format_line(puzzle.cells, puzzle), "givens": puzzle.n_givens,
                       "verdict": verdict(grids), "solutions": [format_line(g, puzzle) for g in grids],
                       "differ": differing_cells(grids, puzzle.n), "backend": backend,
                       "time": round(seconds, 6)})


def check_text(puzzle: Puzzle, grids: Sequence[Grid], style: str) -> str:
    """The verdict in the line or grid style; the solutions follow `unique` and `multiple`."""
    word = verdict(grids)
    if style == "line":
        return " ".join([word] + [format_line(g, puzzle) for g in grids])
    if word == "multiple":
        differ = differing_cells(grids, puzzle.n)
        word = f"multiple: two solutions that differ in {len(differ)} cells ({' '.join(differ)})"
    return word if not grids else f"{word}\n{render(grids, puzzle, style)}"


def run(args: argparse.Namespace) -> int:
    puzzles = load_puzzles(args)
    backend = get_backend(args.backend, **backend_options(args))
    code = EXIT_SOLVED
    for k, puzzle in enumerate(puzzles):
        start = time.perf_counter()
        grids = first_two(backend, puzzle)
        seconds = time.perf_counter() - start
        if len(grids) != 1:
            code = EXIT_NO_SOLUTION
        if args.format == "json":
            print(check_json(puzzle, grids, backend.name, seconds), flush=True)
        else:
            if args.format == "grid" and k:
                print()
            print(check_text(puzzle, grids, args.format), flush=True)
    return code
