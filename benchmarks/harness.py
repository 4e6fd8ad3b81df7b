"""What every benchmark shares: this checkout on sys.path, the shared puzzles, common options, timing, tables.

A benchmark imports it before anything from satdoku, so that `satdoku` (and the reference code in
`tests.reference`) come from this checkout rather than from an installed copy:

    import harness  # first: puts the repo root on sys.path
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

REPO = Path(__file__).resolve().parent.parent
SHARED_PUZZLES = REPO.parent / "shared" / "puzzles"      # the benchmark sets, laid beside the repo

T = TypeVar("T")


def use_this_checkout() -> None:
    """Put the repo root first on sys.path, once."""
    if sys.path[:1] != [str(REPO)]:
        sys.path.insert(0, str(REPO))


def add_puzzle_options(parser: argparse.ArgumentParser, default_file: str,
                       limit_help: str | None = "first N puzzles only") -> None:
    """--file (default: a set in the shared puzzles folder) and, unless limit_help is None, --limit N."""
    parser.add_argument("--file", default=str(SHARED_PUZZLES / default_file),
                        help=f"puzzle file (default {Path(default_file).stem})")
    if limit_help is not None:
        parser.add_argument("--limit", type=int, default=None, help=limit_help)


def add_repeat_option(parser: argparse.ArgumentParser, help_text: str = "best of N runs") -> None:
    """--repeat N: how many runs a timing takes the best of."""
    parser.add_argument("--repeat", type=int, default=1, help=help_text)


def best_of(repeat: int, run: Callable[[], T]) -> tuple[float, T]:
    """The least wall time of `repeat` calls of run (at least one), and the last call's result."""
    best = float("inf")
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def print_table(rows: Sequence[Sequence[str]], left: int = 1) -> None:
    """Rows of text in aligned columns, the first `left` columns to the left, a rule under the header."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for k, row in enumerate(rows):
        print("  ".join(cell.ljust(w) if i < left else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))))
        if k == 0:
            print("  ".join("-" * w for w in widths))


use_this_checkout()
