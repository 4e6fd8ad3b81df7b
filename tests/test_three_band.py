"""Grids with r x 3 boxes from the bands' column profiles (satdoku.counting.three_band).

Checked against: the published 3x3 count, the split-class count of 2x3 (another method), the
Latin squares of order 3 enumerated by two backends and verified, the closed form 9! * 56 * 6^6
for the first bands of 3x3, and the memoised 1-factorization count for the band fillings.
"""
from __future__ import annotations

import random
from math import factorial

import numpy as np
import pytest

from satdoku.backends.registry import get_backend
from satdoku.counting import colouring_kernels as kernels
from satdoku.counting import count_grids, grids
from satdoku.counting.bipartite import Factorizations, cycle_count
from satdoku.counting.three_band import (
    count_three_band_grids,
    profile,
    stack_options,
    table_classes,
    tables,
)
from satdoku.counting.two_row_split import count_two_row_grids_split
from satdoku.errors import BackendUnavailable
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from tests.test_count import other_backends
from tests.test_grids import random_regular

GRIDS_3X3 = 6_670_903_752_021_072_936_960


def test_3x3_is_the_published_count_with_44_classes() -> None:
    assert count_three_band_grids(3) == (GRIDS_3X3, 44)
    assert count_grids(Geometry(3, 3)).count == GRIDS_3X3


def test_2x3_agrees_with_the_split_class_count() -> None:
    assert count_three_band_grids(2)[0] == count_two_row_grids_split(3)[0] == 28_200_960
    assert count_grids(Geometry(2, 3)).method != count_grids(Geometry(3, 1)).method


def test_1x3_and_3x1_are_the_12_latin_squares_of_order_3() -> None:
    """Boxes of one row: every grid is a Latin square; enumerated by two backends, each verified."""
    for shape in [(1, 3), (3, 1)]:
        puzzle = Puzzle.empty(Geometry(*shape))
        for name in ["pysat"] + other_backends()[:1]:
            found = set(get_backend(name).solutions(puzzle))
            assert all(is_solution(g, puzzle) for g in found)
            assert len(found) == count_grids(Geometry(*shape)).count == 12, (shape, name)


def test_first_bands_of_3x3_add_up_to_the_closed_form() -> None:
    """Sum over first-band profiles of N(P) is every first band: 9! * 56 * 6^6."""
    classes, _ = table_classes(3)
    total = 0
    for table, weight in classes:
        columns = np.array([m for stack in profile(table, 3) for m in stack], np.int64)
        total += weight * kernels.band_fillings(columns, 9, 3)
    assert total == factorial(9) * 56 * 6 ** 6


def test_table_classes_cover_every_table_once() -> None:
    for r, count, classes_expected in [(1, 1, 1), (2, 21, 3), (3, 22620, 44)]:
        classes, class_of = table_classes(r)
        assert len(class_of) == sum(1 for _ in tables(r)) == count
        assert len(classes) == classes_expected == len(set(class_of.values()))
        assert sum(w for _, w in classes) == (factorial(3 * r) // factorial(r) ** 3) ** r


def test_each_stack_continues_in_56_ways() -> None:
    first = profile(table_classes(3)[0][0][0], 3)
    for stack in first:
        options = stack_options(stack, 3)
        assert len(options) == len(set(options)) == 56
        for option in options:
            for j in range(3):
                assert stack[j] | option[j] | option[3 + j] == 511
                assert not stack[j] & option[j] and not option[j] & option[3 + j]


@pytest.mark.parametrize("k", [2, 3])
def test_band_fillings_match_the_memoised_factorizations(k: int) -> None:
    rng = random.Random(k)
    memo = Factorizations()
    for n in (6, 9):
        for _ in range(10):
            columns = random_regular(n, k, rng)
            found = kernels.band_fillings(np.array(columns, np.int64), n, k)
            assert found == memo(columns, n)
            if k == 2:
                assert found == 2 ** cycle_count(columns, n)


def test_3x3_without_numba_is_a_one_line_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grids, "COMPILED", False)
    with pytest.raises(BackendUnavailable, match=r"grids 3x3: needs numba"):
        count_grids(Geometry(3, 3))
    assert count_grids(Geometry(1, 3)).count == 12
