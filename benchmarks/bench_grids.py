"""Benchmark `satdoku grids`: exact counts of complete grids against the known values and targets.

    python benchmarks/bench_grids.py            # every supported shape, with the plain peer
    python benchmarks/bench_grids.py --no-peer  # only satdoku's counter

The peer is the plain memoised method (peel one perfect matching at a time, remember F per
canonical form at every degree), run side by side on the same machine for the ratio.
The known values are used only to check the computed counts.
"""
from __future__ import annotations

import argparse
import sys
import time
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from satdoku.counting import count_grids, is_supported  # noqa: E402
from satdoku.counting.bipartite import canonical_form, cycle_count, perfect_matchings  # noqa: E402
from satdoku.counting.two_row import split_classes  # noqa: E402
from satdoku.models.geometry import Geometry  # noqa: E402

KNOWN = {(2, 2): 288, (2, 3): 28_200_960, (2, 4): 29_136_487_207_403_520,
         (2, 5): 1_903_816_047_972_624_930_994_913_280_000, (3, 3): 6_670_903_752_021_072_936_960}
TARGETS = {(2, 4): 2.0, (2, 5): 60.0}
SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (3, 3)]


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


def known(shape: tuple[int, int]) -> int | None:
    return KNOWN.get(shape, KNOWN.get((shape[1], shape[0])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-peer", action="store_true", help="skip the plain memoised peer")
    args = parser.parse_args()
    print(f"{'shape':<6} {'count':>42} {'seconds':>8} {'target':>7} {'known':>5} {'peer s':>7} {'ratio':>6}")
    failed = False
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
        if not args.no_peer and shape[0] == 2 and shape[1] >= 3:
            start = time.perf_counter()
            assert plain_grids(shape[1]) == count
            peer_seconds = time.perf_counter() - start
            peer, ratio = f"{peer_seconds:.2f}", f"{peer_seconds / seconds:.1f}x"
        print(f"{shape[0]}x{shape[1]:<4} {count:>42,} {seconds:>8.3f} {target or '':>7} {'ok' if ok else 'WRONG':>5}"
              f" {peer:>7} {ratio:>6}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
