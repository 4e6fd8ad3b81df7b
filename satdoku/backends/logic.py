"""Human logic, the way hand solvers explain it: singles, naked subsets, pointing, box-line reduction.

The techniques run until none applies; then the solver guesses (the open cell with the fewest
candidates, digits in order) and runs the techniques again after the guess, backing out of a
guess that leads to a contradiction. Every technique is a sound deduction, so guessing through
every candidate also enumerates and counts all solutions.

Candidates, houses and their names come from `Geometry` (rows, columns, boxes, and whatever houses a
variant adds), so every size works, not only 9x9. With `explain=True` each step is recorded as a
readable line (technique, house, cells, digits) in `Result.stats["explanation"]`.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

import numpy as np

from satdoku.backends.base import BuiltinBackend, Result, answer, out_of_time
from satdoku.backends.options import options_of
from satdoku.deadline import Deadline
from satdoku.errors import TimeLimitReached
from satdoku.models.geometry import Geometry
from satdoku.models.matrix import exact_cover
from satdoku.models.puzzle import Grid, Puzzle, cell_name

MAX_SUBSET = 4  # naked pairs, triples and quads


class Contradiction(Exception):
    """The candidates left cannot make a solution; the message says why."""


def digits_of(mask: int) -> list[int]:
    """The digits (1-based) whose bits are set.

    >>> digits_of(0b10110)
    [2, 3, 5]
    """
    out, d = [], 1
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return out


def join(values: list) -> str:
    return ", ".join(str(v) for v in values)


@dataclass(frozen=True)
class Layout:
    """What the techniques need from a geometry: houses, their names, peers and box-line crossings."""

    geometry: Geometry
    peers: tuple[tuple[int, ...], ...]
    crossings: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]
    sums: tuple["SumTable", ...] = ()
    sums_of_cell: tuple[tuple[int, ...], ...] = ()

    @property
    def n(self) -> int:
        return self.geometry.n

    def kind(self, house: int) -> str:
        """'row', 'column' or 'box': techniques that only hold for boxes ask."""
        return self.geometry.house_kinds[house]


@dataclass(frozen=True)
class SumTable:
    """A killer cage or an arrow as the matrix lists it: per option of its group, the digits (bits) each of
    its cells may hold."""

    name: str
    cells: tuple[int, ...]
    masks: np.ndarray  # options x cells

    def allowed(self, candidates: list[int]) -> np.ndarray:
        """Per cell, the digits some option still open under `candidates` lets it hold (0s: none is open)."""
        here = np.array([candidates[c] for c in self.cells], dtype=np.int64)
        open_options = self.masks[np.all(self.masks & here, axis=1)]
        return np.bitwise_or.reduce(open_options, axis=0) if len(open_options) else np.zeros(len(self.cells), np.int64)


def sum_tables(geometry: Geometry) -> tuple[SumTable, ...]:
    """The matrix's sum groups (killer cages with a total, arrows) as tables of digits per cell."""
    if not (geometry.cages or geometry.arrows):
        return ()
    matrix = exact_cover(geometry)
    return tuple(SumTable(f"{g.kind} {g.number} at {cell_name(g.cells[0], geometry.n)}", g.cells, masks)
                 for g, masks in zip(matrix.groups, matrix.group_masks))


@cache
def layout(geometry: Geometry) -> Layout:
    """The layout of a geometry, built once."""
    houses = geometry.houses
    small = [set() for _ in range(geometry.n_cells)]  # small regions and cages: no digit twice either
    for region in geometry.distinct_regions:
        for cell in region:
            small[cell] |= set(region)
    peers = tuple(tuple(sorted(({c for h in geometry.houses_of_cell[cell] for c in houses[h]} | small[cell]) - {cell}))
                  for cell in range(geometry.n_cells))
    crossings = []
    for a, cells_a in enumerate(houses):
        for b, cells_b in enumerate(houses):
            common = set(cells_a) & set(cells_b)
            if a != b and 2 <= len(common) < len(cells_b):
                crossings.append((a, b, tuple(sorted(common)), tuple(c for c in cells_b if c not in common)))
    sums = sum_tables(geometry)
    sums_of_cell = [[] for _ in range(geometry.n_cells)]
    for k, table in enumerate(sums):
        for cell in table.cells:
            sums_of_cell[cell].append(k)
    return Layout(geometry, peers, tuple(crossings), sums, tuple(tuple(s) for s in sums_of_cell))


@dataclass
class Board:
    """Candidates (bit d-1 for digit d) and placed digits (0 for open) of every cell."""

    layout: Layout
    candidates: list[int]
    values: list[int]
    steps: list[str] = field(default_factory=list)
    explain: bool = False
    count: int = 0

    def copy(self) -> "Board":
        return Board(self.layout, list(self.candidates), list(self.values), [], self.explain, 0)

    def name(self, cell: int) -> str:
        return cell_name(cell, self.layout.n)

    def note(self, text: str) -> None:
        self.count += 1
        if self.explain:
            self.steps.append(text)

    def place(self, cell: int, digit: int) -> None:
        """Put a digit in a cell and take it out of the candidates of the cell's peers."""
        bit = 1 << (digit - 1)
        if not self.candidates[cell] & bit:
            raise Contradiction(f"{digit} cannot go in {self.name(cell)}")
        self.values[cell] = digit
        self.candidates[cell] = bit
        for peer in self.layout.peers[cell]:
            if self.candidates[peer] & bit:
                if self.values[peer]:
                    raise Contradiction(f"{digit} twice around {self.name(cell)}")
                self.candidates[peer] &= ~bit
                if not self.candidates[peer]:
                    raise Contradiction(f"{self.name(peer)} has no candidate left")
        for own, other, value in self.layout.geometry.conflict_partners[cell]:  # variants' conflicts
            if own == bit:
                if self.values[other] == value:
                    raise Contradiction(f"{self.name(cell)}={digit} and {self.name(other)}={value} break a rule")
                self.remove([other], 1 << (value - 1))
        for k in self.layout.sums_of_cell[cell]:  # killer cages and arrows: some digit set or tuple still fits
            table = self.layout.sums[k]
            if not table.allowed(self.candidates).all():
                raise Contradiction(f"{table.name}: no digits fit once {self.name(cell)}={digit}")

    def remove(self, cells: list[int], mask: int) -> list[int]:
        """Take the digits of `mask` out of open cells; the cells that lost some."""
        hit = []
        for cell in cells:
            if not self.values[cell] and self.candidates[cell] & mask:
                self.candidates[cell] &= ~mask
                hit.append(cell)
                if not self.candidates[cell]:
                    raise Contradiction(f"{self.name(cell)} has no candidate left")
        return hit

    def solved(self) -> bool:
        return all(self.values)


def new_board(puzzle: Puzzle, explain: bool) -> Board:
    """The board with every given placed; Contradiction when the givens clash."""
    n = puzzle.n
    board = Board(layout(puzzle.geometry), [(1 << n) - 1] * puzzle.geometry.n_cells,
                  [0] * puzzle.geometry.n_cells, explain=explain)
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            if board.values[cell]:
                continue
            board.place(cell, digit)
    return board


def naked_singles(board: Board) -> bool:
    """Place every open cell that has one candidate left."""
    progress = False
    for cell, mask in enumerate(board.candidates):
        if not board.values[cell] and mask & (mask - 1) == 0:
            digit = mask.bit_length()
            board.place(cell, digit)
            board.note(f"naked single: {board.name(cell)} = {digit} (its only candidate)")
            progress = True
    return progress


def hidden_singles(board: Board) -> bool:
    """Place a digit that has one cell left in some house."""
    geometry = board.layout.geometry
    progress = False
    for house, cells in enumerate(geometry.houses):
        placed = 0
        once = twice = 0
        for cell in cells:
            if board.values[cell]:
                placed |= board.candidates[cell]
            else:
                twice |= once & board.candidates[cell]
                once |= board.candidates[cell]
        missing = ((1 << board.layout.n) - 1) & ~placed
        if missing & ~once:
            digit = digits_of(missing & ~once)[0]
            raise Contradiction(f"no place left for {digit} in {geometry.house_names[house]}")
        for digit in digits_of(once & ~twice & ~placed):
            bit = 1 << (digit - 1)
            cell = next((c for c in cells if board.candidates[c] & bit), None)
            if cell is None:
                raise Contradiction(f"no place left for {digit} in {geometry.house_names[house]}")
            if board.values[cell] == digit:
                continue
            board.place(cell, digit)
            board.note(f"hidden single: {board.name(cell)} = {digit} "
                       f"(the only place for {digit} in {geometry.house_names[house]})")
            progress = True
    return progress


def naked_subsets(board: Board) -> bool:
    """k cells of a house whose candidates are k digits: those digits leave the house's other cells."""
    geometry = board.layout.geometry
    words = {2: "pair", 3: "triple", 4: "quad"}
    for size in range(2, MAX_SUBSET + 1):
        for house, cells in enumerate(geometry.houses):
            open_cells = [c for c in cells if not board.values[c]]
            if len(open_cells) <= size:
                continue
            small = [c for c in open_cells if board.candidates[c].bit_count() <= size]
            for group in combinations(small, size):
                union = 0
                for cell in group:
                    union |= board.candidates[cell]
                if union.bit_count() != size:
                    continue
                hit = board.remove([c for c in open_cells if c not in group], union)
                if hit:
                    board.note(f"naked {words.get(size, f'subset of {size}')}: {{{join(digits_of(union))}}} in "
                               f"{geometry.house_names[house]} ({join([board.name(c) for c in group])}) "
                               f"removes them from {join([board.name(c) for c in hit])}")
                    return True
    return False


def intersections(board: Board) -> bool:
    """Pointing (a box's digit confined to one line) and box-line reduction (a line's digit in one box)."""
    lay = board.layout
    names = lay.geometry.house_names
    for a, b, common, rest in lay.crossings:
        kind_a, kind_b = lay.kind(a), lay.kind(b)
        if (kind_a == "box") == (kind_b == "box"):
            continue
        inside = outside = 0
        for cell in common:
            if not board.values[cell]:
                inside |= board.candidates[cell]
        if not inside:
            continue
        for cell in lay.geometry.houses[a]:
            if cell not in common and not board.values[cell]:
                outside |= board.candidates[cell]
        for digit in digits_of(inside & ~outside):
            bit = 1 << (digit - 1)
            hit = board.remove(list(rest), bit)
            if hit:
                technique = "pointing" if kind_a == "box" else "box-line reduction"
                where = [board.name(c) for c in common if not board.values[c] and board.candidates[c] & bit]
                board.note(f"{technique}: {digit} in {names[a]} lies only in {names[b]} ({join(where)}), "
                           f"removes {digit} from {join([board.name(c) for c in hit])}")
                return True
    return False


def sum_options(board: Board) -> bool:
    """Killer cages and arrows: a cell keeps only the digits some still-possible digit set or tuple gives it."""
    progress = False
    for table in board.layout.sums:
        allowed = table.allowed(board.candidates).tolist()
        for cell, keep in zip(table.cells, allowed):
            if not keep:
                raise Contradiction(f"{table.name}: no digits fit")
            lost = board.candidates[cell] & ~keep
            if lost and board.remove([cell], lost):
                board.note(f"{table.name}: {board.name(cell)} cannot be {join(digits_of(lost))}")
                progress = True
    return progress


TECHNIQUES = (naked_singles, hidden_singles, naked_subsets, intersections, sum_options)


def deduce(board: Board, deadline: Deadline) -> None:
    """Apply the techniques, simplest first, until none makes progress; Contradiction at a dead end."""
    while not board.solved():
        deadline.check()
        if not any(technique(board) for technique in TECHNIQUES):
            return


def guess_cell(board: Board) -> int:
    """The open cell with the fewest candidates (the first in reading order)."""
    open_cells = [c for c, v in enumerate(board.values) if not v]
    return min(open_cells, key=lambda c: board.candidates[c].bit_count())


def solve_board(board: Board, deadline: Deadline, stats: dict) -> Iterator[Board]:
    """Every solved board reachable from `board`: deduce, then guess and deduce again."""
    deduce(board, deadline)
    if board.solved():
        yield board
        return
    cell = guess_cell(board)
    options = digits_of(board.candidates[cell])
    for digit in options:
        stats["guesses"] = stats.get("guesses", 0) + 1
        child = board.copy()
        child.note(f"guess: {board.name(cell)} = {digit} (candidates {join(options)})")
        try:
            child.place(cell, digit)
            for solved in solve_board(child, deadline, stats):
                solved.steps[:0] = board.steps
                yield solved
        except Contradiction as why:
            board.note(f"guess {board.name(cell)} = {digit} fails after {child.count} steps: {why}")


def solve_puzzle(puzzle: Puzzle, explain: bool, deadline: Deadline, stats: dict) -> Iterator[Board]:
    """Every solution of a puzzle as a solved board (no solution: nothing)."""
    try:
        board = new_board(puzzle, explain)
        yield from solve_board(board, deadline, stats)
    except Contradiction:
        return


class LogicBackend(BuiltinBackend):
    """Human techniques, then guesses: `logic`; `--explain` records every step."""

    family = "logic"
    options = options_of("logic")

    @property
    def explain(self) -> bool:
        return bool(self.settings.get("explain"))

    def solve_within(self, puzzle: Puzzle, deadline: Deadline) -> Result:
        stats: dict = {"guesses": 0}
        try:
            board = next(solve_puzzle(puzzle, self.explain, deadline, stats), None)
        except TimeLimitReached:
            return out_of_time(**stats)
        if board is None:
            if self.explain:
                stats["explanation"] = ["no solution: every line of reasoning ends in a contradiction"]
            return answer(None, **stats)
        if self.explain:
            stats["explanation"] = [f"{k:>3}. {line}" for k, line in enumerate(board.steps, 1)]
        return answer(tuple(board.values), **stats)

    def solutions_within(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        """Every solution, by techniques and guesses.

        >>> LogicBackend().count(Puzzle.empty(Geometry(2, 2)))
        288
        """
        for board in solve_puzzle(puzzle, False, deadline, {}):
            yield tuple(board.values)
