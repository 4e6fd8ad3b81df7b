"""`count_grids(geometry)`: the exact number of complete grids of a box shape.

Supported: two-row boxes up to side 10 and their transposes (2x1 ... 2x5, 1x2 ... 5x2).
Transposing a grid turns r x c boxes into c x r boxes, so both shapes have one count. The count is
the split-class sum of satdoku.counting.two_row_split (meet in the middle over each stack's band
graph), whose kernels numba compiles; without numba, shapes up to 2x4 still count in well under a
second as plain Python, and 2x5 asks for numba rather than run for hours. Other shapes (3x3, ...)
raise InputError at once.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from satdoku.counting.colouring_kernels import COMPILED
from satdoku.counting.two_row import Progress
from satdoku.counting.two_row_split import count_two_row_grids_split
from satdoku.errors import BackendUnavailable, InputError
from satdoku.models.geometry import Geometry

MAX_TWO_ROW = 5
MAX_PLAIN_PYTHON = 4      # the largest 2 x c counted without the compiled kernels
SUPPORTED = tuple(shape for c in range(1, MAX_TWO_ROW + 1) for shape in {(2, c), (c, 2)})


@dataclass(frozen=True)
class GridCount:
    """A count of complete grids and how it was found."""

    geometry: Geometry
    count: int
    classes: int
    seconds: float
    method: str


def is_supported(geometry: Geometry) -> bool:
    """True when count_grids computes this box shape.

    >>> is_supported(Geometry(5, 2)), is_supported(Geometry(3, 3))
    (True, False)
    """
    return (geometry.box_rows, geometry.box_cols) in SUPPORTED


def supported_text() -> str:
    return ", ".join(f"{r}x{c}" for r, c in sorted(SUPPORTED, key=lambda s: (s[0] * s[1], s)))


def count_grids(geometry: Geometry, progress: Progress | None = None) -> GridCount:
    """The exact number of complete grids with this box shape.

    >>> count_grids(Geometry(3, 2)).count
    28200960
    """
    shape = f"{geometry.box_rows}x{geometry.box_cols}"
    if not is_supported(geometry):
        raise InputError(f"grids {shape}: not supported yet "
                         f"(exact counts are computed for {supported_text()} boxes)")
    c = geometry.box_cols if geometry.box_rows == 2 else geometry.box_rows
    if c > MAX_PLAIN_PYTHON and not COMPILED:
        raise BackendUnavailable(f"grids {shape}: needs numba for its compiled kernels "
                                 f"(pip install 'satdoku[fast]'); plain Python would take hours")
    start = time.perf_counter()
    count, classes = count_two_row_grids_split(c, progress)
    method = "two-row boxes, split classes met in the middle"
    if geometry.box_rows != 2:
        method += " (transposed)"
    return GridCount(geometry, count, classes, time.perf_counter() - start, method)
