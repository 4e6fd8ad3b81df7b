"""Random complete grids and puzzles, for tests, benchmarks and the bundled puzzles."""
from __future__ import annotations

import random

from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Grid, Puzzle


def pattern_grid(g: Geometry) -> Grid:
    """The standard complete grid: row r is the digits shifted by box_cols*(r % box_rows) + r // box_rows.

    >>> pattern_grid(Geometry(2, 2))
    (1, 2, 3, 4, 3, 4, 1, 2, 2, 3, 4, 1, 4, 1, 2, 3)
    """
    n, br, bc = g.n, g.box_rows, g.box_cols
    return tuple((bc * (r % br) + r // br + c) % n + 1 for r in range(n) for c in range(n))


def random_grid(g: Geometry, rng: random.Random) -> Grid:
    """A random complete grid: the pattern grid under random digit, band, row, stack and column shuffles."""
    n, br, bc = g.n, g.box_rows, g.box_cols
    digits = [0] + rng.sample(range(1, n + 1), n)
    rows = [b * br + r for b in rng.sample(range(n // br), n // br) for r in rng.sample(range(br), br)]
    cols = [s * bc + c for s in rng.sample(range(n // bc), n // bc) for c in rng.sample(range(bc), bc)]
    pattern = pattern_grid(g)
    return tuple(digits[pattern[r * n + c]] for r in rows for c in cols)


def random_puzzle(g: Geometry, rng: random.Random, blank_fraction: float = 0.5) -> Puzzle:
    """A puzzle with at least one solution: a random grid with a fraction of its cells blanked."""
    grid = random_grid(g, rng)
    return Puzzle(g, tuple(0 if rng.random() < blank_fraction else v for v in grid))
