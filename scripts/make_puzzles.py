"""Make the bundled puzzles of other sizes: a shuffled complete grid, then clues removed while unique.

Run from the repo root: python scripts/make_puzzles.py (deterministic for a given seed).
Every puzzle written is checked: exactly one solution (pysat enumeration with limit 2), verified.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

from satdoku.backends.registry import get_backend
from satdoku.models.formats import format_line
from satdoku.models.generate import random_grid
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_complete_grid, is_solution

SHAPES = {"6x6_box2x3": (2, 3), "8x8_box2x4": (2, 4), "8x8_box4x2": (4, 2),
          "12x12_box3x4": (3, 4), "16x16_box4x4": (4, 4)}


def minimal_unique(grid: tuple[int, ...], g: Geometry, rng: random.Random, keep: int) -> Puzzle:
    """Remove clues in random order while the puzzle keeps exactly one solution."""
    backend = get_backend("pysat")
    cells = list(grid)
    for i in rng.sample(range(len(cells)), len(cells)):
        if sum(1 for v in cells if v) <= keep:
            break
        trial = cells.copy()
        trial[i] = 0
        if backend.count(Puzzle(g, tuple(trial)), limit=2) == 1:
            cells = trial
    return Puzzle(g, tuple(cells))


def main(seed: int = 2026) -> int:
    out = Path("puzzles")
    for name, (br, bc) in SHAPES.items():
        rng = random.Random(f"{seed}-{name}")
        g = Geometry(br, bc)
        grid = random_grid(g, rng)
        assert is_complete_grid(grid, g)
        puzzle = minimal_unique(grid, g, rng, keep=0)
        assert is_solution(grid, puzzle) and get_backend("pysat").count(puzzle, limit=2) == 1
        box = f" (solve with --box {br}x{bc})" if br > bc else ""
        text = (f"# {g.label}, made by scripts/make_puzzles.py (seed {seed}): {puzzle.n_givens} givens,"
                f" exactly one solution{box}\n{format_line(puzzle.cells, puzzle)}\n")
        (out / f"{name}.txt").write_text(text)
        print(f"{name}: {puzzle.n_givens} givens")
    return 0


if __name__ == "__main__":
    sys.exit(main(*map(int, sys.argv[1:])))
