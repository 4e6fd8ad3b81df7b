"""Killer cages and arrows through the one matrix: every backend finds exactly the grids an oracle finds,
counts pinned by two backends and by symmetry, the generated f-puzzles sets solved and unique on four
backends, and impossible data refused in one line or answered `no solution`.

The oracle knows nothing of the encoders: every classic grid (the backtracker on classic rules) that the
independent verifier accepts under the cages and arrows (sums and differences from the cells listed).
"""
from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest

from satdoku.backends.backtrack import fill
from satdoku.backends.registry import get_backend
from satdoku.errors import BackendUnavailable, InputError
from satdoku.models.fpuzzles import read_json_text
from satdoku.models.geometry import Geometry, digit_combinations, sum_tuples
from satdoku.models.matrix import exact_cover
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution, solution_problems

VARIANTS = Path(__file__).resolve().parent.parent / "puzzles" / "variants"
# (backend, options): every family, and the CNF encodings that treat the groups' items differently
SPECS = [("pysat", {}), ("pysat", {"encoding": "minimal"}), ("pysat", {"encoding": "efficient", "amo": "seqcounter"}),
         ("pysat", {"givens": "simplify"}), ("pysat:minicard", {"amo": "native"}), ("dlx", {}), ("cpsat", {}),
         ("ilp:highs", {}), ("backtrack", {}), ("logic", {}), ("external:minisat", {})]


def backend(name: str, **options: object):
    try:
        return get_backend(name, **options)
    except BackendUnavailable as err:
        pytest.skip(str(err))


@cache
def grids_4x4() -> tuple[tuple[int, ...], ...]:
    return tuple(fill(Puzzle.empty(Geometry(2, 2))))


def oracle(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """The classic 4x4 grids that keep the puzzle's givens, cages and arrows, by the verifier alone."""
    return sorted(grid for grid in grids_4x4() if is_solution(grid, puzzle))


def random_case(seed: int) -> Puzzle:
    """A 4x4 with random cages (with and without totals), arrows and sometimes 3 to 6 givens of a grid."""
    rng = random.Random(seed)
    cells = rng.sample(range(16), 16)
    cages, arrows, at = [], [], 0
    for _ in range(rng.randint(1, 3)):
        size = rng.randint(1, 3)
        cage = tuple(cells[at:at + size])
        at += size
        total = rng.choice([None, rng.randint(size * (size + 1) // 2, size * (9 - size) // 2)])
        cages.append((cage, total))
    for _ in range(rng.randint(0, 2)):
        length = rng.randint(1, 2)
        arrows.append((cells[at], tuple(cells[at + 1:at + 1 + length])))
        at += length + 1
    g = Geometry(2, 2).with_sums(cages=tuple(cages), arrows=tuple(arrows))
    givens = [0] * 16
    if rng.random() < 0.5:
        grid = rng.choice(grids_4x4())
        for cell in rng.sample(range(16), rng.randint(3, 6)):
            givens[cell] = grid[cell]
    return Puzzle(g, tuple(givens))


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s[0] + "".join(f",{v}" for v in s[1].values()))
def test_every_backend_finds_exactly_the_oracles_grids(spec: tuple[str, dict]) -> None:
    name, options = spec
    solver = backend(name, **options)
    seen = set()
    for seed in range(40):
        puzzle = random_case(seed)
        expected = oracle(puzzle)
        seen.add(min(len(expected), 2))
        assert sorted(solver.solutions(puzzle)) == expected, (seed, puzzle.geometry)
    assert seen == {0, 1, 2}  # the cases include impossible, unique and open ones


def test_a_4x4_killer_cage_set_counted_by_two_backends_and_the_oracle() -> None:
    # the four boxes cut into two dominoes each, with the totals of a known grid
    grid = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    dominoes = [(0, 1), (4, 5), (2, 6), (3, 7), (8, 12), (9, 13), (10, 11), (14, 15)]
    g = Geometry(2, 2).with_sums(cages=tuple((d, sum(grid[c] for c in d)) for d in dominoes))
    puzzle = Puzzle.empty(g)
    expected = len(oracle(puzzle))
    assert 1 <= expected < 288 and grid in oracle(puzzle)
    assert backend("dlx").count(puzzle) == expected
    assert backend("pysat").count(puzzle) == expected


def test_a_6x6_count_pinned_by_symmetry() -> None:
    """First row 123456 (39,168 completions) and a cage r2c1+r2c2 = 9. Row 2's first three cells hold 4, 5, 6
    in each of the 6 orders equally often (relabel 4, 5, 6 and permute columns 4-6 back), and a sum of 9 from
    them is {4, 5}: 2 orders of 6, so 13,056 grids."""
    g = Geometry(2, 3).with_sums(cages=(((6, 7), 9),))
    puzzle = Puzzle(g, (1, 2, 3, 4, 5, 6) + (0,) * 30)
    assert backend("dlx").count(puzzle) == 39_168 // 3
    assert backend("pysat").count(puzzle) == 39_168 // 3


def test_an_arrow_count_on_6x6_by_two_backends() -> None:
    # circle r6c6, arrow r5c5 r4c4: across boxes, so its two digits may repeat
    g = Geometry(2, 3).with_sums(arrows=((35, (28, 21)),))
    puzzle = Puzzle(g, (1, 2, 3, 4, 5, 6) + (0,) * 30)
    counted = backend("dlx").count(puzzle)
    assert 0 < counted < 39_168
    assert backend("pysat").count(puzzle) == counted
    repeated = next(iter(backend("pysat").solutions(Puzzle(g, puzzle.cells[:21] + (2,) + (0,) * 6 + (2,) + (0,) * 7))))
    assert repeated[21] == repeated[28] == 2 and repeated[35] == 4  # a repeat on the arrow is allowed


def test_the_tables_are_the_sums() -> None:
    assert digit_combinations(3, 7, 9) == ((1, 2, 4),)
    assert digit_combinations(2, 2, 9) == ()
    assert len(digit_combinations(4, 20, 9)) == 12
    assert sum_tuples(1, 4) == ((1, 1), (2, 2), (3, 3), (4, 4))
    assert all(t[0] == sum(t[1:]) for t in sum_tuples(3, 9)) and len(sum_tuples(3, 9)) == 84  # C(9, 3)


def test_the_matrix_is_pure_exact_cover() -> None:
    g = Geometry(2, 2).with_sums(cages=(((0, 1), 3), ((2, 3), None)), arrows=((15, (14,)),))
    m = exact_cover(g)
    assert m.n_options == 64 + 1 + 4  # the cage's one digit set {1, 2}; the one-cell arrow's four tuples
    assert [m.option_name(o) for o in range(64, m.n_options)] == [
        "killer cage 1 {1,2}", "arrow 1 1=1", "arrow 1 2=2", "arrow 1 3=3", "arrow 1 4=4"]
    # every primary item has an option; a cage's digit set covers the digits it leaves out
    assert all(len(m.item_options[i]) for i in range(m.n_primary))
    names = {m.item_name(i) for i in m.option_items[64]}
    assert names == {"killer cage 1 at r1c1", "killer cage 1 digit 3", "killer cage 1 digit 4"}


def test_impossible_data_is_one_line_or_no_solution() -> None:
    g = Geometry(3, 3)
    for cages, arrows, words in [((((0, 1), 2),), (), "sum to 3..17, not 2"),
                                 ((((0, 1), 18),), (), "not 18"),
                                 ((((0,) * 2, 5),), (), "lists a cell twice"),
                                 (((tuple(range(10)), 45),), (), "1 to 9"),
                                 ((), ((0, tuple(range(1, 10))),), "more than the circle's largest digit"),
                                 ((), ((0, (0, 1)),), "the circle not among them")]:
        with pytest.raises(InputError, match=words) as err:
            g.with_sums(cages=cages, arrows=arrows)
        assert "\n" not in str(err.value)
    with pytest.raises(InputError, match="more than satdoku lists"):
        Geometry(5, 5).with_sums(arrows=((0, tuple(range(1, 13))),))
    # possible on its own, impossible together: no solution on every engine
    clash = Puzzle.empty(g.with_sums(cages=(((0, 1), 3), ((1, 2), 3))))
    for name in ("pysat", "dlx", "cpsat", "logic"):
        assert backend(name).solve(clash).grid is None


def test_the_verifier_reads_the_sums_from_the_cells() -> None:
    grid = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    g = Geometry(2, 2).with_sums(cages=(((0, 1), 3), ((2, 6), None)), arrows=((3, (7, 11)),))
    assert solution_problems(grid, Puzzle.empty(g)) == ["arrow 1: 2+3 = 5, but its circle at r1c4 holds 4"]
    bad = Geometry(2, 2).with_sums(cages=(((0, 1), 4), ((2, 7), None)))
    assert solution_problems(grid, Puzzle.empty(bad)) == ["killer cage 1 at r1c1 sums to 3, not 4"]
    different = Geometry(2, 2).with_sums(cages=(((0, 10), None),))  # r1c1 = 1, r3c3 = 4
    assert is_solution(grid, Puzzle.empty(different))
    same = Geometry(2, 2).with_sums(cages=(((0, 9), None),))  # r1c1 = 1, r3c2 = 1
    assert solution_problems(grid, Puzzle.empty(same)) == ["killer cage 1 at r1c1 repeats a digit: [1, 1]"]


def set_files(name: str) -> list[Path]:
    return sorted((VARIANTS / name).glob("*.json"))


SETS = ["killer_6x6", "thermo_6x6", "kropki_6x6", "killer_9x9", "thermo_9x9", "kropki_9x9"]


@pytest.mark.slow
@pytest.mark.parametrize("set_name", SETS)
@pytest.mark.parametrize("name", ["pysat", "cpsat", "ilp:highs", "dlx"])
def test_the_generated_sets_solve_to_their_grid_and_are_unique(name: str, set_name: str) -> None:
    files = set_files(set_name)
    assert len(files) == 20
    solver = backend(name)
    for path in files:
        puzzle = read_json_text(path.read_text(), str(path))
        expected = tuple(json.loads(path.read_text())["solution"])  # the generator's grid, read apart
        grids = list(solver.solutions(puzzle, limit=2))
        assert grids == [expected], path.name
        assert is_solution(grids[0], puzzle)
