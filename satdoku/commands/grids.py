"""`satdoku grids RxC`: the exact number of complete grids with RxC boxes, computed by symmetry.

Prints one line, such as `8x8 (2x4 boxes): 29,136,487,207,403,520 complete grids`; `--format json`
gives the count as an integer with the time taken. A shape this version cannot count in reasonable
time gets a one-line error and exit code 2 (the supported shapes are listed in the message).
A progress line is drawn on stderr when it is a terminal (never with --no-progress).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, TextIO

from satdoku.models.geometry import parse_box

if TYPE_CHECKING:
    from satdoku.counting.grids import GridCount

NAME = "grids"
HELP = "exact number of complete grids of a box shape (2x2 ... 2x5, 3x3), by symmetry reduction"
ORDER = 30


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("box", metavar="RxC", help="box shape, such as 2x4 (boxes of 2 rows and 4 columns)")
    parser.add_argument("--format", "-f", choices=("text", "json"), default="text", help="output (default text)")
    parser.add_argument("--no-progress", action="store_true", help="never draw the progress line on stderr")


class ProgressLine:
    """A one-line progress display on a terminal, redrawn at most ten times a second."""

    def __init__(self, label: str, stream: TextIO) -> None:
        self.label, self.stream, self.last, self.drawn = label, stream, 0.0, False

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last < 0.1 and done < total:
            return
        self.last, self.drawn = now, True
        width = 30
        filled = width * done // max(total, 1)
        self.stream.write(f"\r{self.label} {stage}: [{'#' * filled}{'.' * (width - filled)}] {done}/{total} ")
        self.stream.flush()

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()


def grids_text(result: GridCount) -> str:
    """The one-line answer.

    >>> from satdoku.counting.grids import GridCount
    >>> from satdoku.models.geometry import Geometry
    >>> grids_text(GridCount(Geometry(2, 2), 288, 2, 0.0, "two-row boxes"))
    '4x4 (2x2 boxes): 288 complete grids'
    """
    return f"{result.geometry.label}: {result.count:,} complete grids"


def grids_json(result: GridCount) -> str:
    g = result.geometry
    return json.dumps({"box_rows": g.box_rows, "box_cols": g.box_cols, "n": g.n, "count": result.count,
                       "classes": result.classes, "method": result.method,
                       "seconds": round(result.seconds, 6)})


def run(args: argparse.Namespace) -> int:
    from satdoku.counting import count_grids  # imports numba: only when counting grids

    geometry = parse_box(args.box)
    progress = None
    if not args.no_progress and sys.stderr.isatty():
        progress = ProgressLine(f"grids {geometry.box_rows}x{geometry.box_cols}", sys.stderr)
    try:
        result = count_grids(geometry, progress)
    finally:
        if progress:
            progress.close()
    print(grids_json(result) if args.format == "json" else grids_text(result))
    return 0
