"""`satdoku compare`: run several backends on every puzzle, check that they agree, show who is faster.

Each backend first solves an empty grid of the puzzles' geometry, untimed (imports, tables, start-up);
then the backends take turns puzzle by puzzle, timed by one wall clock around each call. The rules
of agreement are in `satdoku.comparison`. Any disagreement makes the run fail with exit code 4
after the table, naming the puzzle's line and the backends; a time-out is shown in the table and
makes the exit code 3, as everywhere in satdoku.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from satdoku.backends.base import Backend
from satdoku.backends.registry import get_backend
from satdoku.commands.common import add_input, add_time_limit, input_label, load_puzzles, positive_int
from satdoku.comparison import backends_by_names, compare_backends, first_disagreement, summary
from satdoku.errors import EXIT_OK, EXIT_TIME_LIMIT, BackendUnavailable, InputError, SolverError
from satdoku.models.puzzle import Puzzle
from satdoku.output import compare_csv, compare_json, compare_table, write_plot

NAME = "compare"
HELP = "run several backends side by side on every puzzle, verify and check that they agree"
ORDER = 40
DEFAULT_BACKENDS = "pysat,dlx"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input(parser)
    parser.add_argument("--backends", "-B", default=DEFAULT_BACKENDS, metavar="LIST",
                        help=f"comma-separated backend names, such as dlx,pysat:cadical195,cpsat,ilp:cbc,"
                             f"backtrack,logic (default {DEFAULT_BACKENDS})")
    parser.add_argument("--count", action="store_true",
                        help="count solutions (up to --limit) instead of finding one")
    parser.add_argument("--limit", "-n", type=positive_int, metavar="N",
                        help="with --count, stop counting at N solutions")
    add_time_limit(parser, "seconds per puzzle and backend; a puzzle that runs out counts as a time-out")
    parser.add_argument("--format", "-f", choices=("table", "json", "csv"), default="table",
                        help="table (default), json (summary and every puzzle) or csv (the summary)")
    parser.add_argument("--plot", metavar="FILE", help="write a chart of the time per puzzle per backend "
                        "(png, svg or pdf; needs matplotlib: pip install 'satdoku[plot]')")


def check_plot_target(path: str | None) -> None:
    """Fail before any solving when --plot cannot be honoured."""
    if not path:
        return
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise BackendUnavailable("--plot needs the matplotlib package (pip install 'satdoku[plot]')") from None
    folder = Path(path).parent
    if not folder.is_dir():
        raise InputError(f"--plot {path}: folder {str(folder)!r} does not exist")


def progress_bar(total: int):
    """A tqdm bar on stderr when stderr is a terminal and tqdm is installed, else None."""
    if not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="run", file=sys.stderr, leave=False, dynamic_ncols=True)


def headline(n_puzzles: int, args: argparse.Namespace, several: int) -> str:
    """The line above the table: how many puzzles, the mode, the time limit, several solutions."""
    mode = f"count (limit {args.limit})" if args.count and args.limit else "count" if args.count else "solve"
    return (f"{n_puzzles} puzzles, {mode}" + (f", time limit {args.time_limit:g} s" if args.time_limit else "")
            + (f", {several} with several solutions (different grids, all verified)" if several else ""))


def run(args: argparse.Namespace) -> int:
    if args.limit and not args.count:
        raise InputError("--limit needs --count (solving always stops at the first solution)")
    backends = backends_by_names(args.backends, get_backend)
    check_plot_target(args.plot)
    puzzles = load_puzzles(args)
    bar = progress_bar(len(backends) * len(puzzles))

    def advance(backend: Backend, puzzle: Puzzle) -> None:
        bar.set_postfix_str(f"{backend.name} {puzzle.source}", refresh=False)
        bar.update()

    try:
        records = compare_backends(backends, puzzles, args.count, args.limit, args.time_limit,
                                   advance if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    names = [b.name for b in backends]
    rows = summary(names, records, args.count)
    if args.format == "json":
        print(compare_json(rows, records, {"file": input_label(args), "mode": "count" if args.count else "solve",
                                           "limit": args.limit, "time_limit": args.time_limit}))
    elif args.format == "csv":
        print(compare_csv(rows), end="")
    else:
        print(headline(len(puzzles), args, sum(r.several for r in records)))
        print(compare_table(rows, args.count))
    if args.plot:
        write_plot(records, names, args.plot)
    disagreement = first_disagreement(records)
    if disagreement:
        raise SolverError(disagreement)
    timeouts = sum(row["timeouts"] for row in rows)
    if timeouts:
        print(f"satdoku: {timeouts} runs reached the time limit of {args.time_limit:g} s "
              f"(see the time-outs column)", file=sys.stderr)
        return EXIT_TIME_LIMIT
    return EXIT_OK
