"""Sudoku geometry: box shape, side, cells and houses for any r x c box."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from satdoku.errors import InputError

MAX_SIDE = 64


@dataclass(frozen=True)
class Geometry:
    """A grid of side n = box_rows * box_cols, split into n boxes of box_rows x box_cols.

    >>> Geometry(2, 4).n
    8
    """

    box_rows: int
    box_cols: int

    def __post_init__(self) -> None:
        if self.box_rows < 1 or self.box_cols < 1:
            raise InputError(f"box {self.box_rows}x{self.box_cols}: both sides must be at least 1")
        if not 2 <= self.n <= MAX_SIDE:
            raise InputError(f"box {self.box_rows}x{self.box_cols}: side {self.n} is outside 2..{MAX_SIDE}")

    @property
    def n(self) -> int:
        """Side of the grid, also the number of digits."""
        return self.box_rows * self.box_cols

    @property
    def n_cells(self) -> int:
        return self.n * self.n

    @property
    def label(self) -> str:
        """Human label such as '8x8 (2x4 boxes)'."""
        return f"{self.n}x{self.n} ({self.box_rows}x{self.box_cols} boxes)"

    def box_of(self, r: int, c: int) -> int:
        """Index of the box holding cell (r, c), boxes numbered in reading order.

        >>> Geometry(2, 3).box_of(3, 4)
        3
        """
        return (r // self.box_rows) * self.box_rows + c // self.box_cols

    def transposed(self) -> "Geometry":
        return Geometry(self.box_cols, self.box_rows)

    @cached_property
    def houses(self) -> tuple[tuple[int, ...], ...]:
        """Every house as a tuple of cell indices (r*n + c): rows, then columns, then boxes."""
        n = self.n
        rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
        cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
        boxes: list[list[int]] = [[] for _ in range(n)]
        for r in range(n):
            for c in range(n):
                boxes[self.box_of(r, c)].append(r * n + c)
        return tuple(rows + cols + [tuple(b) for b in boxes])

    @cached_property
    def house_kinds(self) -> tuple[str, ...]:
        """The kind of each house of `houses`, in the same order: 'row', 'column', 'box'."""
        return ("row",) * self.n + ("column",) * self.n + ("box",) * self.n

    @cached_property
    def house_names(self) -> tuple[str, ...]:
        """Each house as people name it, such as 'row 3' or 'box 7' (numbered within its kind)."""
        seen: dict[str, int] = {}
        names = []
        for kind in self.house_kinds:
            seen[kind] = seen.get(kind, 0) + 1
            names.append(f"{kind} {seen[kind]}")
        return tuple(names)

    @cached_property
    def houses_of_cell(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices of the houses that contain it."""
        out: list[list[int]] = [[] for _ in range(self.n_cells)]
        for h, cells in enumerate(self.houses):
            for cell in cells:
                out[cell].append(h)
        return tuple(tuple(hs) for hs in out)


def default_geometry(n: int) -> Geometry:
    """The squarest box shape for side n, with more columns than rows when not square.

    >>> default_geometry(12)
    Geometry(box_rows=3, box_cols=4)
    """
    if not 2 <= n <= MAX_SIDE:
        raise InputError(f"side {n} is outside 2..{MAX_SIDE}")
    best = max(r for r in range(1, int(n ** 0.5) + 1) if n % r == 0)
    if best == 1 and n > 2:
        raise InputError(f"side {n} has no box shape other than 1x{n}; give one with --box RxC")
    return Geometry(best, n // best)


BOX_SHAPE = re.compile(r"\s*([0-9]+)\s*[xX*]\s*([0-9]+)\s*")
MAX_BOX_DIGITS = 6


def parse_box(text: str) -> Geometry:
    """Read a box shape written as 'RxC' in ASCII digits ('x', 'X' or '*' between).

    >>> parse_box("2x4").n
    8
    >>> parse_box("²x3")
    Traceback (most recent call last):
    ...
    satdoku.errors.InputError: box shape '²x3': expected RxC, such as 3x3 or 2x4
    """
    match = BOX_SHAPE.fullmatch(text)
    if not match:
        raise InputError(f"box shape {shown(text)}: expected RxC, such as 3x3 or 2x4")
    rows, cols = (_box_side(part) for part in match.groups())
    if rows is None or cols is None:
        raise InputError(f"box shape {shown(text)}: side outside 2..{MAX_SIDE}")
    return Geometry(rows, cols)


def _box_side(digits: str) -> int | None:
    """An RxC side as an int, or None when it has more digits than any supported side could."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= MAX_BOX_DIGITS else None


def cut(text: str, width: int = 24) -> str:
    """A piece of user input short enough for a one-line message.

    >>> cut("12345", 4)
    '1...'
    """
    return text if len(text) <= width else text[:max(width - 3, 1)] + "..."


def shown(text: str, width: int = 24) -> str:
    """A piece of user input for a one-line message: cut when long, then repr'd (so no newline shows).

    >>> shown("1\\n2")
    "'1\\\\n2'"
    """
    return repr(cut(text, width))


def is_square_size(cells: int) -> bool:
    """True when a cell count is n*n for a side that has a box shape."""
    n = int(round(cells ** 0.5))
    return n * n == cells and 4 <= n <= MAX_SIDE and any(n % r == 0 for r in range(2, int(n ** 0.5) + 1))
