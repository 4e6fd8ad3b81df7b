"""A thin script over `satdoku compare`: the backends side by side on a shared puzzle set.

    python benchmarks/bench_compare.py [--file ../shared/puzzles/norvig_top95.txt]
        [--backends dlx,pysat,backtrack,logic] [--time-limit 60] [--plot out.png] [--count --limit N]

It runs exactly what `satdoku compare FILE --backends ... --time-limit S` runs (every grid verified
independently, agreement checked, puzzle by puzzle interleaving) and prints its table, plus the
command line that reproduces it. The exit code is compare's: 0 all agree, 3 some time-outs,
4 a disagreement.
"""
from __future__ import annotations

import argparse
import sys
import time

import harness  # first: puts the repo root on sys.path
from satdoku.cli import main as satdoku_main

DEFAULT_BACKENDS = "dlx,pysat,backtrack,logic"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_puzzle_options(parser, "norvig_top95.txt", limit_help=None)
    parser.add_argument("--backends", default=DEFAULT_BACKENDS, help=f"default {DEFAULT_BACKENDS}")
    parser.add_argument("--time-limit", default="60", help="seconds per puzzle and backend (default 60)")
    parser.add_argument("--plot", help="also write a chart of the time per puzzle")
    parser.add_argument("--count", action="store_true", help="count solutions instead of solving")
    parser.add_argument("--limit", help="with --count, stop at N solutions")
    args = parser.parse_args()
    argv = ["compare", args.file, "--backends", args.backends, "--time-limit", args.time_limit]
    if args.plot:
        argv += ["--plot", args.plot]
    if args.count:
        argv += ["--count"] + (["--limit", args.limit] if args.limit else [])
    print("$ satdoku " + " ".join(argv), flush=True)
    start = time.perf_counter()
    code = satdoku_main(argv)
    print(f"(wall time {time.perf_counter() - start:.1f} s, exit code {code})")
    return code


if __name__ == "__main__":
    sys.exit(main())
