"""Benchmark `satdoku grids`: exact counts of complete grids against the known values and targets.

    python benchmarks/bench_grids.py            # every supported shape, with the plain peer
    python benchmarks/bench_grids.py --no-peer  # only satdoku's counter

satdoku counts two-row boxes by split classes met in the middle (satdoku.counting.two_row_split)
and 3x3 by the bands' column profiles in 44 classes (satdoku.counting.three_band), numba kernels.
The peer is the plain memoised method (peel one perfect matching at a time, remember F per
canonical form at every degree), run side by side on the same machine for the ratio. The band DP
over digit types (tests/reference/two_row_dp.py, an independent method) is timed too for 2 x c, c <= 4,
and its cost for 2x5 is projected from a timed sample of its first expensive step (bands 1 -> 2).
The known values are used only to check the computed counts.
"""
from __future__ import annotations

import argparse
import sys
import time
from math import comb

import harness  # noqa: F401  (first: puts the repo root on sys.path)
from satdoku.counting import count_grids, is_supported
from satdoku.counting.bipartite import canonical_form, cycle_count, perfect_matchings
from satdoku.counting.colouring_kernels import COMPILED
from satdoku.counting.two_row import split_classes
from satdoku.models.geometry import Geometry

from tests.reference.two_row_dp import (
    Canon,
    colourings,
    count_two_row_grids_dp,
    first_band,
    successors,
    transition_pairs,
)

KNOWN = {(2, 2): 288, (2, 3): 28_200_960, (2, 4): 29_136_487_207_403_520,
         (2, 5): 1_903_816_047_972_624_930_994_913_280_000, (3, 3): 6_670_903_752_021_072_936_960}
TARGETS = {(2, 4): 2.0, (2, 5): 60.0, (5, 2): 60.0}
SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2), (3, 3)]
PEER_MAX = 4       # the peers would take hours for 2x5: the band DP's cost is projected instead


def plain_grids(c: int) -> int:
    """The peer: the same class sum with F memoised per canonical form at every degree."""
    memo: dict[tuple, int] = {}

    def f(rows: tuple[int, ...]) -> int:
        k = rows[0].bit_count()
        if k <= 2:
            return 1 << cycle_count(rows, 2 * c) if k == 2 else 1
        key = canonical_form(rows, 2 * c)
        if key not in memo:
            memo[key] = sum(f(tuple(r ^ b for r, b in zip(rows, m))) for m in perfect_matchings(rows))
        return memo[key]

    classes = split_classes(c)
    assert sum(w for _, w in classes) == comb(2 * c, c) ** c
    return sum(w * f(rows) ** 2 for rows, w in classes)


def project_band_dp(c: int, sample: int = 20) -> tuple[int, float]:
    """The labelled band pairs the band DP walks from level 1 to level 2, and the projected seconds
    for them, timing `sample` stack-1 colourings (each against every stack-2 one) per orbit."""
    canon = Canon(c)
    pairs, seconds = 0, 0.0
    for state in first_band(c, canon):
        firsts = len(colourings([t >> c for t in state], c))
        pairs += transition_pairs(state, c)
        start = time.perf_counter()
        successors(state, c, limit=sample)
        seconds += (time.perf_counter() - start) / min(sample, firsts) * firsts
    return pairs, seconds


def known(shape: tuple[int, int]) -> int | None:
    return KNOWN.get(shape, KNOWN.get((shape[1], shape[0])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-peer", action="store_true", help="skip the plain memoised peer")
    parser.add_argument("--no-dp", action="store_true", help="skip the band DP and its 2x5 projection")
    args = parser.parse_args()
    print(f"{'shape':<6} {'count':>42} {'seconds':>8} {'target':>7} {'known':>5} {'peer s':>7} {'ratio':>6}"
          f" {'dp s':>7} {'ratio':>6}")
    failed = False
    start = time.perf_counter()
    count_grids(Geometry(2, 2))        # loads (or first compiles) the numba kernels outside the timings
    warm_up = time.perf_counter() - start
    for shape in SHAPES:
        geometry = Geometry(*shape)
        if not is_supported(geometry):
            print(f"{shape[0]}x{shape[1]:<4} {'not supported yet':>42}")
            continue
        start = time.perf_counter()
        count = count_grids(geometry).count
        seconds = time.perf_counter() - start
        target = TARGETS.get(shape)
        ok = count == known(shape)
        failed |= not ok or (target is not None and seconds > target)
        peer, ratio = "", ""
        if not args.no_peer and shape[0] == 2 and 3 <= shape[1] <= PEER_MAX:
            start = time.perf_counter()
            assert plain_grids(shape[1]) == count
            peer_seconds = time.perf_counter() - start
            peer, ratio = f"{peer_seconds:.2f}", f"{peer_seconds / seconds:.1f}x"
        dp, dp_ratio = "", ""
        if not args.no_dp and shape[0] == 2 and shape[1] <= PEER_MAX:
            start = time.perf_counter()
            dp_count = count_two_row_grids_dp(shape[1])[0]
            dp_seconds = time.perf_counter() - start
            failed |= dp_count != count
            dp, dp_ratio = f"{dp_seconds:.2f}", f"{dp_seconds / seconds:.1f}x"
        print(f"{shape[0]}x{shape[1]:<4} {count:>42,} {seconds:>8.3f} {target or '':>7} {'ok' if ok else 'WRONG':>5}"
              f" {peer:>7} {ratio:>6} {dp:>7} {dp_ratio:>6}", flush=True)
    kind = "numba" if COMPILED else "plain Python"
    print(f"kernels: {kind}, loaded or compiled in {warm_up:.2f} s before the timings")
    if not args.no_dp:
        pairs, projected = project_band_dp(5)
        print(f"2x5 band DP, bands 1 -> 2 alone: {pairs:,} labelled band pairs from 7 orbits, "
              f"projected {projected:,.0f} s (bands 2 -> 3 are far larger)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
