"""Make variant puzzles for the tests and the benchmark: each with exactly one solution, checked twice.

    python scripts/make_variant_puzzles.py            # puzzles/variants/*.txt, deterministic (seed 2026)
    python scripts/make_variant_puzzles.py --count 50 --out /tmp/variants

A puzzle is made by placing random givens (each one keeping the puzzle solvable, asked of the SAT
backend) until it has exactly one solution, then removing givens in random order while it stays
unique. Jigsaw regions are the boxes reshaped by random swaps that keep every region connected. Every puzzle written has been counted by
two backends of different kinds (pysat and dlx: exactly one solution each) and its solution passed
the independent verifier.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from satdoku.backends.registry import get_backend
from satdoku.models.formats import format_line
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution

SETS = {  # file name: (box rows, box cols, rules, jigsaw?)
    "x_9x9": (3, 3, ("x",), False),
    "antiknight_9x9": (3, 3, ("antiknight",), False),
    "windoku_9x9": (3, 3, ("windoku",), False),
    "jigsaw_9x9": (3, 3, (), True),
    "x_6x6": (2, 3, ("x",), False),
    "antiking_8x8": (2, 4, ("antiking",), False),
    "nonconsecutive_6x6": (2, 3, ("nonconsecutive",), False),
    "disjointgroups_6x6": (2, 3, ("disjointgroups",), False),
    "jigsaw_6x6": (2, 3, (), True),
}


def jigsaw_regions(n: int, rng: random.Random, box_rows: int, box_cols: int,
                   swaps: int = 200) -> tuple[tuple[int, ...], ...]:
    """n connected regions of n cells: the boxes, reshaped by random trades between two neighbouring
    regions (one gives a cell on their border, the other gives one back, so sizes stay n; a trade is
    kept only when both regions stay connected)."""
    owner = [(cell // n // box_rows) * box_rows + cell % n // box_cols for cell in range(n * n)]
    done = 0
    while done < swaps:
        a = rng.randrange(n * n)
        others = [owner[m] for m in neighbours(a, n) if owner[m] != owner[a]]
        if not others:
            continue
        home, away = owner[a], rng.choice(others)
        giving = [c for c in range(n * n) if owner[c] == away and c != a
                  and any(owner[m] == home for m in neighbours(c, n))]
        b = rng.choice(giving)
        owner[a], owner[b] = away, home  # a moves to the next region, b comes back: sizes stay n
        if connected(owner, home, n) and connected(owner, away, n):
            done += 1
        else:
            owner[a], owner[b] = home, away
    return tuple(tuple(c for c in range(n * n) if owner[c] == k) for k in range(n))


def connected(owner: list[int], region: int, n: int) -> bool:
    """True when the cells of `region` form one orthogonally connected piece."""
    cells = [c for c in range(n * n) if owner[c] == region]
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        for m in neighbours(todo.pop(), n):
            if owner[m] == region and m not in seen:
                seen.add(m)
                todo.append(m)
    return len(seen) == len(cells)


def neighbours(cell: int, n: int, diagonal: bool = False) -> list[int]:
    """The orthogonal (and, asked, diagonal) neighbours of a cell."""
    r, c = divmod(cell, n)
    steps = [(0, 1), (1, 0), (0, -1), (-1, 0)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if diagonal else [])
    return [(r + dr) * n + c + dc for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n]


def unique_puzzle(g: Geometry, rng: random.Random) -> Puzzle | None:
    """Random givens, each keeping a solution, until exactly one is left; then as few as stay unique."""
    sat = get_backend("pysat")
    cells = [0] * g.n_cells
    if not sat.solve(Puzzle(g, tuple(cells))).solved:
        return None
    while sat.count(Puzzle(g, tuple(cells)), limit=2) > 1:
        cell = rng.choice([c for c in range(g.n_cells) if not cells[c]])
        for digit in rng.sample(range(1, g.n + 1), g.n):
            cells[cell] = digit
            if sat.solve(Puzzle(g, tuple(cells))).solved:
                break
    return fewest_givens(g, cells, rng)


def fewest_givens(g: Geometry, cells: list[int], rng: random.Random) -> Puzzle:
    """A unique puzzle with its givens removed in random order while it stays unique (pysat counts to 2)."""
    sat = get_backend("pysat")
    for cell in rng.sample(range(g.n_cells), g.n_cells):
        if cells[cell]:
            trial = cells.copy()
            trial[cell] = 0
            if sat.count(Puzzle(g, tuple(trial)), limit=2) == 1:
                cells = trial
    return Puzzle(g, tuple(cells))


def checked(puzzle: Puzzle) -> Puzzle:
    """The puzzle, after pysat and dlx each found exactly one solution and the verifier accepted it."""
    for name in ("pysat", "dlx"):
        grids = list(get_backend(name).solutions(puzzle, limit=2))
        assert len(grids) == 1 and is_solution(grids[0], puzzle), f"{name}: {len(grids)} solutions"
    return puzzle


def make_set(name: str, count: int, seed: int) -> list[Puzzle]:
    """`count` unique puzzles of one set."""
    box_rows, box_cols, rules, jigsaw = SETS[name]
    rng = random.Random(f"{seed}-{name}")
    puzzles = []
    while len(puzzles) < count:
        n = box_rows * box_cols
        regions = jigsaw_regions(n, rng, box_rows, box_cols) if jigsaw else None
        g = Geometry(box_rows, box_cols).with_rules(rules, regions)
        puzzle = unique_puzzle(g, rng)
        if puzzle is not None:
            puzzles.append(checked(puzzle))
    return puzzles


def write_set(puzzles: list[Puzzle], path: Path, name: str, seed: int) -> None:
    """The text form (satdoku.models.formats), puzzles separated by blank lines, with a header."""
    from satdoku.models.formats import to_text_form
    head = f"# {name}: {len(puzzles)} puzzles made by scripts/make_variant_puzzles.py (seed {seed}), each unique\n\n"
    path.write_text(head + "\n".join(to_text_form(p) for p in puzzles))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles per set (default 20)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default="puzzles/variants")
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.sets:
        puzzles = make_set(name, args.count, args.seed)
        write_set(puzzles, out / f"{name}.txt", name, args.seed)
        givens = sorted(p.n_givens for p in puzzles)
        print(f"{name}: {len(puzzles)} puzzles, givens {givens[0]}-{givens[-1]}, "
              f"e.g. {format_line(puzzles[0].cells, puzzles[0])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
