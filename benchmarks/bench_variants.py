"""Variants beside classic puzzles: puzzles/s per backend on the generated 9x9 sets, side by side.

    python benchmarks/bench_variants.py                       # every backend, the four 9x9 sets + classic
    python benchmarks/bench_variants.py --backends pysat dlx --limit 10

The variant sets are `puzzles/variants/*_9x9.txt` (scripts/make_variant_puzzles.py: unique puzzles,
12-19 givens); the classic set is the same number of puzzles from ../shared/puzzles/norvig_top95.txt
(17-26 givens). Everything runs through `satdoku.comparison` (one clock per call, every grid verified,
backends interleaved puzzle by puzzle, agreement checked). 'vs classic' is the variant's puzzles/s over
the classic set's on the same backend.
"""
from __future__ import annotations

import argparse

import harness  # first: puts the repo root on sys.path
from satdoku.comparison import backends_by_names, compare_backends, first_disagreement, summary
from satdoku.models.formats import read_puzzles

SETS = ("x_9x9", "antiknight_9x9", "windoku_9x9", "jigsaw_9x9")
# the backtracker is left out by default: on the hard classic set it takes minutes a puzzle (add it
# with --backends ... backtrack --time-limit 10 to see it time out)
BACKENDS = ("pysat", "cpsat", "ilp:highs", "dlx", "logic", "external:minisat")


def rates(names: list[str], path: str, limit: int, time_limit: float) -> dict[str, tuple[float, int]]:
    """Backend -> (puzzles/s, time-outs) on the first `limit` puzzles of a file; stops on a disagreement."""
    puzzles = read_puzzles(path)[:limit]
    backends = backends_by_names(",".join(names))
    records = compare_backends(backends, puzzles, time_limit=time_limit)
    problem = first_disagreement(records)
    if problem:
        raise SystemExit(problem)
    rows = summary([b.name for b in backends], records)
    return {row["backend"]: (row["puzzles_per_second"], row["timeouts"]) for row in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--limit", type=int, default=20, help="puzzles per set (default 20)")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per puzzle and backend")
    args = parser.parse_args()
    classic = rates(args.backends, str(harness.SHARED_PUZZLES / "norvig_top95.txt"), args.limit, args.time_limit)
    table = [("set", "backend", "puzzles/s", "vs classic", "time-outs")]
    for name, (rate, outs) in classic.items():
        table.append(("classic (norvig_top95)", name, f"{rate:,.1f}", "1.00x", str(outs)))
    for set_name in SETS:
        found = rates(args.backends, str(harness.REPO / "puzzles" / "variants" / f"{set_name}.txt"),
                      args.limit, args.time_limit)
        for name, (rate, outs) in found.items():
            table.append((set_name, name, f"{rate:,.1f}", f"{rate / classic[name][0]:.2f}x", str(outs)))
    harness.print_table(table, left=2)


if __name__ == "__main__":
    main()
