"""A long `check` batch on the reused PySAT solver: the rate and memory must stay flat.

    python benchmarks/bench_check_batch.py                  # tdoku_17_clue (49,158 puzzles) twice: 98,316 checks
    python benchmarks/bench_check_batch.py --limit 5000 --rounds 2

Each check enumerates up to two solutions, leaving retired blocking clauses in the one solver;
the reused solver is rebuilt once REBUILD_AFTER of them pile up. Side by side in the same run: the
same batch with rebuilding switched off (the behaviour before), on the same file, in blocks of
`--block` puzzles. Every verdict must be `unique` (the file's puzzles are proper) and every grid
verified (by `satdoku.verified`).
"""
from __future__ import annotations

import argparse
import resource
import time

import harness  # first: puts the repo root on sys.path
import satdoku.backends.pysat as pysat_module
from satdoku.backends.pysat import PysatBackend
from satdoku.models.formats import read_puzzles
from satdoku.verified import uniqueness, verdict


def rss_mb() -> float:
    """This process's peak resident memory in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_batch(puzzles: list, rounds: int, block: int, rebuild_after: int) -> list[tuple[int, float, float]]:
    """(checks so far, checks/s of the last block, peak MB) after each block of checks."""
    pysat_module.REBUILD_AFTER = rebuild_after
    backend = PysatBackend()
    rows, done, start = [], 0, time.perf_counter()
    for _ in range(rounds):
        for puzzle in puzzles:
            found = uniqueness(backend, puzzle)
            if verdict(found) != "unique":
                raise SystemExit(f"{puzzle.source}: {verdict(found)}, expected unique")
            done += 1
            if done % block == 0:
                now = time.perf_counter()
                rows.append((done, block / (now - start), rss_mb()))
                start = now
    backend.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    harness.add_puzzle_options(parser, "tdoku_17_clue.txt")
    parser.add_argument("--rounds", type=int, default=2, help="times through the file (default 2)")
    parser.add_argument("--block", type=int, default=10_000, help="checks per row of the table")
    parser.add_argument("--peer", action="store_true", help="also run with rebuilding off (before the fix)")
    args = parser.parse_args()
    puzzles = read_puzzles(args.file)[:args.limit]
    print(f"{len(puzzles)} puzzles x {args.rounds} rounds, reused pysat:cadical195, blocks of {args.block}")
    rows = [("peer", "checks", "checks/s (block)", "peak MB")]
    for label, rebuild in [("rebuild every 20,000 retired clauses", pysat_module.REBUILD_AFTER)] + \
            ([("never rebuilt (before)", 10 ** 12)] if args.peer else []):
        for done, rate, mb in run_batch(puzzles, args.rounds, args.block, rebuild):
            rows.append((label, f"{done:,}", f"{rate:,.0f}", f"{mb:,.0f}"))
    harness.print_table(rows)


if __name__ == "__main__":
    main()
