"""`count_grids(geometry)`: the exact number of complete grids of a box shape.

Supported: two-row boxes up to side 8 and their transposes (2x1, 1x2, 2x2, 2x3, 3x2, 2x4, 4x2).
Transposing a grid turns r x c boxes into c x r boxes, so both shapes have one count. Other shapes
(2x5, 3x3, ...) raise InputError at once rather than run for hours: this version's class sums,
in pure Python, would need hours for them (see the README's counting section). The band DP of
satdoku.counting.two_row_dp counts the same shapes by an independent route (slower: 8 s for 2x4)
and serves as a check; for 2x5 its cost is projected by benchmarks/bench_grids.py.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from satdoku.counting.two_row import Progress, count_two_row_grids
from satdoku.errors import InputError
from satdoku.models.geometry import Geometry

MAX_TWO_ROW = 4
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

    >>> is_supported(Geometry(4, 2)), is_supported(Geometry(3, 3))
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
    if not is_supported(geometry):
        raise InputError(f"grids {geometry.box_rows}x{geometry.box_cols}: not supported yet "
                         f"(exact counts are computed for {supported_text()} boxes)")
    start = time.perf_counter()
    c = geometry.box_cols if geometry.box_rows == 2 else geometry.box_rows
    count, classes = count_two_row_grids(c, progress)
    method = "two-row boxes" + (" (transposed)" if geometry.box_rows != 2 else "")
    return GridCount(geometry, count, classes, time.perf_counter() - start, method)
