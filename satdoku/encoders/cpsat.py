"""The exact-cover matrix as a CP-SAT model: one Boolean per option, AddExactlyOne per item.

Variable k of the model is option k of the matrix (placement r*n*n + c*n + d), so a solution's
value vector decodes straight to a grid. Givens are fixed by setting their variable's domain to
[1, 1]; a reused model gets them as domain edits (`givens_fixed`) or as assumptions
(`given_literals`).
"""
from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from satdoku.errors import missing_library

try:
    from ortools.sat.python import cp_model
except ImportError as err:  # pragma: no cover - depends on the environment
    raise missing_library(err, "OR-Tools", "ortools>=9.15.6755,<9.16", "cpsat") from None

from satdoku.fileio import atomic_write
from satdoku.models.geometry import Geometry
from satdoku.models.matrix import ExactCover, exact_cover
from satdoku.models.puzzle import Grid, Puzzle


@dataclass
class CpsatModel:
    """A CP-SAT model of one geometry's matrix; `variables[o]` is the Boolean of option o."""

    model: cp_model.CpModel
    variables: list[cp_model.IntVar]
    matrix: ExactCover

    def given_options(self, puzzle: Puzzle) -> list[int]:
        """The options (= variable indices) of a puzzle's givens.

        >>> m = encode_matrix(Geometry(2, 2))
        >>> m.given_options(Puzzle.from_rows([[1, 0, 0, 0], [0, 0, 0, 2], [0, 0, 4, 0], [0, 3, 0, 0]]))
        [0, 29, 43, 54]
        """
        return self.matrix.given_options(puzzle)

    def fix(self, options: Sequence[int], value: int = 1) -> None:
        """Fix the variables of `options` to `value` (0 or 1) in the model's domains."""
        variables = self.model.proto.variables
        for o in options:
            domain = variables[o].domain
            domain[0] = domain[1] = value

    def unfix(self, options: Sequence[int]) -> None:
        """Give the variables of `options` their full 0..1 domain back."""
        variables = self.model.proto.variables
        for o in options:
            domain = variables[o].domain
            domain[0], domain[1] = 0, 1

    def decode(self, values: Sequence[int]) -> Grid:
        """The grid a solution's value vector describes (values[o] is 1 for a chosen option).

        >>> m = encode_matrix(Geometry(2, 2))
        >>> values = [0] * 64
        >>> for o in (0, 5, 10, 15, 18, 23, 24, 29, 33, 38, 43, 44, 51, 52, 57, 62): values[o] = 1
        >>> m.decode(values)
        (1, 2, 3, 4, 3, 4, 1, 2, 2, 3, 4, 1, 4, 1, 2, 3)
        """
        chosen = np.flatnonzero(np.asarray(values, dtype=np.int64)[:self.matrix.n_options])
        return self.matrix.grid(chosen)


def variable_name(matrix: ExactCover, option: int) -> str:
    """The readable name of an option's Boolean.

    >>> variable_name(exact_cover(Geometry(3, 3)), 728)
    'r9c9d9'
    """
    r, c, d = matrix.placement(option)
    return f"r{r + 1}c{c + 1}d{d + 1}"


def encode_matrix(geometry: Geometry, names: bool = True) -> CpsatModel:
    """The model of a geometry with no givens: a Boolean per option, exactly one per primary item
    and at most one per secondary item.

    >>> m = encode_matrix(Geometry(2, 2))
    >>> len(m.variables), len(m.model.proto.constraints)
    (64, 64)
    """
    matrix = exact_cover(geometry)
    model = cp_model.CpModel()
    model.name = f"satdoku {geometry.label}"
    if names:
        variables = [model.new_bool_var(variable_name(matrix, o)) for o in range(matrix.n_options)]
    else:
        variables = [model.new_bool_var("") for _ in range(matrix.n_options)]
    for item, options in enumerate(matrix.item_options):
        chosen = [variables[o] for o in options.tolist()]
        constraint = model.add_exactly_one(chosen) if matrix.is_primary(item) else model.add_at_most_one(chosen)
        if names:
            constraint.with_name(matrix.item_name(item))
    return CpsatModel(model, variables, matrix)


def encode(puzzle: Puzzle, names: bool = True) -> CpsatModel:
    """The model of a puzzle: the geometry's matrix with the givens' variables fixed to 1.

    >>> m = encode(Puzzle.from_rows([[1, 0, 0, 0], [0, 0, 0, 2], [0, 0, 4, 0], [0, 3, 0, 0]]))
    >>> list(m.model.proto.variables[0].domain)
    [1, 1]
    """
    cpm = encode_matrix(puzzle.geometry, names)
    cpm.fix(cpm.given_options(puzzle))
    return cpm


def given_literals(cpm: CpsatModel, puzzle: Puzzle) -> list[cp_model.IntVar]:
    """The givens' Booleans, to pass as assumptions to a reused model."""
    return [cpm.variables[o] for o in cpm.given_options(puzzle)]


def is_binary_path(path: str) -> bool:
    """True when `path` asks for the binary proto (.pb, or .pb.gz), text form otherwise.

    >>> is_binary_path("m.pb"), is_binary_path("m.pb.gz"), is_binary_path("m.pbtxt"), is_binary_path("-")
    (True, True, False, False)
    """
    name = path[:-3] if path.endswith(".gz") else path
    return name.endswith(".pb")


def model_bytes(cpm: CpsatModel, binary: bool) -> bytes:
    """The model proto as OR-Tools writes it: wire format when `binary`, text format otherwise."""
    with tempfile.TemporaryDirectory(prefix="satdoku-cpsat-") as folder:
        target = Path(folder) / ("model.pb" if binary else "model.pbtxt")
        if not cpm.model.export_to_file(str(target)):
            raise OSError("OR-Tools could not write the model")
        return target.read_bytes()


def export_model(puzzle: Puzzle, path: str) -> None:
    """Write a puzzle's CP-SAT model proto to `path`: binary for .pb, text (.pbtxt) otherwise.

    The write is atomic ('-' is stdout, .gz is compressed): a failure leaves no partial file.
    """
    atomic_write(path, model_bytes(encode(puzzle), is_binary_path(path)))
