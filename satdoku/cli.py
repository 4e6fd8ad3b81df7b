"""The `satdoku` command line: one subcommand per module in satdoku.commands."""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import satdoku.commands
from satdoku import __version__
from satdoku.fileio import terminate_raises
from satdoku.errors import SatdokuError


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")
        sys.exit(2)


def one_line(message: object) -> str:
    """A message on one line: line breaks from user input (file names, arguments) shown escaped.

    >>> one_line("out\\nfile.cnf: is a folder")
    'out\\\\nfile.cnf: is a folder'
    """
    return str(message).replace("\r", "\\r").replace("\n", "\\n")


def command_modules() -> list:
    """Every subcommand module, in the order its ORDER attribute gives."""
    modules = []
    for info in pkgutil.iter_modules(satdoku.commands.__path__):
        module = importlib.import_module(f"satdoku.commands.{info.name}")
        if hasattr(module, "run"):
            modules.append(module)
    return sorted(modules, key=lambda m: (getattr(m, "ORDER", 99), m.NAME))


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="satdoku", description="Solve, enumerate and count generalized "
                           "sudoku through one exact-cover model (SAT, CP-SAT, ILP, DLX).")
    parser.add_argument("--version", action="version", version=f"satdoku {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    for module in command_modules():
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; errors become one line on stderr and the exit code they carry."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # usage errors (one line, code 2), --help and --version (code 0)
        return int(stop.code or 0)
    if not getattr(args, "run", None):  # no command: usage on stderr, as for any usage error
        parser.print_help(sys.stderr)
        return 2
    try:
        with terminate_raises():  # SIGTERM: cleanups run (temporary folders, partial files, child solvers)
            return args.run(args)
    except SatdokuError as err:
        print(f"satdoku: {one_line(err)}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("satdoku: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
