"""The model: geometry, the exact-cover matrix and its reduction by givens, the verifier."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satdoku.errors import InputError
from satdoku.models.formats import parse_puzzle
from satdoku.models.generate import random_grid, random_puzzle
from satdoku.models.geometry import Geometry, default_geometry, parse_box
from satdoku.models.matrix import exact_cover
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import given_conflict, is_complete_grid, is_solution, solution_problems

SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4), (4, 4), (5, 5)]
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_matrix_shape_and_incidence(shape: tuple[int, int]) -> None:
    g = Geometry(*shape)
    n = g.n
    m = exact_cover(g)
    assert len(m.option_items) == n ** 3 and all(len(items) == 4 for items in m.option_items)
    assert m.n_items == m.n_primary == 4 * n * n and all(len(options) == n for options in m.item_options)
    for o in random.Random(0).sample(range(n ** 3), 50):
        r, c, d = m.placement(o)
        assert o == r * n * n + c * n + d == m.option(r, c, d)
        expected = [r * n + c, n * n + r * n + d, n * n + (n + c) * n + d,
                    n * n + (2 * n + g.box_of(r, c)) * n + d]
        assert sorted(m.option_items[o]) == sorted(expected)
    for item, options in enumerate(m.item_options):
        assert all(item in m.option_items[o] for o in options)


def test_names() -> None:
    m = exact_cover(Geometry(3, 3))
    assert m.option_name(0) == "r1c1=1" and m.option_name(728) == "r9c9=9"
    assert m.item_name(0) == "cell r1c1" and m.item_name(81) == "row 1 digit 1"
    assert m.item_name(81 + 9 * 9 + 4) == "column 1 digit 5" and m.item_name(323) == "box 9 digit 9"


def test_reduce_by_givens() -> None:
    p = parse_puzzle(INKALA)
    m = exact_cover(p.geometry)
    reduced = m.reduce(p)
    assert len(reduced.selected) == 21 and not reduced.dead
    assert len(reduced.items) == 324 - 4 * 21
    chosen = set(reduced.selected.tolist())
    for item, options in zip(reduced.items, reduced.item_options):
        assert len(options) and not chosen & set(options.tolist())
        assert set(options.tolist()) <= set(reduced.options.tolist())
    # every option left shares no item with a given
    covered = {i for o in reduced.selected.tolist() for i in m.option_items[o]}
    assert not covered & {i for o in reduced.options.tolist() for i in m.option_items[o]}


def test_reduce_marks_dead_givens() -> None:
    clash = Puzzle(Geometry(2, 2), (1, 1) + (0,) * 14)
    assert exact_cover(clash.geometry).reduce(clash).dead
    starved = parse_puzzle("12..\n..3.\n....\n....")
    assert exact_cover(starved.geometry).reduce(starved).dead


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_verifier_accepts_grids_and_rejects_every_swap(shape: tuple[int, int]) -> None:
    g = Geometry(*shape)
    rng = random.Random(1)
    grid = random_grid(g, rng)
    assert is_complete_grid(grid, g)
    for _ in range(20):
        i, j = rng.sample(range(g.n_cells), 2)
        if grid[i] == grid[j]:
            continue
        swapped = list(grid)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        assert not is_complete_grid(swapped, g)


def test_verifier_checks_givens_and_values() -> None:
    g = Geometry(2, 2)
    grid = random_grid(g, random.Random(2))
    other = tuple(5 - v for v in grid)  # relabelled: still a grid, but breaks the givens
    puzzle = Puzzle(g, grid[:1] + (0,) * 15)
    assert is_solution(grid, puzzle) and not is_solution(other, puzzle)
    assert "outside 1..4" in solution_problems((0,) + grid[1:], Puzzle.empty(g))[0]
    assert solution_problems(grid[:-1], puzzle) == ["grid has 15 cells, expected 16"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SHAPES), st.integers(0, 10 ** 6))
def test_verifier_agrees_with_the_matrix(shape: tuple[int, int], seed: int) -> None:
    """A grid is a solution exactly when its placements cover every item of the matrix once."""
    g = Geometry(*shape)
    rng = random.Random(seed)
    grid = list(random_grid(g, rng))
    if rng.random() < 0.5:
        grid[rng.randrange(g.n_cells)] = rng.randint(1, g.n)
    m = exact_cover(g)
    options = [i * g.n + v - 1 for i, v in enumerate(grid)]
    counts = np.bincount([i for o in options for i in m.option_items[o]], minlength=m.n_items)
    assert is_complete_grid(grid, g) == bool((counts == 1).all())


def test_given_conflict_names_both_cells() -> None:
    cells = [0] * 36
    cells[2] = cells[7] = 4  # r1c3 and r2c2: the same 2x3 box, different rows and columns
    assert given_conflict(Puzzle(Geometry(2, 3), tuple(cells))) == "digit 4 twice in box 1: r1c3 and r2c2"
    assert given_conflict(random_puzzle(Geometry(3, 3), random.Random(5))) is None


@pytest.mark.parametrize("text", ["0x3", "3", "axb", "2x40"])
def test_bad_box_shapes(text: str) -> None:
    with pytest.raises(InputError):
        parse_box(text)


def test_sides_without_a_box_shape() -> None:
    with pytest.raises(InputError, match="side 7 has no box shape"):
        default_geometry(7)
    assert default_geometry(8) == Geometry(2, 4) and Geometry(4, 2).transposed() == Geometry(2, 4)


@pytest.mark.parametrize("shape", [(1, 2), (2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4), (2, 5), (5, 5)])
def test_houses_are_rows_columns_and_boxes_by_arithmetic(shape: tuple[int, int]) -> None:
    """`Geometry.houses`, which the verifier reads, against rows, columns and boxes worked out here by
    arithmetic alone (an independent check of the one list every encoder and the verifier use)."""
    r, c = shape
    g = Geometry(r, c)
    n = g.n
    rows = {frozenset(i * n + j for j in range(n)) for i in range(n)}
    cols = {frozenset(i * n + j for i in range(n)) for j in range(n)}
    boxes = {frozenset((br + i) * n + bc + j for i in range(r) for j in range(c))
             for br in range(0, n, r) for bc in range(0, n, c)}
    assert {frozenset(h) for h in g.houses} == rows | cols | boxes
    assert len(g.houses) == 3 * n == len(g.house_names)
    for name, cells in zip(g.house_names, g.houses):
        kind = name.split()[0]
        assert frozenset(cells) in {"row": rows, "column": cols, "box": boxes}[kind]
