"""Sudoku geometry: box shape, side, cells and houses for any r x c box."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import combinations
from math import comb

from satdoku.errors import InputError

MAX_SIDE = 64
MAX_TABLE = 100_000  # digit combinations of one killer cage, or digit tuples of one arrow, satdoku lists


# rules that need no data, by the names f-puzzles uses; "x" is both diagonals
NAMED_RULES = ("diagonal-", "diagonal+", "windoku", "disjointgroups", "antiknight", "antiking", "nonconsecutive",
               "negative-difference", "negative-ratio", "negative-xv")
RULE_ALIASES = {"x": ("diagonal-", "diagonal+"), "diagonals": ("diagonal-", "diagonal+"),
                "hyper": ("windoku",), "disjoint": ("disjointgroups",), "anti-knight": ("antiknight",),
                "anti-king": ("antiking",), "non-consecutive": ("nonconsecutive",)}
CONFLICT_RULES = ("antiknight", "antiking", "nonconsecutive", "negative-difference", "negative-ratio", "negative-xv")
# marks between two cells, by kind: what the two digits must satisfy (f-puzzles: difference, ratio, xv)
MARKS: dict[str, Callable[[int, int], bool]] = {
    "white": lambda x, y: abs(x - y) == 1,         # kropki white dot: consecutive
    "black": lambda x, y: x == 2 * y or y == 2 * x,  # kropki black dot: one is twice the other
    "x": lambda x, y: x + y == 10,
    "v": lambda x, y: x + y == 5,
}
# a negative rule: on side-by-side cells with none of these marks, the marks' relations may not hold
NEGATIVE = {"negative-difference": (("white",), ("white", "black")), "negative-ratio": (("black",), ("white", "black")),
            "negative-xv": (("x", "v"), ("x", "v"))}  # rule: (relations forbidden, marks that exempt a pair)


@dataclass(frozen=True, repr=False)
class Geometry:
    """A grid of side n = box_rows * box_cols and its rules: the houses (rows, columns, and boxes or
    jigsaw `regions`), the named rules (`NAMED_RULES`) and any `extra_regions` (a region of n cells is
    a house; a smaller one may not repeat a digit).

    >>> Geometry(2, 4).n
    8
    >>> len(Geometry(3, 3, rules=("diagonal-", "diagonal+")).houses)
    29
    """

    box_rows: int
    box_cols: int
    rules: tuple[str, ...] = ()
    regions: tuple[tuple[int, ...], ...] | None = None
    extra_regions: tuple[tuple[int, ...], ...] = ()
    marks: tuple[tuple[str, int, int], ...] = ()        # (kind from MARKS, cell, cell)
    thermometers: tuple[tuple[int, ...], ...] = ()      # cells from the bulb: digits strictly increase
    cages: tuple[tuple[tuple[int, ...], int | None], ...] = ()  # (cells, total or None): killer cages
    arrows: tuple[tuple[int, tuple[int, ...]], ...] = ()        # (circle cell, arrow cells): circle = sum

    def __post_init__(self) -> None:
        if self.box_rows < 1 or self.box_cols < 1:
            raise InputError(f"box {self.box_rows}x{self.box_cols}: both sides must be at least 1")
        if not 2 <= self.n <= MAX_SIDE:
            raise InputError(f"box {self.box_rows}x{self.box_cols}: side {self.n} is outside 2..{MAX_SIDE}")
        unknown = [r for r in self.rules if r not in NAMED_RULES]
        if unknown:
            raise InputError(f"unknown rule {unknown[0]!r}; satdoku knows {', '.join(NAMED_RULES)} (and x)")
        if self.regions is not None:
            check_regions(self.regions, self.n)
        for k, region in enumerate(self.extra_regions, 1):
            check_extra_region(region, self.n, k)
        if "windoku" in self.rules and not windows(self.n, self.box_rows, self.box_cols):
            raise InputError(f"windoku: a {self.label} grid has no room for windows between its boxes")
        if "disjointgroups" in self.rules and self.regions is not None:
            raise InputError("disjoint groups need boxes: they are the same position in every box, "
                             "and jigsaw regions have no positions")
        for kind, a, b in self.marks:
            check_mark(kind, a, b, self.n)
        for k, line in enumerate(self.thermometers, 1):
            check_thermometer(line, self.n, k)
        for k, (cells, total) in enumerate(self.cages, 1):
            check_cage(cells, total, self.n, k)
        for k, (circle, cells) in enumerate(self.arrows, 1):
            check_arrow(circle, cells, self.n, k)

    def __repr__(self) -> str:
        extra = "".join(f", {name}={getattr(self, name)!r}" for name, empty in
                        (("rules", ()), ("regions", None), ("extra_regions", ()), ("marks", ()), ("thermometers", ()),
                         ("cages", ()), ("arrows", ()))
                        if getattr(self, name) != empty)
        return f"Geometry(box_rows={self.box_rows}, box_cols={self.box_cols}{extra})"

    @property
    def is_classic(self) -> bool:
        """True for rows, columns and r x c boxes alone."""
        return not (self.rules or self.regions is not None or self.extra_regions or self.marks or self.thermometers
                    or self.cages or self.arrows)

    def with_rules(self, rules: tuple[str, ...] = (), regions: tuple[tuple[int, ...], ...] | None = None,
                   extra_regions: tuple[tuple[int, ...], ...] = ()) -> "Geometry":
        """The same box shape with more rules (names or aliases such as 'x'), regions or extra regions.

        >>> Geometry(2, 2).with_rules(("x",)).rules
        ('diagonal-', 'diagonal+')
        """
        names = canonical_rules(self.rules + tuple(rules))
        return replace(self, rules=names, regions=self.regions if regions is None else tuple(tuple(r) for r in regions),
                       extra_regions=self.extra_regions + tuple(tuple(r) for r in extra_regions))

    def with_marks(self, marks: tuple[tuple[str, int, int], ...] = (),
                   thermometers: tuple[tuple[int, ...], ...] = ()) -> "Geometry":
        """The same rules with more marks between cells (kropki dots, X, V) and thermometers.

        >>> len(Geometry(2, 2).with_marks(thermometers=((0, 1, 2),)).conflicts)
        20
        """
        return replace(self, marks=self.marks + tuple((k, a, b) for k, a, b in marks),
                       thermometers=self.thermometers + tuple(tuple(t) for t in thermometers))

    def with_sums(self, cages: tuple[tuple[tuple[int, ...], int | None], ...] = (),
                  arrows: tuple[tuple[int, tuple[int, ...]], ...] = ()) -> "Geometry":
        """The same rules with more killer cages (cells, total or None) and arrows (circle, arrow cells).

        >>> Geometry(2, 2).with_sums(cages=(((0, 1), 3),)).cage_combinations
        (((1, 2),),)
        """
        return replace(self, cages=self.cages + tuple((tuple(c), t) for c, t in cages),
                       arrows=self.arrows + tuple((circle, tuple(cells)) for circle, cells in arrows))

    @property
    def n(self) -> int:
        """Side of the grid, also the number of digits."""
        return self.box_rows * self.box_cols

    @property
    def n_cells(self) -> int:
        return self.n * self.n

    @property
    def label(self) -> str:
        """Human label such as '8x8 (2x4 boxes)' or '9x9 (jigsaw regions; diagonal-, antiknight)'."""
        shape = "jigsaw regions" if self.regions is not None else f"{self.box_rows}x{self.box_cols} boxes"
        extras = list(self.rules) + ([f"{len(self.extra_regions)} extra regions"] if self.extra_regions else []) \
            + ([f"{len(self.marks)} marks"] if self.marks else []) \
            + ([f"{len(self.thermometers)} thermometers"] if self.thermometers else []) \
            + ([plural(len(self.cages), "killer cage")] if self.cages else []) \
            + ([plural(len(self.arrows), "arrow")] if self.arrows else [])
        return f"{self.n}x{self.n} ({shape}" + (f"; {', '.join(extras)}" if extras else "") + ")"

    def box_of(self, r: int, c: int) -> int:
        """Index of the box holding cell (r, c), boxes numbered in reading order.

        >>> Geometry(2, 3).box_of(3, 4)
        3
        """
        return (r // self.box_rows) * self.box_rows + c // self.box_cols

    def transposed(self) -> "Geometry":
        """The box shape turned on its side (classic grids: counting by symmetry uses it)."""
        return Geometry(self.box_cols, self.box_rows)

    @cached_property
    def boxes(self) -> tuple[tuple[int, ...], ...]:
        """The n boxes (or jigsaw regions), each as cell indices in reading order."""
        if self.regions is not None:
            return tuple(tuple(sorted(region)) for region in self.regions)
        n = self.n
        boxes: list[list[int]] = [[] for _ in range(n)]
        for r in range(n):
            for c in range(n):
                boxes[self.box_of(r, c)].append(r * n + c)
        return tuple(tuple(b) for b in boxes)

    @cached_property
    def named_houses(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Every house with its kind: rows, columns, boxes (or regions), then the rules' own houses."""
        n = self.n
        kind = "region" if self.regions is not None else "box"
        found = [("row", tuple(r * n + c for c in range(n))) for r in range(n)]
        found += [("column", tuple(r * n + c for r in range(n))) for c in range(n)]
        found += [(kind, box) for box in self.boxes]
        if "diagonal-" in self.rules:
            found.append(("diagonal", tuple(k * n + k for k in range(n))))
        if "diagonal+" in self.rules:
            found.append(("anti-diagonal", tuple((n - 1 - k) * n + k for k in range(n))))
        if "windoku" in self.rules:
            found += [("window", cells) for cells in windows(n, self.box_rows, self.box_cols)]
        if "disjointgroups" in self.rules:
            found += [("disjoint group", tuple(box[k] for box in self.boxes)) for k in range(n)]
        found += [("extra region", tuple(sorted(r))) for r in self.extra_regions if len(r) == n]
        return tuple(found)

    @cached_property
    def houses(self) -> tuple[tuple[int, ...], ...]:
        """Every house as a tuple of cell indices (r*n + c): rows, columns, boxes, then the rules' houses."""
        return tuple(cells for _, cells in self.named_houses)

    @cached_property
    def house_kinds(self) -> tuple[str, ...]:
        """The kind of each house of `houses`, in the same order: 'row', 'column', 'box', 'diagonal', ..."""
        return tuple(kind for kind, _ in self.named_houses)

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
    def at_most_once(self) -> tuple[tuple[int, ...], ...]:
        """Regions that may not repeat a digit and are not houses: extra regions of fewer than n cells, then
        killer cages without a total (a cage with a total says so through its combinations)."""
        return tuple(tuple(sorted(r)) for r in self.extra_regions if len(r) < self.n) + \
            tuple(tuple(sorted(cells)) for cells, total in self.cages if total is None)

    @cached_property
    def distinct_regions(self) -> tuple[tuple[int, ...], ...]:
        """Every region that may not repeat a digit beyond the houses: `at_most_once`, then the cages with a total."""
        return self.at_most_once + tuple(tuple(sorted(cells)) for cells, total in self.cages if total is not None)

    @cached_property
    def summed_cages(self) -> tuple[tuple[tuple[int, ...], int], ...]:
        """The killer cages with a total, as (cells, total)."""
        return tuple((cells, total) for cells, total in self.cages if total is not None)

    @cached_property
    def cage_combinations(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """For each cage of `summed_cages`, every set of different digits (ascending) that fills it to its total."""
        return tuple(digit_combinations(len(cells), total, self.n) for cells, total in self.summed_cages)

    @cached_property
    def arrow_tuples(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """For each arrow, every (circle digit, arrow digits...) whose arrow digits sum to the circle's."""
        return tuple(sum_tuples(len(cells), self.n) for _, cells in self.arrows)

    @cached_property
    def conflicts(self) -> tuple[tuple[int, int, int, int], ...]:
        """Pairs of placements that may not both hold, as (cell, digit, cell, digit) with digits from 0,
        each pair once (first cell lower): the same digit a knight's or a king's move apart,
        consecutive digits side by side; pairs already in one house are left to the house."""
        n = self.n
        moves: set[tuple[int, int]] = set()
        if "antiknight" in self.rules:
            moves |= {(1, 2), (2, 1), (1, -2), (2, -1)}
        if "antiking" in self.rules:
            moves |= {(1, 1), (1, -1)}
        peers = {(a, b) for cells in self.houses for a in cells for b in cells if a < b}
        out = []
        for r in range(n):
            for c in range(n):
                for dr, dc in sorted(moves):
                    r2, c2 = r + dr, c + dc
                    a, b = r * n + c, r2 * n + c2
                    if 0 <= r2 < n and 0 <= c2 < n and (min(a, b), max(a, b)) not in peers:
                        out += [(min(a, b), d, max(a, b), d) for d in range(n)]
        if "nonconsecutive" in self.rules:
            for r in range(n):
                for c in range(n):
                    for r2, c2 in ((r, c + 1), (r + 1, c)):
                        if r2 < n and c2 < n:
                            a, b = r * n + c, r2 * n + c2
                            out += [(a, d, b, d + 1) for d in range(n - 1)] + [(a, d + 1, b, d) for d in range(n - 1)]
        out += self._relation_conflicts()
        return tuple(sorted(set(out)))

    def _relation_conflicts(self) -> list[tuple[int, int, int, int]]:
        """The digit pairs that marks, negative rules and thermometers forbid, first cell lower."""
        n = self.n
        pairs: list[tuple[int, int, Callable[[int, int], bool]]] = []  # (cell, cell, allowed(x, y))
        for kind, a, b in self.marks:
            pairs.append((a, b, MARKS[kind]))
        for line in self.thermometers:
            pairs += [(a, b, lambda x, y: x < y) for a, b in zip(line, line[1:])]
        marked: dict[frozenset, set[str]] = {}
        for kind, a, b in self.marks:
            marked.setdefault(frozenset((a, b)), set()).add(kind)
        for rule, (relations, exempt) in NEGATIVE.items():
            if rule in self.rules:
                for a, b in side_by_side(n):
                    if not marked.get(frozenset((a, b)), set()) & set(exempt):
                        pairs.append((a, b, lambda x, y, rel=relations: not any(MARKS[k](x, y) for k in rel)))
        out = []
        for a, b, allowed in pairs:
            for x in range(1, n + 1):
                for y in range(1, n + 1):
                    if not allowed(x, y):
                        out.append((a, x - 1, b, y - 1) if a < b else (b, y - 1, a, x - 1))
        return out

    @cached_property
    def conflict_partners(self) -> tuple[tuple[tuple[int, int, int], ...], ...]:
        """For each cell, (bit of its digit, other cell, other's digit 1..n) per conflict: the cell may not
        hold that digit while the other cell holds that one (empty tuples for a classic grid)."""
        return _partners(self.conflicts, self.n_cells)

    @cached_property
    def houses_of_cell(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices of the houses that contain it."""
        out: list[list[int]] = [[] for _ in range(self.n_cells)]
        for h, cells in enumerate(self.houses):
            for cell in cells:
                out[cell].append(h)
        return tuple(tuple(hs) for hs in out)


def _partners(conflicts: tuple[tuple[int, int, int, int], ...], n_cells: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per cell, (bit of its digit, other cell, other cell's digit 1..n) for each conflict it is in."""
    partners: list[list[tuple[int, int, int]]] = [[] for _ in range(n_cells)]
    for a, da, b, db in conflicts:
        partners[a].append((1 << da, b, db + 1))
        partners[b].append((1 << db, a, da + 1))
    return tuple(tuple(p) for p in partners)


def canonical_rules(names: tuple[str, ...]) -> tuple[str, ...]:
    """Rule names with aliases expanded, each once, in the order of NAMED_RULES (unknown names kept last).

    >>> canonical_rules(("antiknight", "x", "antiknight"))
    ('diagonal-', 'diagonal+', 'antiknight')
    """
    expanded = [alias for name in names for alias in RULE_ALIASES.get(name.strip().lower(), (name.strip().lower(),))]
    known = [r for r in NAMED_RULES if r in expanded]
    return tuple(known + [r for r in dict.fromkeys(expanded) if r not in NAMED_RULES])


def windows(n: int, box_rows: int, box_cols: int) -> tuple[tuple[int, ...], ...]:
    """The windoku (hyper) windows: boxes of the box shape set one cell in from each box edge, with one
    row or column between windows (9x9: r2-4 and r6-8 by c2-4 and c6-8).

    >>> len(windows(9, 3, 3)), windows(9, 3, 3)[0][:3]
    (4, (10, 11, 12))
    """
    rows = range(1, n - box_rows + 1, box_rows + 1)
    cols = range(1, n - box_cols + 1, box_cols + 1)
    return tuple(tuple((r0 + i) * n + c0 + j for i in range(box_rows) for j in range(box_cols))
                 for r0 in rows for c0 in cols)


def side_by_side(n: int) -> list[tuple[int, int]]:
    """Every pair of orthogonally adjacent cells, each once.

    >>> side_by_side(2)
    [(0, 1), (0, 2), (1, 3), (2, 3)]
    """
    return [(r * n + c, r2 * n + c2) for r in range(n) for c in range(n)
            for r2, c2 in ((r, c + 1), (r + 1, c)) if r2 < n and c2 < n]


def check_mark(kind: str, a: int, b: int, n: int) -> None:
    """A mark joins two different cells of the grid and is of a known kind."""
    if kind not in MARKS:
        raise InputError(f"unknown mark {kind!r}; satdoku knows {', '.join(MARKS)}")
    for cell in (a, b):
        if not 0 <= cell < n * n:
            raise InputError(f"{kind} mark: a cell outside the {n}x{n} grid")
    if a == b:
        raise InputError(f"{kind} mark on r{a // n + 1}c{a % n + 1} alone: a mark joins two cells")


def check_thermometer(line: tuple[int, ...], n: int, k: int) -> None:
    """A thermometer holds 2 to n different cells of the grid (its digits strictly increase)."""
    if len(line) < 2:
        raise InputError(f"thermometer {k}: {len(line)} cell; a thermometer has a bulb and at least one more")
    if len(line) > n:
        raise InputError(f"thermometer {k}: {len(line)} cells, more than the {n} digits can rise along")
    if len(set(line)) != len(line) or any(not 0 <= cell < n * n for cell in line):
        raise InputError(f"thermometer {k}: its cells must be different cells of the {n}x{n} grid")


def digit_combinations(size: int, total: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Every set of `size` different digits of 1..n summing to `total`, ascending.

    >>> digit_combinations(2, 5, 4)
    ((1, 4), (2, 3))
    """
    if size * (size + 1) // 2 > total or total > size * (2 * n - size + 1) // 2:
        return ()
    return tuple(c for c in combinations(range(1, n + 1), size) if sum(c) == total)


def sum_tuples(length: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Every (total, x1..x_length) with digits x of 1..n (repeats allowed) summing to a total of 1..n.

    >>> sum_tuples(2, 3)
    ((2, 1, 1), (3, 1, 2), (3, 2, 1))
    """
    out: list[tuple[int, ...]] = []

    def grow(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == length:
            out.append((sum(prefix),) + prefix)
            return
        for x in range(1, left - (length - len(prefix) - 1) + 1):
            grow(prefix + (x,), left - x)

    grow((), n)
    return tuple(sorted(out))


def table_size(kind: str, count: int, k: int, where: str) -> None:
    """An InputError when a cage's or an arrow's table is too long to list."""
    if count > MAX_TABLE:
        raise InputError(f"{kind} {k} at {where}: {count:,} digit {'sets' if kind == 'killer cage' else 'tuples'}, "
                         f"more than satdoku lists ({MAX_TABLE:,})")


def check_cage(cells: tuple[int, ...], total: int | None, n: int, k: int) -> None:
    """A killer cage holds 1 to n different cells of the grid, and its total (if any) is reachable."""
    where = cell_label(cells[0], n) if cells and 0 <= cells[0] < n * n else "?"
    if not 1 <= len(cells) <= n:
        raise InputError(f"killer cage {k}: {len(cells)} cells; a cage holds 1 to {n} (its digits differ)")
    if any(not 0 <= cell < n * n for cell in cells):
        raise InputError(f"killer cage {k}: a cell outside the {n}x{n} grid")
    if len(set(cells)) != len(cells):
        raise InputError(f"killer cage {k} at {where} lists a cell twice")
    if total is None:
        return
    if isinstance(total, bool) or not isinstance(total, int):
        raise InputError(f"killer cage {k} at {where}: total {total!r} is not a whole number")
    size = len(cells)
    low, high = size * (size + 1) // 2, size * (2 * n - size + 1) // 2
    if not low <= total <= high:
        raise InputError(f"killer cage {k} at {where}: {size} different digits of 1..{n} sum to {low}..{high}, "
                         f"not {total}")
    table_size("killer cage", _count_combinations(size, total, n), k, where)


def _count_combinations(size: int, total: int, n: int) -> int:
    """How many sets of `size` different digits of 1..n sum to `total` (dynamic programming, no listing)."""
    ways = [[0] * (total + 1) for _ in range(size + 1)]  # ways[j][s]: j digits summing to s
    ways[0][0] = 1
    for digit in range(1, n + 1):
        for j in range(min(size, digit), 0, -1):
            for s in range(total, digit - 1, -1):
                ways[j][s] += ways[j - 1][s - digit]
    return ways[size][total]


def check_arrow(circle: int, cells: tuple[int, ...], n: int, k: int) -> None:
    """An arrow has a circle and 1 to n - 1 different other cells of the grid."""
    if not 0 <= circle < n * n or any(not 0 <= cell < n * n for cell in cells):
        raise InputError(f"arrow {k}: a cell outside the {n}x{n} grid")
    where = cell_label(circle, n)
    if not cells:
        raise InputError(f"arrow {k} at {where}: a circle and no arrow; an arrow has at least one cell")
    if circle in cells or len(set(cells)) != len(cells):
        raise InputError(f"arrow {k} at {where}: its cells must be different cells, the circle not among them")
    if len(cells) >= n:
        raise InputError(f"arrow {k} at {where}: {len(cells)} cells sum to at least {len(cells)}, more than the "
                         f"circle's largest digit {n}")
    table_size("arrow", comb(n, len(cells)), k, where)


def plural(count: int, noun: str) -> str:
    """A count and its noun, with an s when not one.

    >>> plural(1, "arrow"), plural(2, "arrow")
    ('1 arrow', '2 arrows')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def cell_label(cell: int, n: int) -> str:
    """A cell as r1c1 (1-based)."""
    return f"r{cell // n + 1}c{cell % n + 1}"


def check_regions(regions: tuple[tuple[int, ...], ...], n: int) -> None:
    """Jigsaw regions must be n regions of n cells each, every cell in exactly one."""
    if len(regions) != n:
        raise InputError(f"jigsaw: {len(regions)} regions, a {n}x{n} grid needs {n}")
    seen: dict[int, int] = {}
    for k, region in enumerate(regions, 1):
        if len(region) != n:
            raise InputError(f"jigsaw: region {k} has {len(region)} cells, each needs {n}")
        for cell in region:
            if not 0 <= cell < n * n:
                raise InputError(f"jigsaw: region {k} has a cell outside the {n}x{n} grid")
            if cell in seen:
                raise InputError(f"jigsaw: cell r{cell // n + 1}c{cell % n + 1} is in regions {seen[cell]} and {k}")
            seen[cell] = k


def check_extra_region(region: tuple[int, ...], n: int, k: int) -> None:
    """An extra region holds at most n distinct cells of the grid."""
    if not 1 <= len(region) <= n:
        raise InputError(f"extra region {k}: {len(region)} cells; a region holds 1 to {n}")
    if len(set(region)) != len(region):
        raise InputError(f"extra region {k} lists a cell twice")
    if any(not 0 <= cell < n * n for cell in region):
        raise InputError(f"extra region {k} has a cell outside the {n}x{n} grid")


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
