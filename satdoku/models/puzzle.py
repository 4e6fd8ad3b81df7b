"""A puzzle: a geometry plus givens (0 for a blank), and where it was read from."""
from __future__ import annotations

from dataclasses import dataclass, field

from satdoku.errors import InputError
from satdoku.models.geometry import Geometry, default_geometry

Grid = tuple[int, ...]


def cell_name(cell: int, n: int) -> str:
    """The usual rRcC name of a cell index, 1-based.

    >>> cell_name(10, 9)
    'r2c2'
    """
    return f"r{cell // n + 1}c{cell % n + 1}"


@dataclass(frozen=True)
class Puzzle:
    """Givens in reading order, 0 for a blank; `alphabet` and `source` only shape messages and output."""

    geometry: Geometry
    cells: Grid
    alphabet: str | None = field(default=None, compare=False)
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if len(self.cells) != self.geometry.n_cells:
            raise InputError(f"{self.where}{len(self.cells)} cells for a {self.geometry.label} grid")

    @classmethod
    def empty(cls, geometry: Geometry) -> "Puzzle":
        """The blank grid of a geometry.

        >>> Puzzle.empty(Geometry(2, 2)).n_givens
        0
        """
        return cls(geometry, (0,) * geometry.n_cells)

    @classmethod
    def from_rows(cls, rows: list[list[int]], geometry: Geometry | None = None) -> "Puzzle":
        """Build from a list of rows of ints.

        >>> Puzzle.from_rows([[1, 0, 0, 0], [0, 0, 0, 2], [0, 0, 4, 0], [0, 3, 0, 0]]).n
        4
        """
        geometry = geometry or default_geometry(len(rows))
        return cls(geometry, tuple(v for row in rows for v in row))

    @property
    def n(self) -> int:
        return self.geometry.n

    @property
    def n_givens(self) -> int:
        return sum(1 for v in self.cells if v)

    @property
    def where(self) -> str:
        """A prefix for messages, such as 'puzzles.txt line 3: ', or '' when unknown."""
        return f"{self.source}: " if self.source else ""

    def givens(self) -> list[tuple[int, int, int]]:
        """The givens as 0-based (row, col, digit) placements."""
        n = self.n
        return [(i // n, i % n, v - 1) for i, v in enumerate(self.cells) if v]

    def with_cells(self, cells: Grid) -> "Puzzle":
        """The same puzzle (geometry, alphabet, source) with other cells."""
        return Puzzle(self.geometry, tuple(cells), self.alphabet, self.source)
