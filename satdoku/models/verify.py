"""The independent verifier: checks a grid against the rules and the givens directly."""
from __future__ import annotations

from collections.abc import Sequence

from satdoku.models.geometry import CONFLICT_RULES, Geometry
from satdoku.models.puzzle import Puzzle, cell_name


def solution_problems(grid: Sequence[int], puzzle: Puzzle) -> list[str]:
    """Every reason why `grid` is not a solution of `puzzle` (empty when it is one).

    Each rule is checked from its own definition (rows, columns, boxes by arithmetic, regions as the
    input listed them, diagonals, windows, knight and king moves, adjacency), never from the lists
    the encoders are built from (`Geometry.houses`, `Geometry.conflicts`).
    """
    n = puzzle.n
    if len(grid) != n * n:
        return [f"grid has {len(grid)} cells, expected {n * n}"]
    problems = [f"{cell_name(i, n)} holds {v}, outside 1..{n}"
                for i, v in enumerate(grid) if not (isinstance(v, int) and 1 <= v <= n)]
    problems += [f"{cell_name(i, n)} holds {grid[i]} but the given is {g}"
                 for i, g in enumerate(puzzle.cells) if g and grid[i] != g]
    if problems:
        return problems
    rows = [list(grid[r * n:(r + 1) * n]) for r in range(n)]
    g = puzzle.geometry
    return house_problems(rows, g) + rule_problems(rows, g) + mark_problems(rows, g) + sum_problems(rows, g)


def sum_problems(rows: list[list[int]], g: Geometry) -> list[str]:
    """Killer cages (different digits, summing to the total when there is one) and arrows (the arrow's
    digits sum to the circle's), from the cells the input listed."""
    n = g.n
    problems = []
    for k, (cells, total) in enumerate(g.cages, 1):
        digits = [rows[cell // n][cell % n] for cell in cells]
        where = cell_name(cells[0], n)
        if len(set(digits)) != len(digits):
            problems.append(f"killer cage {k} at {where} repeats a digit: {digits}")
        if total is not None and sum(digits) != total:
            problems.append(f"killer cage {k} at {where} sums to {sum(digits)}, not {total}")
    for k, (circle, cells) in enumerate(g.arrows, 1):
        digits = [rows[cell // n][cell % n] for cell in cells]
        if sum(digits) != rows[circle // n][circle % n]:
            problems.append(f"arrow {k}: {'+'.join(map(str, digits))} = {sum(digits)}, but its circle at "
                            f"{cell_name(circle, n)} holds {rows[circle // n][circle % n]}")
    return problems


def mark_problems(rows: list[list[int]], g: Geometry) -> list[str]:
    """Kropki dots, X and V, thermometers and the negative rules, each from its own definition."""
    n = g.n

    def at(cell: int) -> int:
        return rows[cell // n][cell % n]

    def name(cell: int) -> str:
        return cell_name(cell, n)

    checks = {"white": lambda x, y: abs(x - y) == 1, "black": lambda x, y: x == 2 * y or y == 2 * x,
              "x": lambda x, y: x + y == 10, "v": lambda x, y: x + y == 5}
    problems = [f"{kind} mark between {name(a)} and {name(b)}: {at(a)} and {at(b)}"
                for kind, a, b in g.marks if not checks[kind](at(a), at(b))]
    for k, line in enumerate(g.thermometers, 1):
        digits = [at(cell) for cell in line]
        if any(x >= y for x, y in zip(digits, digits[1:])):
            problems.append(f"thermometer {k} from {name(line[0])} does not rise: {digits}")
    marked: dict[frozenset, set[str]] = {}
    for kind, a, b in g.marks:
        marked.setdefault(frozenset((a, b)), set()).add(kind)
    negative = {"negative-difference": ["white"], "negative-ratio": ["black"], "negative-xv": ["x", "v"]}
    for rule, kinds in negative.items():
        if rule not in g.rules:
            continue
        exempt = {"white", "black"} if rule != "negative-xv" else {"x", "v"}
        for r in range(n):
            for c in range(n):
                for r2, c2 in ((r, c + 1), (r + 1, c)):
                    if r2 < n and c2 < n and not marked.get(frozenset((r * n + c, r2 * n + c2)), set()) & exempt:
                        x, y = rows[r][c], rows[r2][c2]
                        if any(checks[kind](x, y) for kind in kinds):
                            problems.append(f"{rule}: r{r + 1}c{c + 1} and r{r2 + 1}c{c2 + 1} hold {x} and {y} "
                                            f"with no mark between them")
    return problems


def house_problems(rows: list[list[int]], g: Geometry) -> list[str]:
    """Rows, columns, boxes (or the jigsaw regions as the input listed them) and extra regions of n
    cells must hold every digit; smaller extra regions may not repeat one."""
    n = g.n
    full = set(range(1, n + 1))
    groups = [(f"row {r + 1}", [(r, c) for c in range(n)]) for r in range(n)]
    groups += [(f"column {c + 1}", [(r, c) for r in range(n)]) for c in range(n)]
    if g.regions is not None:
        groups += [(f"region {k + 1}", [divmod(cell, n) for cell in region]) for k, region in enumerate(g.regions)]
    else:
        br, bc = g.box_rows, g.box_cols
        groups += [(f"box {k + 1}", [((k // br) * br + i, (k % br) * bc + j) for i in range(br) for j in range(bc)])
                   for k in range(n)]
    groups += [(f"extra region {k + 1}", [divmod(cell, n) for cell in region])
               for k, region in enumerate(g.extra_regions)]
    problems = []
    for name, cells in groups:
        values = [rows[r][c] for r, c in cells]
        if len(cells) == n and set(values) != full:
            problems.append(f"{name} misses digits {sorted(full - set(values))}")
        elif len(cells) < n and len(set(values)) != len(values):
            problems.append(f"{name} repeats a digit")
    return problems


def rule_problems(rows: list[list[int]], g: Geometry) -> list[str]:
    """Each named rule, checked from its own definition on the grid's coordinates."""
    n = g.n
    full = set(range(1, n + 1))
    problems = []
    lines = {"diagonal-": [(k, k) for k in range(n)], "diagonal+": [(n - 1 - k, k) for k in range(n)]}
    for rule, cells in lines.items():
        if rule in g.rules and {rows[r][c] for r, c in cells} != full:
            problems.append(f"the {'main' if rule == 'diagonal-' else 'anti'}-diagonal misses a digit")
    if "windoku" in g.rules:
        for r0 in range(1, n - g.box_rows + 1, g.box_rows + 1):
            for c0 in range(1, n - g.box_cols + 1, g.box_cols + 1):
                window = {rows[r0 + i][c0 + j] for i in range(g.box_rows) for j in range(g.box_cols)}
                if window != full:
                    problems.append(f"the window at r{r0 + 1}c{c0 + 1} misses a digit")
    if "disjointgroups" in g.rules:
        for i in range(g.box_rows):
            for j in range(g.box_cols):
                group = {rows[br + i][bc + j] for br in range(0, n, g.box_rows) for bc in range(0, n, g.box_cols)}
                if group != full:
                    problems.append(f"disjoint group {i * g.box_cols + j + 1} misses a digit")
    steps = {"antiknight": [(1, 2), (2, 1), (1, -2), (2, -1)], "antiking": [(1, 1), (1, -1)]}
    for rule, moves in steps.items():
        if rule in g.rules:
            problems += [f"{rule}: r{r + 1}c{c + 1} and r{r + dr + 1}c{c + dc + 1} both hold {rows[r][c]}"
                         for r in range(n) for c in range(n) for dr, dc in moves
                         if 0 <= r + dr < n and 0 <= c + dc < n and rows[r][c] == rows[r + dr][c + dc]]
    if "nonconsecutive" in g.rules:
        problems += [f"nonconsecutive: r{r + 1}c{c + 1} and r{r2 + 1}c{c2 + 1} hold {rows[r][c]} and {rows[r2][c2]}"
                     for r in range(n) for c in range(n) for r2, c2 in ((r, c + 1), (r + 1, c))
                     if r2 < n and c2 < n and abs(rows[r][c] - rows[r2][c2]) == 1]
    return problems


def is_solution(grid: Sequence[int], puzzle: Puzzle) -> bool:
    """True when `grid` fills every house with 1..n and keeps every given.

    >>> from satdoku.models.geometry import Geometry
    >>> p = Puzzle.empty(Geometry(2, 2))
    >>> is_solution((1,2,3,4, 3,4,1,2, 2,1,4,3, 4,3,2,1), p)
    True
    """
    return not solution_problems(grid, puzzle)


def is_complete_grid(grid: Sequence[int], geometry: Geometry) -> bool:
    """True when `grid` is a valid complete grid of the geometry (no givens to keep)."""
    return is_solution(grid, Puzzle.empty(geometry))


def given_conflict(puzzle: Puzzle) -> str | None:
    """The first pair of givens that break a rule together (equal in a house or a small region, or a
    conflict of the rules), as a message, or None. Used to refuse contradictory input.

    >>> from satdoku.models.geometry import Geometry
    >>> given_conflict(Puzzle(Geometry(2, 2), (1, 1) + (0,) * 14))
    'digit 1 twice in row 1: r1c1 and r1c2'
    >>> given_conflict(Puzzle(Geometry(2, 2, rules=("diagonal-",)), (1,) + (0,) * 9 + (1,) + (0,) * 5))
    'digit 1 twice in diagonal 1: r1c1 and r3c3'
    """
    n, g, cells = puzzle.n, puzzle.geometry, puzzle.cells
    groups = list(zip(g.house_names, g.houses)) + [(f"small region {k + 1}", region)
                                                   for k, region in enumerate(g.distinct_regions)]
    for a, da, b, db in g.conflicts:
        if cells[a] == da + 1 and cells[b] == db + 1:
            why = [r for r in g.rules if r in CONFLICT_RULES] + (["marks"] if g.marks else []) + \
                (["thermometers"] if g.thermometers else [])
            return f"{cell_name(a, n)}={da + 1} and {cell_name(b, n)}={db + 1} break the rules ({', '.join(why)})"
    for name, house in groups:
        seen: dict[int, int] = {}
        for cell in house:
            v = cells[cell]
            if not v:
                continue
            if v in seen:
                return f"digit {v} twice in {name}: {cell_name(seen[v], n)} and {cell_name(cell, n)}"
            seen[v] = cell
    return None
