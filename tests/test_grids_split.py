"""The split-class count of two-row-box grids (satdoku.counting.two_row_split) and its kernels.

Every per-class F is held against an independent count: the memoised 1-factorization method of
satdoku.counting.bipartite for 2x1 .. 2x4, and a plain labelled row-by-row colouring count written
here for some 2x5 classes. The 2x5 total is the published value.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import defaultdict
from math import factorial

import numpy as np
import pytest

from satdoku.counting import colouring_kernels as kernels
from satdoku.counting import count_grids, grids
from satdoku.counting.bipartite import Factorizations
from satdoku.counting.two_row import split_classes
from satdoku.counting.two_row_split import (
    BandShape,
    Side,
    band_shape,
    class_factorizations,
    count_two_row_grids_split,
    relabel_table,
)
from satdoku.errors import BackendUnavailable
from satdoku.models.geometry import Geometry
from tests.reference.two_row_class_sum import count_two_row_grids

GRIDS_2X5 = 1_903_816_047_972_624_930_994_913_280_000


def labelled_colourings(rows: tuple[int, ...], c: int) -> int:
    """Proper c-edge-colourings of the graph, row by row, keeping each digit's used colours.

    Digits whose remaining rows are the same are interchangeable, so a state lists their used
    colour sets sorted; nothing else (no colour renaming, no split) is shared with the library.
    """
    n = 2 * c
    states: dict[tuple[int, ...], int] = {(0,) * n: 1}
    for k, row in enumerate(rows):
        digits = [d for d in range(n) if row >> d & 1]
        groups: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for d in range(n):
            groups[tuple(r >> d & 1 for r in rows[k + 1:])].append(d)
        following: dict[tuple[int, ...], int] = defaultdict(int)
        for used, ways in states.items():
            def extend(i: int, taken: int, now: list[int]) -> None:
                if i == len(digits):
                    for members in groups.values():
                        for d, value in zip(members, sorted(now[d] for d in members)):
                            settled[d] = value
                    following[tuple(settled)] += ways
                    return
                d = digits[i]
                for colour in range(c):
                    bit = 1 << colour
                    if not (taken | used[d]) & bit:
                        now[d] = used[d] | bit
                        extend(i + 1, taken | bit, now)
                now[d] = used[d]
            settled = [0] * n
            extend(0, 0, list(used))
        states = following
    return sum(states.values())


@pytest.mark.parametrize("c", [1, 2, 3, 4])
def test_every_class_matches_the_memoised_factorizations(c: int) -> None:
    found = class_factorizations(c)
    memo = Factorizations()
    assert [(rows, w) for rows, w, _ in found] == split_classes(c)
    assert all(f == memo(rows, 2 * c) for rows, _, f in found)
    assert count_two_row_grids_split(c) == count_two_row_grids(c)


def test_labelled_reference_agrees_on_small_shapes() -> None:
    """The test's own reference against the memoised method, so that it can judge 2x5 classes."""
    for c in (2, 3, 4):
        memo = Factorizations()
        for rows, _ in split_classes(c)[:6]:
            assert labelled_colourings(rows, c) == memo(rows, 2 * c)


@pytest.mark.slow
def test_2x5_total_and_two_classes_checked_by_the_labelled_reference() -> None:
    found = class_factorizations(5)
    assert len(found) == 355
    assert sum(w * f ** 2 for _, w, f in found) == GRIDS_2X5
    for rows, _, f in found[:2]:
        assert labelled_colourings(rows, 5) == f


@pytest.mark.slow
def test_cli_counts_5x2_boxes_as_the_transpose() -> None:
    done = subprocess.run([sys.executable, "-m", "satdoku", "grids", "5x2", "--format", "json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["count"] == GRIDS_2X5 and (record["box_rows"], record["box_cols"], record["n"]) == (5, 2, 10)
    assert "transposed" in record["method"]


def test_plain_python_kernels_give_the_same_counts() -> None:
    """With numba's JIT switched off the kernels run as Python: same numbers for 2x3 and 2x4."""
    code = ("from satdoku.counting.two_row_split import count_two_row_grids_split as f;"
            "print(f(3)[0], f(4)[0])")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["28200960", "29136487207403520"]


def test_2x5_without_numba_is_a_one_line_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grids, "COMPILED", False)
    with pytest.raises(BackendUnavailable, match=r"grids 2x5: needs numba .*satdoku\[fast\]"):
        count_grids(Geometry(2, 5))
    assert count_grids(Geometry(4, 2)).count == 29_136_487_207_403_520


def test_one_row_step_from_nothing_is_every_bijection() -> None:
    for c in (2, 3, 4, 5):
        keys, values = kernels.row_step(np.zeros(1, np.int64), np.ones(1, np.int64), (1 << c) - 1, c, 2 * c)
        assert len(keys) == 1 and values[0] == factorial(c)


def test_a_band_colours_its_digits_once_each() -> None:
    """After both rows of a band every digit has one colour: each column holds two digits."""
    c, n = 4, 8
    side = Side.colour(BandShape((0, 0, 0, 0, 1, 1, 1, 1), 1), c)
    assert side.values.sum() == factorial(c) ** 2
    columns = np.zeros(c, np.int64)
    for key in side.keys:
        kernels._unpack(int(key), columns, c, n)
        assert sorted(bin(int(x)).count("1") for x in columns) == [2] * c
        assert np.bitwise_or.reduce(columns) == (1 << n) - 1


def test_orbit_sizes_count_distinct_colour_renamings() -> None:
    c, n = 3, 6
    key_distinct = (0b110000 << 12) | (0b001100 << 6) | 0b000011
    key_two_equal = (0b110000 << 12) | (0b110000 << 6) | 0b000011
    assert kernels.orbit_sizes(np.array([key_distinct, key_two_equal], np.int64), c, n).tolist() == [6, 3]


def test_band_shape_ignores_renaming_digits_bands_and_rows() -> None:
    rng = random.Random(5)
    n = 10
    for _ in range(20):
        halves = [sum(1 << d for d in rng.sample(range(n), 5)) for _ in range(3)]
        digits = rng.sample(range(n), n)
        moved = [sum(1 << digits[d] for d in range(n) if h >> d & 1) for h in halves]
        moved = [h ^ ((1 << n) - 1) if rng.random() < 0.5 else h for h in moved]
        rng.shuffle(moved)
        shape, where = band_shape(halves, n)
        assert band_shape(moved, n)[0] == shape
        rows = {frozenset(sum(1 << where[d] for d in range(n) if r >> d & 1) for r in (h, h ^ 1023))
                for h in halves}
        expected = shape.rows()
        assert rows == {frozenset(expected[2 * b:2 * b + 2]) for b in range(3)}


def test_relabel_table_moves_each_digit() -> None:
    table = relabel_table([2, 0, 1], 3)
    assert [int(table[1 << d]) for d in range(3)] == [4, 1, 2] and int(table[7]) == 7


def test_kernels_compile_where_no_cache_can_be_written() -> None:
    """A function numba cannot cache (defined from a string: no file to cache beside) still runs."""
    namespace: dict = {}
    exec("def add_one(x):\n    return x + 1\n", namespace)
    assert kernels.njit(cache=True)(namespace["add_one"])(41) == 42
