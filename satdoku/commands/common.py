"""Arguments shared by the subcommands: input, backend and its options, output style, numbers."""
from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from satdoku.backends.base import Backend
from satdoku.batch import Entry, iter_entries
from satdoku.backends.options import BACKEND_OPTIONS
from satdoku.backends.registry import get_backend
from satdoku.deadline import MAX_TIME_LIMIT, valid_time_limit
from satdoku.errors import InputError
from satdoku.models.formats import parse_rules, read_puzzles
from satdoku.models.geometry import NAMED_RULES, Geometry, parse_box
from satdoku.models.puzzle import Puzzle
from satdoku.output import STYLES

MAX_COUNT = 10 ** 18 - 1  # the largest --limit, --index, --jobs or --workers accepted (18 digits)


def seconds(text: str) -> float:
    """argparse type: a time limit, finite, above zero and at most MAX_TIME_LIMIT seconds.

    >>> seconds("2.5")
    2.5
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not valid_time_limit(value):
        raise argparse.ArgumentTypeError(f"{text!r} must be above zero and at most {MAX_TIME_LIMIT:,.0f} seconds")
    return value


def positive_int(text: str) -> int:
    """argparse type: a count of at least one, in ASCII digits.

    >>> positive_int("12")
    12
    """
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18 or int(digits) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to {MAX_COUNT:,}")
    return int(digits)


def variant_rules(text: str) -> tuple[str, ...]:
    """argparse type: rule names or aliases, comma-separated, such as 'x,antiknight'.

    >>> variant_rules("x,antiknight")
    ('diagonal-', 'diagonal+', 'antiknight')
    """
    try:
        return parse_rules(text)
    except InputError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_variant(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", type=variant_rules, metavar="RULES",
                        help=f"rules added to every puzzle, comma-separated: {', '.join(NAMED_RULES)}, "
                             f"x (both diagonals)")


PUZZLE_SUFFIXES = (".json", ".json.gz", ".txt", ".txt.gz", ".sdk", ".sdm", ".ss")  # what a folder's files must end in


def add_input(parser: argparse.ArgumentParser) -> None:
    """FILE ... (or '-' for stdin), --box and --variant."""
    parser.add_argument("file", nargs="*", default=["-"], metavar="FILE",
                        help="puzzle files or folders: one puzzle per line, drawn grids, the text form with rules, "
                             f"f-puzzles JSON or links; a folder gives its {', '.join(PUZZLE_SUFFIXES[:3])} ... "
                             "files in name order; '-' or none for stdin")
    parser.add_argument("--box", metavar="RxC", help="box shape, such as 2x4 (default: the squarest)")
    add_variant(parser)


def add_backend(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", "-b", default=None, metavar="NAME",
                        help="backend: pysat[:solver], external:PROGRAM, cpsat, ilp:cbc, dlx, ... "
                             "(default pysat; see `satdoku backends`)")


def add_time_limit(parser: argparse.ArgumentParser, what: str = "seconds per puzzle") -> None:
    parser.add_argument("--time-limit", "-t", type=seconds, metavar="S", help=what)


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    """The options of `backends/options.py`; passing one to a family without it is an error."""
    group = parser.add_argument_group("backend options")
    for option in BACKEND_OPTIONS:
        text = f"{option.help} ({', '.join(option.families)})"
        if option.kind == "flag":
            group.add_argument(option.flag, action="store_true", help=text)
        elif option.kind == "count":
            group.add_argument(option.flag, type=positive_int, metavar="N", help=text)
        else:
            group.add_argument(option.flag, choices=option.choices, help=text)


def backend_options(args: argparse.Namespace) -> dict:
    """The backend options given on the command line, as keyword arguments for get_backend."""
    given = {o.name: getattr(args, o.name, None) for o in BACKEND_OPTIONS}
    return {k: v for k, v in given.items() if v not in (None, False)}


def chosen_backend(args: argparse.Namespace) -> Backend:
    """The backend named by --backend, with the options given on the command line."""
    return get_backend(args.backend, **backend_options(args))


def add_format(parser: argparse.ArgumentParser, styles: tuple[str, ...] = STYLES) -> None:
    parser.add_argument("--format", "-f", choices=styles, default="line", help="output style (default line)")


def load_puzzles(args: argparse.Namespace) -> list[Puzzle]:
    """The puzzles named by FILE(s), --box and --variant; every input error is raised before any output."""
    box: Geometry | None = parse_box(args.box) if getattr(args, "box", None) else None
    names = [args.file] if isinstance(args.file, str) else args.file
    return [puzzle for path in puzzle_paths(names)
            for puzzle in read_puzzles(path, box, getattr(args, "variant", None) or ())]


def puzzle_paths(names: list[str]) -> list[str]:
    """The files to read: each name as given, a folder as its puzzle files (by suffix) in name order."""
    paths = []
    for name in names:
        folder = Path(name)
        if name != "-" and folder.is_dir():
            found = sorted(str(f) for f in folder.iterdir()
                           if f.is_file() and not f.name.startswith(".") and f.name.lower().endswith(PUZZLE_SUFFIXES))
            if not found:
                raise InputError(f"{name}: a folder with no puzzle files ({', '.join(PUZZLE_SUFFIXES)})")
            paths += found
        else:
            paths.append(name)
    return paths


def load_entries(args: argparse.Namespace) -> Iterator[Entry]:
    """The entries of FILE(s), streamed where the file allows (one puzzle per line, CSV data sets); a file
    that does not exist is an InputError before anything is read."""
    box: Geometry | None = parse_box(args.box) if getattr(args, "box", None) else None
    names = [args.file] if isinstance(args.file, str) else args.file
    paths = puzzle_paths(names)
    missing = next((path for path in paths if path != "-" and not Path(path).exists()), None)
    if missing is not None:
        raise InputError(f"{missing}: no such file")
    rules = getattr(args, "variant", None) or ()
    return (entry for path in paths for entry in iter_entries(path, box, rules))


def add_output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--output", "-o", metavar="FILE",
                        help="write the output to FILE, atomically once the run ends (default stdout)")


def input_label(args: argparse.Namespace) -> str | list[str]:
    """FILE as the command line named it: one name, or the list of them."""
    return args.file if isinstance(args.file, str) or len(args.file) != 1 else args.file[0]


def add_puzzle_input(parser: argparse.ArgumentParser) -> None:
    """PUZZLE (a file, '-' for stdin), --box, --variant and --index: the one puzzle a command works on."""
    parser.add_argument("file", metavar="PUZZLE", help="puzzle file ('-' for stdin)")
    parser.add_argument("--box", metavar="RxC", help="box shape, such as 2x4 (default: the squarest)")
    add_variant(parser)
    parser.add_argument("--index", "-k", type=positive_int, metavar="K",
                        help="which puzzle of a file holding several (1-based)")


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
