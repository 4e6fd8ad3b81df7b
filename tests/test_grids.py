"""`satdoku grids`: exact counts of complete grids, checked by brute enumeration and known values."""
from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys

import pytest

from satdoku.backends.registry import get_backend
from satdoku.cli import main
from satdoku.counting import count_grids, is_supported
from satdoku.counting.bipartite import (
    Factorizations,
    canonical_form,
    factorizations_3,
    factorizations_4,
    perfect_matchings,
)
from satdoku.counting.two_row import split_classes
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_complete_grid, is_solution
from tests.reference.two_row_dp import (
    Canon,
    colourings,
    complement,
    count_two_row_grids_dp,
    cycle_state,
    first_band,
    forward,
    matching_cycles,
    orbit_size,
    partitions,
    partners,
)
from tests.test_count import other_backends

KNOWN = {(2, 2): 288, (2, 3): 28_200_960, (2, 4): 29_136_487_207_403_520}


def brute_factorizations(rows: tuple[int, ...], n: int) -> int:
    """Ordered 1-factorizations by peeling perfect matchings, with no shortcut and no memo."""
    if not rows[0]:
        return 1
    return sum(brute_factorizations(tuple(r ^ b for r, b in zip(rows, m)), n) for m in perfect_matchings(rows))


def random_regular(n: int, k: int, rng: random.Random) -> tuple[int, ...]:
    """A k-regular bipartite graph on n + n vertices: the union of k disjoint random permutations."""
    while True:
        rows = [0] * n
        for _ in range(k):
            perm = rng.sample(range(n), n)
            if any(rows[r] >> perm[r] & 1 for r in range(n)):
                break
            rows = [rows[r] | 1 << perm[r] for r in range(n)]
        else:
            return tuple(rows)


def relabelled(rows: tuple[int, ...], n: int, rng: random.Random) -> tuple[int, ...]:
    digits = rng.sample(range(n), n)
    moved = [sum(1 << digits[d] for d in range(n) if r >> d & 1) for r in rows]
    rng.shuffle(moved)
    return tuple(moved)


def test_empty_4x4_enumerates_to_the_count() -> None:
    """2x2: every grid enumerated by pysat and by another backend, verified, equals the count."""
    puzzle = Puzzle.empty(Geometry(2, 2))
    for name in ["pysat"] + other_backends():
        grids = set(get_backend(name).solutions(puzzle))
        assert all(is_complete_grid(g, puzzle.geometry) and is_solution(g, puzzle) for g in grids)
        assert len(grids) == count_grids(Geometry(2, 2)).count == 288, name


@pytest.mark.slow
def test_6x6_is_720_times_the_completions_of_a_first_row() -> None:
    """2x3: the completions of the row 123456, enumerated by pysat (each verified) and counted by
    another backend; relabelling digits gives every first row the same number."""
    puzzle = Puzzle(Geometry(2, 3), (1, 2, 3, 4, 5, 6) + (0,) * 30)
    grids = list(get_backend("pysat").solutions(puzzle))
    assert len(set(grids)) == len(grids)
    assert all(is_solution(g, puzzle) for g in grids)
    other = get_backend(other_backends()[0]).count(puzzle)
    assert 720 * len(grids) == 720 * other == count_grids(Geometry(2, 3)).count


@pytest.mark.parametrize("shape,value", sorted(KNOWN.items()))
def test_known_values_and_transposes(shape: tuple[int, int], value: int) -> None:
    assert count_grids(Geometry(*shape)).count == value
    assert count_grids(Geometry(shape[1], shape[0])).count == value


def test_one_by_two_boxes_are_latin_squares_of_order_2() -> None:
    assert count_grids(Geometry(1, 2)).count == count_grids(Geometry(2, 1)).count == 2


def test_split_class_weights_cover_every_tuple_of_half_sets() -> None:
    for c, classes in [(2, 2), (3, 4), (4, 26)]:
        found = split_classes(c)
        assert len(found) == classes
        assert sum(w for _, w in found) == len(list(itertools.combinations(range(2 * c), c))) ** c


@pytest.mark.parametrize("n,k", [(4, 3), (5, 3), (6, 3), (5, 4), (6, 4), (7, 4)])
def test_factorizations_match_brute_force(n: int, k: int) -> None:
    rng = random.Random(n * 10 + k)
    for _ in range(3):
        rows = random_regular(n, k, rng)
        expected = brute_factorizations(rows, n)
        assert Factorizations()(rows, n) == expected
        if k == 3:
            assert factorizations_3(rows, n) == expected
        if k == 4:
            assert factorizations_4(rows, n) == expected


def test_latin_squares_as_complete_bipartite_graphs() -> None:
    """F(K_n,n) is the number of Latin squares of order n."""
    for n, latin in [(2, 2), (3, 12), (4, 576), (5, 161280)]:
        assert Factorizations()(((1 << n) - 1,) * n, n) == latin


def test_canonical_form_ignores_relabelling_and_tells_classes_apart() -> None:
    rng = random.Random(7)
    for n, k in [(6, 3), (8, 3), (8, 4), (10, 5)]:
        for _ in range(5):
            rows = random_regular(n, k, rng)
            assert canonical_form(rows, n) == canonical_form(relabelled(rows, n, rng), n)
    eight_cycle = (0b0011, 0b0110, 0b1100, 0b1001)
    two_squares = (0b0011, 0b0011, 0b1100, 0b1100)
    assert canonical_form(eight_cycle, 4) != canonical_form(two_squares, 4)


def test_canonical_form_separates_graphs_with_different_counts() -> None:
    """Graphs with one key must have one F: 200 random cubic graphs on 6 + 6, grouped by key."""
    rng = random.Random(11)
    by_key: dict[tuple, set[int]] = {}
    for _ in range(200):
        rows = random_regular(6, 3, rng)
        by_key.setdefault(canonical_form(rows, 6), set()).add(factorizations_3(rows, 6))
    assert all(len(values) == 1 for values in by_key.values())
    assert len(by_key) > 1


def test_cli_text_and_json(capsys) -> None:
    assert main(["grids", "2x3"]) == 0
    assert capsys.readouterr().out == "6x6 (2x3 boxes): 28,200,960 complete grids\n"
    assert main(["grids", "4x2", "--format", "json", "--no-progress"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["count"] == KNOWN[(2, 4)] and (record["box_rows"], record["box_cols"]) == (4, 2)


def test_supported_set() -> None:
    supported = [(2, 2), (3, 2), (2, 4), (4, 2), (1, 2), (2, 5), (5, 2), (3, 3), (1, 3), (3, 1)]
    assert all(is_supported(Geometry(*s)) for s in supported)
    assert not any(is_supported(Geometry(*s)) for s in [(2, 6), (6, 2), (1, 4), (3, 4), (4, 3), (4, 4)])


@pytest.mark.parametrize("shape,message", [("3x4", "not supported yet"), ("2x6", "not supported yet"),
                                           ("2x", "expected RxC"), ("0x3", "at least 1"),
                                           ("1x1", "outside"), ("9x9", "outside")])
def test_bad_or_unsupported_shapes_are_one_line(shape: str, message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "satdoku", "grids", shape], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr
    assert "Traceback" not in done.stderr


# --- the band DP over digit types (tests/reference/two_row_dp.py): an independent second method ---


@pytest.mark.parametrize("c", [1, 2, 3])
def test_band_dp_reproduces_the_class_method(c: int) -> None:
    count, _ = count_two_row_grids_dp(c)
    assert count == count_grids(Geometry(2, c)).count
    assert count == {1: 2, 2: 288, 3: KNOWN[(2, 3)]}[c]


@pytest.mark.slow
def test_band_dp_reproduces_2x4() -> None:
    assert count_two_row_grids_dp(4)[0] == KNOWN[(2, 4)]


def test_colourings_give_each_colour_to_two_digits() -> None:
    """Unrestricted, they are the (2c)!/2^c ways to pair digits with colours; restrictions hold."""
    for c in (2, 3, 4):
        assert len(colourings([0] * (2 * c), c)) == math.factorial(2 * c) // 2 ** c
    used = [0b001, 0b001, 0b010, 0b010, 0b100, 0b100]
    found = colourings(used, 3)
    assert found and all(not used[i] >> colour & 1 for col in found for i, colour in enumerate(col))
    assert all(sorted(col) == [0, 0, 1, 1, 2, 2] for col in found)


def union_find_components(matchings: list[tuple[int, ...]], size: int) -> int:
    parent = list(range(size))

    def root(v: int) -> int:
        while parent[v] != v:
            v = parent[v]
        return v

    for matching in matchings:
        for v, w in enumerate(matching):
            parent[root(v)] = root(w)
    return len({root(v) for v in range(size)})


def test_matching_cycles_against_a_union_find_count() -> None:
    rng = random.Random(3)
    for _ in range(200):
        first = partners(tuple(rng.sample([0, 0, 1, 1, 2, 2, 3, 3], 8)))
        second = partners(tuple(rng.sample([0, 0, 1, 1, 2, 2, 3, 3], 8)))
        assert matching_cycles(first, second) == union_find_components([first, second], 8)


def random_colouring(c: int, avoid: list[int], rng: random.Random) -> list[int]:
    """Colours 0..c-1 twice each over 2c digits, digit i never on a colour in avoid[i]."""
    while True:
        colours = rng.sample([k for k in range(c) for _ in range(2)], 2 * c)
        if all(not avoid[i] >> k & 1 for i, k in enumerate(colours)):
            return colours


def random_two_band_state(c: int, rng: random.Random) -> tuple[int, ...]:
    used1, used2 = [0] * (2 * c), [0] * (2 * c)
    for _ in range(2):
        used1 = [u | 1 << k for u, k in zip(used1, random_colouring(c, used1, rng))]
        used2 = [u | 1 << k for u, k in zip(used2, random_colouring(c, used2, rng))]
    return tuple(sorted(u << c | v for u, v in zip(used1, used2)))


def test_canonical_form_ignores_digit_order_and_colour_names() -> None:
    rng = random.Random(5)
    c = 4
    canon = Canon(c)
    for _ in range(30):
        state = random_two_band_state(c, rng)
        p1, p2 = rng.sample(range(c), c), rng.sample(range(c), c)
        moved = []
        for t in state:
            u1, u2 = t >> c, t & (1 << c) - 1
            v1 = sum(1 << p1[i] for i in range(c) if u1 >> i & 1)
            v2 = sum(1 << p2[i] for i in range(c) if u2 >> i & 1)
            moved.append(v1 << c | v2)
        rng.shuffle(moved)
        key, hits = canon(state)
        assert canon(tuple(sorted(moved)))[0] == key and canon(key)[0] == key
        assert math.factorial(c) ** 2 % hits == 0           # the hits are a stabilizer's size
    keys = {canon(cycle_state(parts, c))[0] for parts in partitions(c)}
    assert len(keys) == len(partitions(c))                  # cycle types of a band stay apart


def test_first_band_orbits_cover_every_labelled_band() -> None:
    """Orbit sizes add up to the labelled bands, ((2c)!/2^c)^2; the weights to C(2c, c) * (c!)^4."""
    for c in (2, 3, 4, 5):
        canon = Canon(c)
        states = [cycle_state(parts, c) for parts in partitions(c)]
        assert sum(orbit_size(s, canon) for s in states) == (math.factorial(2 * c) // 2 ** c) ** 2
        assert sum(first_band(c, canon).values()) == math.comb(2 * c, c) * math.factorial(c) ** 4


def test_complement_is_an_involution_between_levels() -> None:
    c = 3
    for state in forward(c, 1)[1]:
        rest = complement(state, c)
        assert all(t.bit_count() == 2 * (c - 1) for t in rest)
        assert complement(rest, c) == state
