"""`satdoku decode`: read a SAT solver's answer to an exported puzzle and print the grid, verified."""
from __future__ import annotations

import argparse
import time

import numpy as np

from satdoku.backends.base import Result, Status
from satdoku.commands.common import EXIT_NO_SOLUTION, EXIT_SOLVED, EXIT_TIME_LIMIT, add_format, render, result_json
from satdoku.commands.export import add_puzzle_input, one_puzzle
from satdoku.encoders.cnf import VarMap
from satdoku.encoders.dimacs import read_answer
from satdoku.errors import SolverError
from satdoku.fileio import read_text
from satdoku.models.matrix import exact_cover
from satdoku.models.puzzle import Grid, Puzzle, cell_name
from satdoku.models.verify import solution_problems

NAME = "decode"
HELP = "print the grid a SAT solver's model describes (s/v lines or MiniSat's result file), verified"
ORDER = 45


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_puzzle_input(parser)
    parser.add_argument("model", metavar="MODEL_FILE",
                        help="the solver's answer: SAT-competition 's'/'v' lines or MiniSat's result file")
    add_format(parser)


def puzzle_varmap(puzzle: Puzzle) -> VarMap:
    """A map that reads only the placements a puzzle leaves open, so it fits units and simplify files alike."""
    matrix = exact_cover(puzzle.geometry)
    reduced = matrix.reduce(puzzle)
    free = np.zeros(matrix.n_options, dtype=bool)
    free[reduced.options] = True
    free[reduced.selected] = False
    return VarMap(matrix, tuple(int(o) for o in reduced.selected), free, matrix.n_options)


def decode_model(puzzle: Puzzle, model: list[int], source: str) -> Grid:
    """The grid a model gives the puzzle; SolverError when it is not a solution."""
    varmap = puzzle_varmap(puzzle)
    options = varmap.true_options(model)
    n = puzzle.n
    cells = options // n
    if len(np.unique(cells)) != len(cells):
        twice = int(np.flatnonzero(np.bincount(cells, minlength=n * n) > 1)[0])
        raise SolverError(f"{source}: the model puts two digits in cell {cell_name(twice, n)}")
    grid = varmap.matrix.grid(options)
    problems = solution_problems(grid, puzzle)
    if problems:
        empty = [cell_name(i, n) for i, v in enumerate(grid) if v == 0]
        reason = f"cell {empty[0]} has no digit in the model" if empty else problems[0]
        raise SolverError(f"{source}: the model is not a solution of the puzzle: {reason}")
    return grid


def run(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    puzzle = one_puzzle(args)
    answer = read_answer(read_text(args.model), args.model)
    if answer.status == "SAT":
        grid: Grid | None = decode_model(puzzle, answer.model, args.model)
        status = Status.SOLVED
    else:
        grid, status = None, Status.NO_SOLUTION if answer.status == "UNSAT" else Status.UNKNOWN
    result = Result(status, grid, "decode", time.perf_counter() - start)
    if args.format == "json":
        print(result_json(puzzle, result))
    elif grid is not None:
        print(render([grid], puzzle, args.format))
    else:
        print(status.value)
    return {Status.SOLVED: EXIT_SOLVED, Status.NO_SOLUTION: EXIT_NO_SOLUTION}.get(status, EXIT_TIME_LIMIT)
