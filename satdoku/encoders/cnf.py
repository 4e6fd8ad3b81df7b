"""The exact-cover matrix as CNF: exactly one option per item, over placement variables o + 1.

Three encodings (Lynce & Ouaknine; Weber), named by what they keep of "exactly one per item":

- `minimal`: at least one digit per cell, at most one per house-digit, n^2(1 + 3C(n,2)) clauses;
- `efficient`: minimal plus at most one digit per cell, n^2(1 + 4C(n,2)) clauses;
- `extended` (default): exactly one for every item, 4n^2(1 + C(n,2)) clauses.

(Counts with pairwise at-most-one; 9x9: 8,829 / 11,745 / 11,988 clauses over 729 variables.)
At-most-one is `pairwise` (default), `seqcounter`, `bitwise` or `ladder` (pysat.card, auxiliary
variables numbered after the n^3 placements) or `native` (cardinality constraints, CNFPlus, for
minicard and gluecard). Givens are `units` (one unit clause each), `simplify` (Kwon & Jain: the
satisfied clauses and the falsified literals are dropped, which leaves the encoding of the reduced
matrix) or `assumptions` (no clause: the caller passes `given_literals` to the solver).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
from pysat.card import CardEnc, EncType
from pysat.formula import CNF, CNFPlus

from satdoku.deadline import Deadline
from satdoku.errors import InputError
from satdoku.models.matrix import ExactCover, exact_cover
from satdoku.models.puzzle import Grid, Puzzle

ENCODINGS = ("minimal", "efficient", "extended")
AMO_KINDS = ("pairwise", "seqcounter", "bitwise", "ladder", "native")
GIVENS = ("units", "simplify", "assumptions")
DEFAULT_ENCODING, DEFAULT_AMO, DEFAULT_GIVENS = "extended", "pairwise", "units"
NATIVE_SOLVERS = ("minicard", "gluecard3", "gluecard4")
BLOCK_CLAUSES = 1 << 17  # clauses built between two looks at the deadline

_CARD_KINDS = {"seqcounter": EncType.seqcounter, "bitwise": EncType.bitwise, "ladder": EncType.ladder}
# encoding -> (at-least-one on cell items, at-most-one on cell items, at-least-one on house items)
_KEEPS = {"minimal": (True, False, False), "efficient": (True, True, False), "extended": (True, True, True)}


@dataclass(frozen=True)
class VarMap:
    """How CNF variables relate to the matrix: placement variable v is option v - 1.

    `fixed` are options true outside the formula (givens simplified away) and `free`, when set,
    marks the options whose variables the formula constrains; `n_vars` counts auxiliaries too.
    """

    matrix: ExactCover
    fixed: tuple[int, ...] = ()
    free: np.ndarray | None = field(default=None, compare=False, repr=False)
    n_vars: int = 0

    @property
    def n_placements(self) -> int:
        return self.matrix.n_placements

    def var(self, r: int, c: int, d: int) -> int:
        """The variable of a 0-based placement.

        >>> from satdoku.models.geometry import Geometry
        >>> VarMap(exact_cover(Geometry(3, 3))).var(8, 8, 8)
        729
        """
        return self.matrix.option(r, c, d) + 1

    def true_options(self, model: list[int] | np.ndarray) -> np.ndarray:
        """The options a model makes true, fixed ones included, unconstrained ones ignored."""
        lits = np.asarray(model, dtype=np.int64)
        true = lits[(lits > 0) & (lits <= self.n_placements)] - 1
        if self.free is not None:
            true = true[self.free[true]]
        return np.concatenate([np.asarray(self.fixed, dtype=np.int64), true])

    def decode(self, model: list[int] | np.ndarray) -> Grid:
        """The grid a model describes, read from its positive placement literals.

        >>> from satdoku.models.geometry import Geometry
        >>> VarMap(exact_cover(Geometry(2, 2))).decode([1, -2, 6])[:2]
        (1, 2)
        """
        return self.matrix.grid(self.true_options(model))

    def placement_vars(self) -> list[int]:
        """The placement variables the formula constrains (for `c ind` projection lines)."""
        if self.free is None:
            return list(range(1, self.n_placements + 1))
        return (np.flatnonzero(self.free) + 1).tolist()


def exactly_one(lits: list[int]) -> list[list[int]]:
    """Exactly one of `lits`: one at-least-one clause and the pairwise at-most-one clauses.

    >>> exactly_one([1, 2, 3])
    [[1, 2, 3], [-1, -2], [-1, -3], [-2, -3]]
    """
    return [list(lits)] + [[-a, -b] for a, b in combinations(lits, 2)]


def check_choice(kind: str, value: str, choices: tuple[str, ...]) -> str:
    """`value` when it is one of `choices`, an InputError naming them otherwise.

    >>> check_choice("encoding", "minimal", ENCODINGS)
    'minimal'
    """
    if value not in choices:
        raise InputError(f"unknown {kind} {value!r}; choose from {', '.join(choices)}")
    return value


def clause_count(n: int, encoding: str = DEFAULT_ENCODING) -> int:
    """The clauses of an empty n x n grid with pairwise at-most-one, by the closed formulas.

    >>> [clause_count(9, e) for e in ENCODINGS]
    [8829, 11745, 11988]
    """
    pairs = n * (n - 1) // 2
    return {"minimal": n * n * (1 + 3 * pairs), "efficient": n * n * (1 + 4 * pairs),
            "extended": 4 * n * n * (1 + pairs)}[check_choice("encoding", encoding, ENCODINGS)]


def _item_rules(matrix: ExactCover, items: np.ndarray, encoding: str) -> tuple[np.ndarray, np.ndarray]:
    """For each item, whether the encoding keeps its at-least-one and its at-most-one side. A sum group's own
    item always keeps both (one digit set or tuple is chosen); its detail items follow the houses."""
    alo_cell, amo_cell, alo_house = _KEEPS[encoding]
    is_cell = items < matrix.n * matrix.n
    alo = np.where(is_cell, alo_cell, alo_house & (items < matrix.n_primary))  # secondary items: at most once
    alo |= np.isin(items, [group.item for group in matrix.groups])
    amo = np.where(is_cell, amo_cell, True)
    return alo, amo


def _group_detail_rows(matrix: ExactCover, items: np.ndarray, rows: list[np.ndarray]) -> tuple[list[np.ndarray], list[list[int]]]:
    """Pairwise at-most-one rows with a sum group's options split off: on a detail item, two options of the
    group already exclude each other through the group's item, so only the placements' pairs and each
    placement with each group option are written (not the group options' pairs again)."""
    if not matrix.groups:
        return rows, []
    group_items = {group.item for group in matrix.groups}
    first = min(group_items)
    kept, cross = [], []
    top = matrix.n_placements
    for item, row in zip(items.tolist(), rows):
        if first <= item < matrix.n_primary and item not in group_items:
            placements, own = row[row <= top], row[row > top]
            kept.append(placements)
            cross.append(np.stack(np.broadcast_arrays(-placements[:, None], -own[None, :]), axis=2).reshape(-1, 2))
        else:
            kept.append(row)
    return kept, [pair for block in cross for pair in block.tolist()]


def _groups(rows: list[np.ndarray]) -> dict[int, np.ndarray]:
    """Rows of literals grouped by length into 2-D arrays, so numpy builds each group's clauses."""
    by_length: dict[int, list[np.ndarray]] = {}
    for row in rows:
        by_length.setdefault(len(row), []).append(row)
    return {k: np.vstack(v) if k else np.zeros((len(v), 0), dtype=np.int64) for k, v in by_length.items()}


def _pairwise(rows: list[np.ndarray], deadline: Deadline) -> list[list[int]]:
    """Pairwise at-most-one clauses of every row of literals, built with numpy a block of rows at a time."""
    clauses: list[list[int]] = []
    for k, lits in sorted(_groups(rows).items()):
        if k < 2:
            continue
        first, second = np.triu_indices(k, 1)
        step = max(1, BLOCK_CLAUSES // len(first))
        for start in range(0, len(lits), step):
            block = lits[start:start + step]
            pairs = np.stack([-block[:, first], -block[:, second]], axis=2).reshape(-1, 2)
            clauses.extend(pairs.tolist())
            deadline.check()
    return clauses


def _card(rows: list[np.ndarray], amo: str, top: int, deadline: Deadline) -> tuple[list[list[int]], int]:
    """At-most-one clauses from pysat.card, auxiliary variables numbered from top + 1."""
    clauses: list[list[int]] = []
    for k, row in enumerate(rows):
        if k % 256 == 0:
            deadline.check()
        if len(row) < 2:
            continue
        enc = CardEnc.atmost(lits=row.tolist(), bound=1, top_id=top, encoding=_CARD_KINDS[amo])
        clauses.extend(enc.clauses)
        top = max(top, enc.nv)
    return clauses, top


def _contradiction() -> CNF:
    """An unsatisfiable formula (givens that clash or leave an item with no option)."""
    return CNF(from_clauses=[[1], [-1]])


def _formula(matrix: ExactCover, items: np.ndarray, item_options: list[np.ndarray],
             encoding: str, amo: str, deadline: Deadline) -> CNF | CNFPlus:
    """Exactly one option per item, as far as the encoding keeps each side."""
    alo, amo_on = _item_rules(matrix, items, encoding)
    lits = [np.asarray(opts, dtype=np.int64) + 1 for opts in item_options]
    at_least = [row.tolist() for row, keep in zip(lits, alo) if keep]
    top = matrix.n_options
    cnf: CNF | CNFPlus = CNFPlus() if amo == "native" else CNF()
    cnf.nv = top
    at_most = [row for row, keep in zip(lits, amo_on) if keep]
    if amo == "pairwise":
        rows, cross = _group_detail_rows(matrix, items[amo_on], at_most)
        extra = _pairwise(rows, deadline) + cross
    elif amo == "native":
        extra = []
        for row in at_most:
            if len(row) >= 2:
                cnf.append([row.tolist(), 1], is_atmost=True)
    else:
        extra, top = _card(at_most, amo, top, deadline)
    cnf.clauses = at_least + extra  # set directly: CNF.extend rescans every literal
    cnf.nv = max(top, matrix.n_options)
    return cnf


def given_literals(puzzle: Puzzle) -> list[int]:
    """The placement variables of the givens, as assumptions or unit clauses.

    >>> from satdoku.models.formats import parse_puzzle
    >>> given_literals(parse_puzzle("1000000200400300"))
    [1, 30, 44, 55]
    """
    cells = np.asarray(puzzle.cells, dtype=np.int64)
    given = np.flatnonzero(cells)
    return (given * puzzle.n + cells[given]).tolist()


def deciding_cells(puzzle: Puzzle) -> list[bool]:
    """For each cell, whether a blocking clause needs it: open, and not recoverable from the others.

    A house holds each digit once, so the last unknown cell of a house follows from the rest. Walking
    the cells backwards, a cell whose houses include one with no dropped cell yet can be dropped:
    refilled in the reverse order, each dropped cell is then the only unknown of that house. A grid
    is therefore fixed by its deciding cells, and blocking those alone excludes exactly that grid.

    >>> from satdoku.models.geometry import Geometry
    >>> sum(deciding_cells(Puzzle.empty(Geometry(2, 2))))
    8
    """
    geometry = puzzle.geometry
    used = [False] * len(geometry.houses)
    deciding = [v == 0 for v in puzzle.cells]
    for cell in reversed(range(geometry.n_cells)):
        houses = geometry.houses_of_cell[cell]
        if deciding[cell] and not all(used[h] for h in houses):
            deciding[cell] = False
            for h in houses:
                used[h] = True
    return deciding


def encode(puzzle: Puzzle, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO,
           givens: str = DEFAULT_GIVENS, deadline: Deadline | None = None) -> tuple[CNF | CNFPlus, VarMap]:
    """The puzzle as CNF (CNFPlus for native at-most-one) and the map from variables to placements.

    >>> from satdoku.models.geometry import Geometry
    >>> cnf, varmap = encode(Puzzle.empty(Geometry(3, 3)), "minimal")
    >>> cnf.nv, len(cnf.clauses)
    (729, 8829)
    """
    check_choice("encoding", encoding, ENCODINGS)
    check_choice("at-most-one encoding", amo, AMO_KINDS)
    check_choice("givens mode", givens, GIVENS)
    matrix = exact_cover(puzzle.geometry)
    if givens == "simplify":
        return _simplified(puzzle, matrix, encoding, amo, deadline or Deadline())
    items = np.arange(matrix.n_items)
    cnf = _formula(matrix, items, list(matrix.item_options), encoding, amo, deadline or Deadline())
    if givens == "units":
        cnf.clauses.extend([v] for v in given_literals(puzzle))
    return cnf, VarMap(matrix, n_vars=cnf.nv)


def _simplified(puzzle: Puzzle, matrix: ExactCover, encoding: str, amo: str,
                deadline: Deadline) -> tuple[CNF | CNFPlus, VarMap]:
    """Kwon & Jain: the givens' clauses and literals dropped, i.e. the encoding of the reduced matrix."""
    reduced = matrix.reduce(puzzle)
    if reduced.dead:
        cnf: CNF | CNFPlus = _contradiction()
    else:
        cnf = _formula(matrix, reduced.items, list(reduced.item_options), encoding, amo, deadline)
    cnf.nv = max(cnf.nv, matrix.n_options)
    return cnf, free_varmap(puzzle, cnf.nv)


def free_varmap(puzzle: Puzzle, n_vars: int | None = None) -> VarMap:
    """The map that reads only the placements a puzzle leaves open, the givens fixed outside the formula.

    It decodes models of the `units` and the `simplify` encodings alike.

    >>> from satdoku.models.formats import parse_puzzle
    >>> free_varmap(parse_puzzle("1000000200400300")).decode([2, 6])[:3]  # 2 is r1c1=2, ruled out by the given
    (1, 2, 0)
    """
    matrix = exact_cover(puzzle.geometry)
    reduced = matrix.reduce(puzzle)
    free = np.zeros(matrix.n_options, dtype=bool)
    free[reduced.options] = True
    free[reduced.selected] = False
    fixed = tuple(int(o) for o in reduced.selected)
    return VarMap(matrix, fixed, free, matrix.n_options if n_vars is None else n_vars)
