"""Make killer, thermometer and kropki puzzles as f-puzzles JSON, each unique, checked by two backends.

    python scripts/make_sum_puzzles.py                 # puzzles/variants/<set>/NN.json, deterministic
    python scripts/make_sum_puzzles.py --count 100 --sets killer_9x9 --out /tmp/killers

Every puzzle starts from a random complete grid (random givens kept solvable until one grid is left).
- killer: no givens. The grid is cut into random connected cages of 2 to 5 cells with different digits
  (a cell left alone joins a neighbouring cage that lacks its digit), each with its sum; while the cages
  allow two grids, the cage of a cell where two of them differ is split in two connected parts (a
  smaller cage says more), so the puzzle ends unique; then neighbouring cages are merged, at random,
  as long as the puzzle stays unique (fewer, larger cages make it harder).
- thermometer: random thermometers along rising digits of the grid (paths through neighbouring cells,
  diagonals too), then givens from the grid until unique, then as few givens as stay unique.
- kropki: every dot the grid has (white between consecutive digits, black where one is twice the other;
  a 1-2 pair gets one of the two at random) with both negative rules, then givens as for thermometers.

Each file also holds the grid as `solution` (f-puzzles' own key, which satdoku's reader ignores), so a
test compares a solver's answer with it. Every puzzle written has exactly one solution by pysat and by dlx,
and that solution is the grid, accepted by the independent verifier.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from make_variant_puzzles import fewest_givens, neighbours  # the sibling script (scripts/ is on sys.path)
from satdoku.backends.registry import get_backend
from satdoku.models.fpuzzles import fpuzzles_object, to_fpuzzles
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Grid, Puzzle
from satdoku.models.verify import is_solution

SETS = {"killer_9x9": (3, 3, "killer"), "killer_6x6": (2, 3, "killer"),
        "thermo_9x9": (3, 3, "thermo"), "thermo_6x6": (2, 3, "thermo"),
        "kropki_9x9": (3, 3, "kropki"), "kropki_6x6": (2, 3, "kropki")}
CAGE_SIZES = (2, 2, 3, 3, 3, 4, 4, 5)  # drawn at random for each new cage
MAX_CAGE = 5        # merged cages stay this small
MERGE_TRIES = 12    # merges tried once the puzzle is unique


def random_grid(g: Geometry, rng: random.Random) -> Grid:
    """A random complete grid: random givens, each keeping a solution, until one grid is left."""
    sat = get_backend("pysat")
    cells = [0] * g.n_cells
    while True:
        grids = list(sat.solutions(Puzzle(g, tuple(cells)), limit=2))
        if len(grids) == 1:
            return grids[0]
        cell = rng.choice([c for c in range(g.n_cells) if not cells[c]])
        for digit in rng.sample(range(1, g.n + 1), g.n):
            cells[cell] = digit
            if sat.solve(Puzzle(g, tuple(cells))).solved:
                break


def random_cages(grid: Grid, n: int, rng: random.Random) -> list[list[int]]:
    """Connected cages covering the grid, each cell once, no digit twice in a cage."""
    free = set(range(n * n))
    cages = []
    for start in rng.sample(range(n * n), n * n):
        if start not in free:
            continue
        size, cage = rng.choice(CAGE_SIZES), [start]
        free.discard(start)
        while len(cage) < size:
            digits = {grid[c] for c in cage}
            grow = [m for c in cage for m in neighbours(c, n) if m in free and grid[m] not in digits]
            if not grow:
                break
            cell = rng.choice(grow)
            cage.append(cell)
            free.discard(cell)
        cages.append(cage)
    for cage in [c for c in cages if len(c) == 1]:  # a lone cell joins a neighbouring cage without its digit
        homes = [other for other in cages if len(other) < MAX_CAGE and grid[cage[0]] not in {grid[x] for x in other}
                 and any(m in other for m in neighbours(cage[0], n))]
        if homes:
            cages.remove(cage)
            rng.choice(homes).append(cage[0])
    return cages


def split(cage: list[int], cell: int, n: int) -> list[list[int]]:
    """A cage cut in two at `cell`: the half grown from it, and the connected pieces of the rest."""
    part, todo = [cell], [cell]
    while todo and len(part) < (len(cage) + 1) // 2:
        for m in neighbours(todo.pop(0), n):
            if m in cage and m not in part and len(part) < (len(cage) + 1) // 2:
                part.append(m)
                todo.append(m)
    rest = [c for c in cage if c not in part]
    pieces = []
    while rest:
        piece, todo = [rest[0]], [rest[0]]
        while todo:
            for m in neighbours(todo.pop(), n):
                if m in rest and m not in piece:
                    piece.append(m)
                    todo.append(m)
        pieces.append(piece)
        rest = [c for c in rest if c not in piece]
    return [part] + pieces


def killer_puzzle(g: Geometry, grid: Grid, rng: random.Random) -> Puzzle:
    """A killer with no givens whose only solution is `grid`."""
    sat, n = get_backend("pysat"), g.n
    cages = random_cages(grid, n, rng)
    while True:
        grids = list(sat.solutions(killer(g, grid, cages), limit=2))
        if len(grids) == 1:
            break
        other = next(x for x in grids if x != grid)
        cell = rng.choice([c for c in range(n * n) if other[c] != grid[c] and len(cage_of(cages, c)) > 1])
        cage = cage_of(cages, cell)
        cages.remove(cage)
        cages += split(cage, cell, n)
    for _ in range(MERGE_TRIES):
        a = rng.choice(cages)
        near = [b for b in cages if b is not a and len(a) + len(b) <= MAX_CAGE
                and not {grid[x] for x in a} & {grid[x] for x in b} and any(m in b for x in a for m in neighbours(x, n))]
        if near:
            b = rng.choice(near)
            trial = [c for c in cages if c is not a and c is not b] + [a + b]
            if sat.count(killer(g, grid, trial), limit=2) == 1:
                cages = trial
    return killer(g, grid, cages)


def killer(g: Geometry, grid: Grid, cages: list[list[int]]) -> Puzzle:
    """The killer of these cages (sorted by first cell), totals from the grid, no givens."""
    return Puzzle.empty(g.with_sums(cages=tuple((tuple(sorted(c)), sum(grid[x] for x in c))
                                                for c in sorted(cages, key=min))))


def cage_of(cages: list[list[int]], cell: int) -> list[int]:
    return next(c for c in cages if cell in c)


def thermometers(grid: Grid, n: int, rng: random.Random, count: int) -> list[tuple[int, ...]]:
    """Random paths of 3 to n // 2 + 2 cells along rising digits of the grid, no cell on two of them."""
    used: set[int] = set()
    out = []
    for _ in range(count * 20):
        if len(out) == count:
            break
        bulb = rng.randrange(n * n)
        if bulb in used:
            continue
        line = [bulb]
        while len(line) < rng.randint(3, n // 2 + 2):
            up = [m for m in neighbours(line[-1], n, diagonal=True)
                  if m not in used and m not in line and grid[m] > grid[line[-1]]]
            if not up:
                break
            line.append(rng.choice(up))
        if len(line) >= 3:
            out.append(tuple(line))
            used |= set(line)
    return out


def kropki_marks(grid: Grid, n: int, rng: random.Random) -> list[tuple[str, int, int]]:
    """Every dot of the grid: white between consecutive digits, black where one is twice the other."""
    marks = []
    for a in range(n * n):
        for b in neighbours(a, n):
            if b > a:
                x, y = grid[a], grid[b]
                kinds = [k for k, ok in (("white", abs(x - y) == 1), ("black", x == 2 * y or y == 2 * x)) if ok]
                if kinds:
                    marks.append((rng.choice(kinds), a, b))
    return marks


def with_givens(g: Geometry, grid: Grid, rng: random.Random) -> Puzzle:
    """Givens from `grid` until it is the only solution, then as few as stay unique."""
    sat = get_backend("pysat")
    cells = [0] * g.n_cells
    order = rng.sample(range(g.n_cells), g.n_cells)
    while sat.count(Puzzle(g, tuple(cells)), limit=2) > 1:
        cell = order.pop()
        cells[cell] = grid[cell]
    return fewest_givens(g, cells, rng)


def make_puzzle(kind: str, g: Geometry, rng: random.Random) -> tuple[Puzzle, Grid]:
    """One unique puzzle of a kind, and its solution."""
    grid = random_grid(g, rng)
    if kind == "killer":
        return killer_puzzle(g, grid, rng), grid
    if kind == "thermo":
        lines = thermometers(grid, g.n, rng, count=g.n // 2 + 2)
        return with_givens(g.with_marks(thermometers=tuple(lines)), grid, rng), grid
    marks = kropki_marks(grid, g.n, rng)
    geometry = g.with_rules(("negative-difference", "negative-ratio")).with_marks(marks=tuple(marks))
    return with_givens(geometry, grid, rng), grid


def checked(puzzle: Puzzle, grid: Grid) -> Puzzle:
    """The puzzle, after pysat and dlx each found exactly `grid` and the verifier accepted it."""
    assert is_solution(grid, puzzle)
    for name in ("pysat", "dlx"):
        grids = list(get_backend(name).solutions(puzzle, limit=2))
        assert grids == [grid], f"{name}: {len(grids)} solutions"
    return puzzle


def puzzle_json(puzzle: Puzzle, grid: Grid) -> str:
    """f-puzzles JSON with the solution beside it (f-puzzles' `solution`: the digits in reading order)."""
    data = fpuzzles_object(puzzle)
    text = to_fpuzzles(puzzle)
    assert json.loads(text) == data
    return text.rstrip()[:-1] + f',"solution":{json.dumps(list(grid), separators=(",", ":"))}}}\n'


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles per set (default 20)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default="puzzles/variants")
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    args = parser.parse_args()
    for name in args.sets:
        box_rows, box_cols, kind = SETS[name]
        rng = random.Random(f"{args.seed}-{name}")
        folder = Path(args.out) / name
        folder.mkdir(parents=True, exist_ok=True)
        sizes = []
        for k in range(1, args.count + 1):
            puzzle, grid = make_puzzle(kind, Geometry(box_rows, box_cols), rng)
            (folder / f"{k:02d}.json").write_text(puzzle_json(checked(puzzle, grid), grid))
            g = puzzle.geometry
            sizes.append(len(g.cages) if kind == "killer" else puzzle.n_givens)
        what = "cages" if kind == "killer" else "givens"
        print(f"{name}: {args.count} puzzles in {folder}, {what} {min(sizes)}-{max(sizes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
