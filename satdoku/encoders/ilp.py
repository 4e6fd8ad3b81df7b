"""The exact-cover matrix as an integer linear program (PuLP): a binary per option, sum == 1 per item.

Variable `rRcCdD` is the placement of digit D in cell (R, C) (1-based), option (R-1)*n*n + (C-1)*n
+ D-1 of the matrix; each item is one equality row named after it (`cell_r1c1`, `row_1_digit_7`,
...). Givens are fixed by bounds (lower bound 1). There is no objective: any feasible point is a
solution.
"""
from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from satdoku.deadline import Deadline
from satdoku.errors import InputError, missing_library

try:
    import pulp
except ImportError as err:  # pragma: no cover - depends on the environment
    raise missing_library(err, "PuLP", "pulp>=3.3.2,<3.4", "ilp") from None

from satdoku.fileio import atomic_write
from satdoku.models.geometry import Geometry
from satdoku.models.matrix import ExactCover, exact_cover
from satdoku.models.puzzle import Grid, Puzzle

KINDS = ("lp", "mps")
NAME_PATTERN = re.compile(r"r(\d+)c(\d+)d(\d+)")


@dataclass
class IlpModel:
    """A PuLP problem of one geometry's matrix; `variables[o]` is the binary of option o."""

    problem: pulp.LpProblem
    variables: list[pulp.LpVariable]
    matrix: ExactCover
    cuts: int = field(default=0)

    def given_options(self, puzzle: Puzzle) -> list[int]:
        """The options of a puzzle's givens.

        >>> encode_matrix(Geometry(2, 2)).given_options(Puzzle.from_rows([[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]))
        [0]
        """
        return self.matrix.given_options(puzzle)

    def fix(self, options: Sequence[int]) -> None:
        """Fix the binaries of `options` to 1 by their lower bound."""
        for o in options:
            self.variables[o].lowBound = 1

    def unfix(self, options: Sequence[int]) -> None:
        """Free the binaries of `options` again (bounds 0..1)."""
        for o in options:
            self.variables[o].lowBound = 0

    def chosen(self) -> list[int]:
        """The options whose binary is 1 in the solver's last answer."""
        return [o for o, v in enumerate(self.variables) if v.varValue is not None and v.varValue > 0.5]

    def values(self) -> np.ndarray:
        """The binaries' values in the solver's last answer (0 where the solver gave none)."""
        return np.array([v.varValue or 0.0 for v in self.variables], dtype=float)

    def feasible(self) -> bool:
        """True when the last answer is integral, covers every item once and keeps the bounds.

        Solvers stopped by a time limit can report a fractional point as a solution (CBC: "Stopped
        on iterations - objective value 0"); this tells the two apart before decoding.

        >>> m = encode_matrix(Geometry(2, 2))
        >>> m.feasible()
        False
        """
        values = self.values()
        chosen = np.round(values)
        if np.abs(values - chosen).max() > 1e-4:
            return False
        covered = self.matrix.coverage(chosen)
        primary = self.matrix.n_primary
        if not (np.all(covered[:primary] == 1) and np.all(covered[primary:] <= 1)):
            return False
        low = np.array([v.lowBound or 0 for v in self.variables], dtype=float)
        return bool(np.all(chosen >= low))

    def decode(self) -> Grid:
        """The grid of the solver's last answer (cells without a chosen option are 0)."""
        return self.matrix.grid(self.chosen())

    def add_no_good(self, grid: Grid) -> None:
        """Cut off one grid: the sum of its n*n placements' binaries is at most n*n - 1.

        >>> m = encode_matrix(Geometry(2, 2))
        >>> m.add_no_good((1, 2, 3, 4, 3, 4, 1, 2, 2, 3, 4, 1, 4, 1, 2, 3))
        >>> str(m.problem.get_constraint_by_name("no_good_1"))
        'r1c1d1 + r1c2d2 + r1c3d3 + r1c4d4 + r2c1d3 + r2c2d4 + r2c3d1 + r2c4d2 + r3c1d2 + r3c2d3 + r3c3d4 + r3c4d1 + r4c1d4 + r4c2d1 + r4c3d2 + r4c4d3 <= 15.0'
        """
        n = self.matrix.n
        placements = [self.variables[i * n + v - 1] for i, v in enumerate(grid)]
        self.cuts += 1
        self.problem.addConstraint(pulp.LpConstraint(pulp.LpAffineExpression([(x, 1) for x in placements]),
                                                     pulp.LpConstraintLE, f"no_good_{self.cuts}", n * n - 1))


def variable_name(matrix: ExactCover, option: int) -> str:
    """The LP name of an option's binary.

    >>> variable_name(exact_cover(Geometry(3, 3)), 728)
    'r9c9d9'
    """
    r, c, d = matrix.placement(option)
    return f"r{r + 1}c{c + 1}d{d + 1}"


def option_of_name(matrix: ExactCover, name: str) -> int | None:
    """The option a variable name stands for, None for other names (such as PuLP's `__dummy`).

    >>> option_of_name(exact_cover(Geometry(3, 3)), "r9c9d9"), option_of_name(exact_cover(Geometry(3, 3)), "__dummy")
    (728, None)
    """
    found = NAME_PATTERN.fullmatch(name)
    if not found:
        return None
    r, c, d = (int(g) - 1 for g in found.groups())
    return matrix.option(r, c, d)


def row_name(matrix: ExactCover, item: int) -> str:
    """The LP name of an item's equality row.

    >>> row_name(exact_cover(Geometry(3, 3)), 0), row_name(exact_cover(Geometry(3, 3)), 323)
    ('cell_r1c1', 'box_9_digit_9')
    """
    return re.sub(r"\W+", "_", matrix.item_name(item))


BLOCK_ROWS = 1024  # variables or rows built between two looks at the deadline


def encode_matrix(geometry: Geometry, deadline: Deadline | None = None) -> IlpModel:
    """The problem of a geometry with no givens: one binary per option, sum == 1 per primary item,
    sum <= 1 per secondary item; building it looks at `deadline` every BLOCK_ROWS variables and rows
    (PuLP takes seconds for a 64x64's 262,144 binaries).

    >>> m = encode_matrix(Geometry(2, 2))
    >>> len(m.variables), m.problem.numConstraints()
    (64, 64)
    """
    deadline = deadline or Deadline()
    matrix = exact_cover(geometry)
    problem = pulp.LpProblem(f"satdoku_{geometry.n}x{geometry.n}", pulp.LpMinimize)
    variables = []
    for o in range(matrix.n_options):
        if o % BLOCK_ROWS == 0:
            deadline.check()
        variables.append(problem.add_variable(variable_name(matrix, o), 0, 1, cat=pulp.LpBinary))
    for item, options in enumerate(matrix.item_options):
        if item % BLOCK_ROWS == 0:
            deadline.check()
        row = pulp.LpAffineExpression([(variables[o], 1) for o in options.tolist()])
        sense = pulp.LpConstraintEQ if matrix.is_primary(item) else pulp.LpConstraintLE
        problem.addConstraint(pulp.LpConstraint(row, sense, row_name(matrix, item), 1))
    return IlpModel(problem, variables, matrix)


def encode(puzzle: Puzzle) -> IlpModel:
    """The problem of a puzzle: the matrix with the givens' binaries fixed to 1.

    >>> encode(Puzzle.from_rows([[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])).variables[0].lowBound
    1
    """
    model = encode_matrix(puzzle.geometry)
    model.fix(model.given_options(puzzle))
    return model


def model_text(model: IlpModel, kind: str) -> str:
    """The problem as PuLP writes it: CPLEX LP format for 'lp', (free) MPS for 'mps'."""
    if kind not in KINDS:
        raise InputError(f"unknown ILP file kind {kind!r}; choose lp or mps")
    with tempfile.TemporaryDirectory(prefix="satdoku-ilp-") as folder:
        target = Path(folder) / f"model.{kind}"
        if kind == "lp":
            model.problem.writeLP(str(target))
        else:
            model.problem.writeMPS(str(target))
        return target.read_text(encoding="utf-8")


def export_model(puzzle: Puzzle, path: str, kind: str) -> None:
    """Write a puzzle's ILP to `path` as an LP ('lp') or MPS ('mps') file, atomically ('-' = stdout)."""
    atomic_write(path, model_text(encode(puzzle), kind))
