"""`satdoku decode`: read a SAT solver's answer to an exported puzzle and print the grid, verified."""
from __future__ import annotations

import argparse
import time

from satdoku.backends.base import Status
from satdoku.commands.common import add_format, add_puzzle_input, one_puzzle
from satdoku.encoders.dimacs import read_answer
from satdoku.fileio import read_text
from satdoku.output import Report, write_reports
from satdoku.verified import decoded_model

NAME = "decode"
HELP = "print the grid a SAT solver's model describes (s/v lines or MiniSat's result file), verified"
ORDER = 45


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_puzzle_input(parser)
    parser.add_argument("model", metavar="MODEL_FILE",
                        help="the solver's answer: SAT-competition 's'/'v' lines or MiniSat's result file")
    add_format(parser)


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    puzzle = one_puzzle(args)
    answer = read_answer(read_text(args.model), args.model)
    status = {"SAT": Status.SOLVED, "UNSAT": Status.NO_SOLUTION}.get(answer.status, Status.UNKNOWN)
    grids = [decoded_model(puzzle, answer.model, args.model)] if status is Status.SOLVED else []
    report = Report("solve", puzzle, status, "decode", time.perf_counter() - start, grids)
    return write_reports([report], args.format)
