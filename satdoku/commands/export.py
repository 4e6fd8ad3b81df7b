"""`satdoku export`: a puzzle as DIMACS CNF (for any SAT solver), a CP-SAT model, an LP / MPS file, or as a
puzzle again: f-puzzles JSON, an f-puzzles link, or satdoku's text form."""
from __future__ import annotations

import argparse
import importlib

from satdoku.commands.common import add_puzzle_input, one_puzzle
from satdoku.encoders.cnf import AMO_KINDS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS
from satdoku.encoders.dimacs import DIMACS_GIVENS, dimacs_for
from satdoku.errors import BackendUnavailable, InputError
from satdoku.fileio import atomic_write
from satdoku.models.formats import to_text_form
from satdoku.models.fpuzzles import to_fpuzzles, to_fpuzzles_link
from satdoku.models.puzzle import Puzzle

NAME = "export"
HELP = "write a puzzle as DIMACS CNF, a CP-SAT model, an LP/MPS file, f-puzzles JSON or link, or text"
ORDER = 40


def _link_line(puzzle: Puzzle) -> str:
    """An f-puzzles link on a line of its own."""
    return to_fpuzzles_link(puzzle) + "\n"


PUZZLE_TARGETS = {"fpuzzles": to_fpuzzles, "fpuzzles-link": _link_line, "text": to_text_form}
TARGETS = ("dimacs", "cpsat", "lp", "mps") + tuple(PUZZLE_TARGETS)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_puzzle_input(parser)
    parser.add_argument("--to", choices=TARGETS, default="dimacs", help="output format (default dimacs)")
    parser.add_argument("--output", "-o", default="-", metavar="FILE",
                        help="output file, written whole or not at all; .gz compresses (default stdout)")
    sat = parser.add_argument_group("DIMACS options")
    sat.add_argument("--encoding", choices=ENCODINGS, help=f"CNF encoding (default {DEFAULT_ENCODING})")
    sat.add_argument("--amo", choices=[a for a in AMO_KINDS if a != "native"],
                     help=f"at-most-one encoding (default {DEFAULT_AMO})")
    sat.add_argument("--givens", choices=DIMACS_GIVENS,
                     help="givens as unit clauses, or simplified away (Kwon & Jain) (default units)")
    sat.add_argument("--names", action="store_true", help="a 'c name V rRcC=D' comment per placement variable")


def _model_exporter(module_name: str, target: str):
    """export_model from an encoder module, imported only now."""
    try:
        module = importlib.import_module(module_name)
        return module.export_model
    except (ImportError, AttributeError) as err:
        raise BackendUnavailable(f"export to {target} is not available here ({err})") from None


def _check_sat_options(args: argparse.Namespace) -> None:
    changed = [f"--{k}" for k in ("encoding", "amo", "givens", "names") if getattr(args, k) not in (None, False)]
    if changed:
        raise InputError(f"{', '.join(changed)}: DIMACS options, they do not apply to --to {args.to}")


def run(args: argparse.Namespace) -> int:
    puzzle = one_puzzle(args)
    if args.to == "dimacs":
        dimacs, _ = dimacs_for(puzzle, args.encoding or DEFAULT_ENCODING, args.amo or DEFAULT_AMO,
                               args.givens or "units", args.names)
        atomic_write(args.output, dimacs.to_text())
        return 0
    _check_sat_options(args)
    if args.to in PUZZLE_TARGETS:
        atomic_write(args.output, PUZZLE_TARGETS[args.to](puzzle))
    elif args.to == "cpsat":
        _model_exporter("satdoku.encoders.cpsat", "cpsat")(puzzle, args.output)
    else:
        _model_exporter("satdoku.encoders.ilp", args.to)(puzzle, args.output, args.to)
    return 0
