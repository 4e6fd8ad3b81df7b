"""`count_grids(geometry)`: the exact number of complete grids of a box shape.

Supported: two-row boxes up to 2x5 (satdoku.counting.two_row_split: split classes met in the
middle), boxes of three columns with up to three rows, 1x3, 2x3 and 3x3
(satdoku.counting.three_band: the bands' column profiles), and the transposes of all of them
(transposing a grid turns r x c boxes into c x r boxes, so both shapes have one count). The
kernels are compiled by numba; without it they run as plain Python, which is fine up to 2x4 and
2x3, while 2x5 and 3x3 ask for numba rather than run for many minutes. Other shapes (2x6, 3x4,
...) raise InputError at once.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from satdoku.counting.colouring_kernels import COMPILED
from satdoku.counting.three_band import count_three_band_grids
from satdoku.counting.two_row_split import count_two_row_grids_split
from satdoku.errors import BackendUnavailable, InputError
from satdoku.models.geometry import Geometry

# progress(stage, done, total), called as a count runs; the counters import it for their annotations
# only (under TYPE_CHECKING), since this module imports them
Progress = Callable[[str, int, int], None]
Counter = Callable[[int, Progress | None], tuple[int, int]]


@dataclass(frozen=True)
class Method:
    """One way of counting: the box shapes (box rows, box columns) it counts, by its size argument."""

    shapes: dict[int, tuple[int, int]]
    plain_python: tuple[int, ...]      # the sizes that plain Python counts in about a second
    count: Counter
    name: str


METHODS = (
    Method({c: (2, c) for c in range(1, 6)}, (1, 2, 3, 4), count_two_row_grids_split,
           "two-row boxes, split classes met in the middle"),
    Method({r: (r, 3) for r in (1, 3)}, (1,), count_three_band_grids,
           "three bands, column profiles by class"),
)
SUPPORTED = tuple(sorted({shape for m in METHODS for r, c in m.shapes.values() for shape in ((r, c), (c, r))}))


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

    >>> is_supported(Geometry(5, 2)), is_supported(Geometry(3, 3)), is_supported(Geometry(3, 4))
    (True, True, False)
    """
    return (geometry.box_rows, geometry.box_cols) in SUPPORTED


def supported_text() -> str:
    return ", ".join(f"{r}x{c}" for r, c in sorted(SUPPORTED, key=lambda s: (s[0] * s[1], s)))


def method_for(rows: int, cols: int) -> tuple[Method, int, bool]:
    """The method counting r x c boxes, its size argument, and whether the grid is transposed.

    >>> [(m.name[:5], size, flipped) for m, size, flipped in [method_for(3, 2), method_for(3, 1)]]
    [('two-r', 3, True), ('three', 1, True)]
    """
    for method in METHODS:
        for size, shape in method.shapes.items():
            if shape == (rows, cols):
                return method, size, False
            if shape == (cols, rows):
                return method, size, True
    raise InputError(f"grids {rows}x{cols}: not supported yet "
                     f"(exact counts are computed for {supported_text()} boxes)")


def count_grids(geometry: Geometry, progress: Progress | None = None) -> GridCount:
    """The exact number of complete grids with this box shape.

    >>> count_grids(Geometry(3, 2)).count
    28200960
    """
    rows, cols = geometry.box_rows, geometry.box_cols
    method, size, transposed = method_for(rows, cols)
    if size not in method.plain_python and not COMPILED:
        raise BackendUnavailable(f"grids {rows}x{cols}: needs numba for its compiled kernels "
                                 f"(pip install 'satdoku[fast]'); plain Python would take too long")
    start = time.perf_counter()
    count, classes = method.count(size, progress)
    name = method.name + (" (transposed)" if transposed else "")
    return GridCount(geometry, count, classes, time.perf_counter() - start, name)


def known_count(geometry: Geometry) -> GridCount | None:
    """The count of complete grids when `count_grids` computes it here quickly, else None.

    >>> known_count(Geometry(2, 3)).count, known_count(Geometry(3, 4))
    (28200960, None)
    """
    if not is_supported(geometry):
        return None
    method, size, _ = method_for(geometry.box_rows, geometry.box_cols)
    if size not in method.plain_python and not COMPILED:
        return None
    return count_grids(geometry)
