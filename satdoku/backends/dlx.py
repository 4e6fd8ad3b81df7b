"""Our exact-cover solver: Knuth's Algorithm X over the matrix, on bit-sliced item sets.

Algorithm X picks the open item with the fewest options, tries each of them, and covers every item
the chosen option touches. Pointer-based dancing links and Assaf's dicts of sets both do this one
element at a time, which is slow in pure Python; here the state is `width` Python integers (a
"slice" per option slot, `width` = most options of any item, n for sudoku). Bit i of slice k says
whether option `item_options[i][k]` is still possible. Then

- selecting an option is `width` AND operations with its precomputed kill masks (every option that
  shares an item with it, itself included), undone for free because the state is immutable;
- counting options per item is a bit-parallel counter over the slices: items with none (a dead
  end), with exactly one (a forced choice: all of them are taken in one step, which is the same as
  taking them one by one) and with exactly two (the usual fewest-options branch) come out of a
  handful of integer operations for all items at once.

The givens are options selected before the search starts, through the same kill masks, so the puzzle
never goes through a Python loop per item. Every table comes from `satdoku.models.matrix`; nothing
here knows the rules of sudoku.
"""
from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from operator import and_

from satdoku.backends.base import BuiltinBackend, Result, answer, out_of_time
from satdoku.deadline import Deadline
from satdoku.errors import Interrupted, TimeLimitReached
from satdoku.models.geometry import Geometry
from satdoku.models.matrix import ExactCover, exact_cover
from satdoku.models.puzzle import Grid, Puzzle

CLOCK_EVERY = 256  # branch nodes between two looks at the clock
MEMO_BYTES = 256 * 2 ** 20  # rough cap on the memory of a count's memo


@dataclass
class CoverTables:
    """The matrix of one geometry, laid out for the bit-sliced search.

    >>> t = cover_tables(Geometry(2, 2))
    >>> t.n_items, t.width, len(t.kill_masks(0))
    (64, 4, 4)
    """

    matrix: ExactCover
    n_items: int
    width: int
    full: int
    option_at: list[list[int]]
    item_bits: list[int]
    home: list[tuple[int, int]]
    places: list[list[tuple[int, int]]]
    kills: list[tuple[int, ...] | None] = field(repr=False)
    initial: list[int] = field(repr=False, default_factory=list)  # per slot, the items that have an option there
    primary: int = 0  # the bits of the items to cover (secondary items need not be)

    @classmethod
    def from_matrix(cls, matrix: ExactCover) -> "CoverTables":
        option_at = [options.tolist() for options in matrix.item_options]
        places: list[list[tuple[int, int]]] = [[] for _ in range(matrix.n_options)]
        for item, row in enumerate(option_at):
            for slot, option in enumerate(row):
                places[option].append((item, slot))
        item_bits = [sum(1 << i for i in items) for items in matrix.option_items]
        width = max(len(row) for row in option_at)
        initial = [sum(1 << i for i, row in enumerate(option_at) if len(row) > slot) for slot in range(width)]
        return cls(matrix, len(option_at), width, (1 << len(option_at)) - 1, option_at, item_bits,
                   [p[0] for p in places], places, [None] * matrix.n_options, initial,
                   (1 << matrix.n_primary) - 1)

    def kill_masks(self, option: int) -> tuple[int, ...]:
        """Per slot, the bits that stay when `option` is selected (built on first use)."""
        masks = self.kills[option]
        if masks is None:
            cleared = [0] * self.width
            rivals = {o for item, _ in self.places[option] for o in self.option_at[item]}
            for rival in rivals:
                for item, slot in self.places[rival]:
                    cleared[slot] |= 1 << item
            masks = self.kills[option] = tuple(self.full ^ c for c in cleared)
        return masks


@cache
def cover_tables(geometry: Geometry) -> CoverTables:
    """The tables of a geometry, built once."""
    return CoverTables.from_matrix(exact_cover(geometry))


@dataclass
class State:
    """A point of the search: the slices of possible options, the open items, the options chosen."""

    slices: list[int]
    open_items: int
    chosen: list[int]


def select(tables: CoverTables, state: State, option: int) -> bool:
    """Choose an option in place; False when it is no longer possible."""
    item, slot = tables.home[option]
    if not state.slices[slot] >> item & 1:
        return False
    state.slices = list(map(and_, state.slices, tables.kills[option] or tables.kill_masks(option)))
    state.open_items &= ~tables.item_bits[option]
    state.chosen.append(option)
    return True


def start_state(tables: CoverTables, puzzle: Puzzle) -> State | None:
    """The state once the givens are selected; None when two givens clash."""
    state = State(list(tables.initial), tables.primary, [])
    matrix = tables.matrix
    for r, c, d in puzzle.givens():
        if not select(tables, state, matrix.option(r, c, d)):
            return None
    return state


@dataclass
class SearchStats:
    """Nodes and branches of one run, and its deadline."""

    deadline: Deadline = field(default_factory=Deadline)
    nodes: int = 0
    branches: int = 0
    found: int = 0

    def branch(self) -> None:
        """Count a branch node; past the deadline (looked at every CLOCK_EVERY branches) raise TimeLimitReached."""
        self.branches += 1
        if self.branches % CLOCK_EVERY == 0:
            self.deadline.check(self.found)


Settled = tuple[list[int], int, int]


def settle(tables: CoverTables, slices: list[int], open_items: int, chosen: list[int] | None,
           counter: SearchStats) -> Settled | None:
    """Take every forced option (an open item with one option left) until none is left.

    Returns None at a dead end (an open item with no option, or two forced options sharing an
    item), else the new slices, open items and the bit of the open item to branch on: the lowest
    one with the fewest options, 0 when every item is covered.
    """
    option_at, item_bits, kills = tables.option_at, tables.item_bits, tables.kills
    while open_items:
        ones = twos = 0
        for s in slices:
            twos |= ones & s
            ones |= s
        if open_items & ~ones:
            return None
        singles = open_items & ~twos
        if not singles:
            return slices, open_items, fewest(slices, open_items)
        forced = set()
        for slot, s in enumerate(slices):
            hits = singles & s
            while hits:
                low = hits & -hits
                forced.add(option_at[low.bit_length() - 1][slot])
                hits ^= low
        covered = 0
        for option in forced:
            bits = item_bits[option]
            if covered & bits:
                return None
            covered |= bits
            slices = list(map(and_, slices, kills[option] or tables.kill_masks(option)))
        open_items &= ~covered
        if chosen is not None:
            chosen.extend(forced)
        counter.nodes += len(forced)
    return slices, open_items, 0


def fewest(slices: list[int], open_items: int) -> int:
    """The bit of the lowest open item with the fewest options (every open item has two or more).

    >>> bin(fewest([0b111, 0b110, 0b011], 0b111))
    '0b1'
    """
    ones = twos = threes = 0
    for s in slices:
        threes |= twos & s
        twos |= ones & s
        ones |= s
    pairs = open_items & ~threes
    if pairs:
        return pairs & -pairs
    return fewest_counted(slices, open_items)


def fewest_counted(slices: list[int], open_items: int) -> int:
    """Like `fewest`, for any counts: a bit-sliced binary counter of options per item, then equality tests.

    >>> bin(fewest_counted([0b11, 0b11, 0b11, 0b01], 0b11))
    '0b10'
    """
    digits: list[int] = []  # digits[j]: bit j of every item's count
    for s in slices:
        carry = s
        for j, digit in enumerate(digits):
            digits[j] = digit ^ carry
            carry &= digit
            if not carry:
                break
        if carry:
            digits.append(carry)
    for count in range(1, len(slices) + 1):
        same = open_items
        for j, digit in enumerate(digits):
            same &= digit if count >> j & 1 else ~digit
        if count >> len(digits):
            same = 0
        if same:
            return same & -same
    return 0


def branch_options(tables: CoverTables, slices: list[int], low: int) -> list[int]:
    """The options still possible for the item whose bit is `low`, in matrix order."""
    row = tables.option_at[low.bit_length() - 1]
    return [row[slot] for slot, s in enumerate(slices) if s & low]


def search(tables: CoverTables, state: State, counter: SearchStats) -> Iterator[list[int]]:
    """Every exact cover that extends `state`, as the list of chosen options (reused: copy it).

    Depth-first with an explicit stack, so deep searches (large grids) never hit Python's
    recursion limit.
    """
    chosen = state.chosen
    stack: list[tuple[list[int], int, int, Iterator[int]]] = []
    pending: tuple[list[int], int] | None = (state.slices, state.open_items)
    while True:
        if pending is not None:
            settled = settle(tables, pending[0], pending[1], chosen, counter)
            if settled is not None:
                slices, open_items, low = settled
                if not low:
                    yield chosen
                else:
                    counter.branch()
                    stack.append((slices, open_items, len(chosen), iter(branch_options(tables, slices, low))))
        pending = None
        while stack and pending is None:
            slices, open_items, depth, options = stack[-1]
            option = next(options, None)
            if option is None:
                stack.pop()
                continue
            del chosen[depth:]
            chosen.append(option)
            counter.nodes += 1
            pending = (list(map(and_, slices, tables.kills[option] or tables.kill_masks(option))),
                       open_items & ~tables.item_bits[option])
        if pending is None:
            return


class Enough(Exception):
    """Stops a count once it reaches its limit."""


def count_covers(tables: CoverTables, state: State, counter: SearchStats, limit: int | None = None,
                 memo_bytes: int = MEMO_BYTES) -> int:
    """The number of exact covers extending `state`, up to `limit`, without building any cover.

    Algorithm X with memoised subproblems: two partial covers that leave the same open items and
    the same possible options have the same number of completions (a swap of two digits in a
    rectangle does that all the time), so each residual state is counted once. The memo is capped
    at about `memo_bytes`. Grids too large for Python's recursion fall back to plain search.
    """
    if tables.n_items // 4 + 200 > sys.getrecursionlimit():
        return count_by_search(tables, state, counter, limit)
    memo: dict[tuple[int, ...], int] = {}
    room = memo_bytes // ((tables.width + 1) * (tables.n_items // 8 + 40) + 100)
    option_at, item_bits, kills = tables.option_at, tables.item_bits, tables.kills
    found = 0

    def completions(slices: list[int], open_items: int) -> int:
        nonlocal found
        key = (open_items, *slices)
        known = memo.get(key)
        if known is None:
            settled = settle(tables, slices, open_items, None, counter)
            if settled is None:
                known = 0
            elif not settled[2]:
                known = 1
                found += 1
                counter.found = found
                if limit is not None and found >= limit:
                    raise Enough
            else:
                counter.branch()
                rest, open_rest, low = settled
                known = 0
                row = option_at[low.bit_length() - 1]
                for slot, s in enumerate(rest):
                    if s & low:
                        option = row[slot]
                        counter.nodes += 1
                        known += completions(list(map(and_, rest, kills[option] or tables.kill_masks(option))),
                                             open_rest & ~item_bits[option])
            if len(memo) < room:
                memo[key] = known
        elif known:
            found += known
            counter.found = found
            if limit is not None and found >= limit:
                raise Enough
        return known

    try:
        return completions(state.slices, state.open_items)
    except Enough:
        return limit if limit is not None else found


def count_by_search(tables: CoverTables, state: State, counter: SearchStats, limit: int | None = None) -> int:
    """The number of exact covers extending `state` by plain search, up to `limit`."""
    for _ in search(tables, state, counter):
        counter.found += 1
        if limit is not None and counter.found >= limit:
            break
    return counter.found


class DlxBackend(BuiltinBackend):
    """Algorithm X over the exact-cover matrix, pure Python: `dlx`."""

    family = "dlx"

    def solve_within(self, puzzle: Puzzle, deadline: Deadline) -> Result:
        tables = cover_tables(puzzle.geometry)
        counter = SearchStats(deadline)
        state = start_state(tables, puzzle)
        if state is None:
            return answer(None, nodes=0, branches=0)
        try:
            cover = next(search(tables, state, counter), None)
        except TimeLimitReached:
            return out_of_time(nodes=counter.nodes, branches=counter.branches)
        grid = None if cover is None else tables.matrix.grid(cover)
        return answer(grid, nodes=counter.nodes, branches=counter.branches)

    def solutions_within(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        """Every solution in search order."""
        tables = cover_tables(puzzle.geometry)
        state = start_state(tables, puzzle)
        if state is None:
            return
        for cover in search(tables, state, SearchStats(deadline)):
            yield tables.matrix.grid(cover)

    def count_within(self, puzzle: Puzzle, limit: int | None, deadline: Deadline) -> int:
        """The number of solutions up to `limit`, without building grids (memoised Algorithm X).

        >>> DlxBackend().count(Puzzle.empty(Geometry(2, 2)))
        288
        """
        tables = cover_tables(puzzle.geometry)
        state = start_state(tables, puzzle)
        if state is None:
            return 0
        counter = SearchStats(deadline)
        try:
            return count_covers(tables, state, counter, limit)
        except KeyboardInterrupt:
            raise Interrupted(counter.found) from None
