"""`satdoku backends`: which backends are installed here, their versions and engines."""
from __future__ import annotations

import argparse

from satdoku.backends.registry import available

NAME = "backends"
HELP = "list the backends, whether each is installed, and its version"
ORDER = 90


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engines", action="store_true", help="list every engine of each family")


def run(args: argparse.Namespace) -> int:
    rows = [("backend", "installed", "version", "engines")]
    for info in available():
        engines = ", ".join(info.engines) if args.engines or len(info.engines) <= 4 else \
            ", ".join(info.engines[:4]) + f", ... ({len(info.engines)})"
        rows.append((info.family, "yes" if info.installed else "no", info.version or "-",
                     engines or (info.note if not info.installed else "-")))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[3])
    return 0
