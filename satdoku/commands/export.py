"""`satdoku export`: a puzzle as DIMACS CNF (for any SAT solver), a CP-SAT model, or an LP / MPS file."""
from __future__ import annotations

import argparse
import importlib

from satdoku.commands.common import load_puzzles, positive_int
from satdoku.encoders.cnf import AMO_KINDS, ENCODINGS
from satdoku.encoders.dimacs import DIMACS_GIVENS, dimacs_for
from satdoku.errors import BackendUnavailable, InputError
from satdoku.fileio import atomic_write
from satdoku.models.puzzle import Puzzle

NAME = "export"
HELP = "write a puzzle as DIMACS CNF, a CP-SAT model, or an LP/MPS file for other solvers"
ORDER = 40
TARGETS = ("dimacs", "cpsat", "lp", "mps")


def add_puzzle_input(parser: argparse.ArgumentParser) -> None:
    """PUZZLE (a file, '-' for stdin), --box and --index: the one puzzle a command works on."""
    parser.add_argument("file", metavar="PUZZLE", help="puzzle file ('-' for stdin)")
    parser.add_argument("--box", metavar="RxC", help="box shape, such as 2x4 (default: the squarest)")
    parser.add_argument("--index", "-k", type=positive_int, metavar="K",
                        help="which puzzle of a file holding several (1-based)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_puzzle_input(parser)
    parser.add_argument("--to", choices=TARGETS, default="dimacs", help="output format (default dimacs)")
    parser.add_argument("--output", "-o", default="-", metavar="FILE",
                        help="output file, written whole or not at all; .gz compresses (default stdout)")
    sat = parser.add_argument_group("DIMACS options")
    sat.add_argument("--encoding", choices=ENCODINGS, default="extended", help="CNF encoding (default extended)")
    sat.add_argument("--amo", choices=[a for a in AMO_KINDS if a != "native"], default="pairwise",
                     help="at-most-one encoding (default pairwise)")
    sat.add_argument("--givens", choices=DIMACS_GIVENS, default="units",
                     help="givens as unit clauses, or simplified away (Kwon & Jain) (default units)")
    sat.add_argument("--names", action="store_true", help="a 'c name V rRcC=D' comment per placement variable")


def one_puzzle(args: argparse.Namespace) -> Puzzle:
    """The puzzle FILE and --index name; a file with several puzzles needs --index."""
    puzzles = load_puzzles(args)
    where = "stdin" if args.file == "-" else args.file
    if args.index is not None:
        if args.index > len(puzzles):
            raise InputError(f"{where}: --index {args.index}, but the file holds {len(puzzles)} puzzle(s)")
        return puzzles[args.index - 1]
    if len(puzzles) > 1:
        raise InputError(f"{where} holds {len(puzzles)} puzzles; choose one with --index K")
    return puzzles[0]


def _model_exporter(module_name: str, target: str):
    """export_model from an encoder module, imported only now."""
    try:
        module = importlib.import_module(module_name)
        return module.export_model
    except (ImportError, AttributeError) as err:
        raise BackendUnavailable(f"export to {target} is not available here ({err})") from None


def _check_sat_options(args: argparse.Namespace, parser_defaults: dict) -> None:
    changed = [f"--{k}" for k in ("encoding", "amo", "givens", "names")
               if getattr(args, k) != parser_defaults[k]]
    if changed:
        raise InputError(f"{', '.join(changed)}: DIMACS options, they do not apply to --to {args.to}")


def run(args: argparse.Namespace) -> int:
    puzzle = one_puzzle(args)
    if args.to == "dimacs":
        dimacs, _ = dimacs_for(puzzle, args.encoding, args.amo, args.givens, args.names)
        atomic_write(args.output, dimacs.to_text())
        return 0
    _check_sat_options(args, {"encoding": "extended", "amo": "pairwise", "givens": "units", "names": False})
    if args.to == "cpsat":
        _model_exporter("satdoku.encoders.cpsat", "cpsat")(puzzle, args.output)
    else:
        _model_exporter("satdoku.encoders.ilp", args.to)(puzzle, args.output, args.to)
    return 0
