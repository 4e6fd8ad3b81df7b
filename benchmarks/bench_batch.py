"""Batches end to end: reading rate, first answer, peak memory and throughput of `satdoku solve` on big files.

    python benchmarks/bench_batch.py                          # 200,000 lines; reading also on 1,000,000
    python benchmarks/bench_batch.py --sizes 200000 1000000 --jobs 1 2

The big files are the 17-clue set (../shared/puzzles/tdoku_17_clue.txt, 49,158 puzzles) repeated to the size
asked, written once to a temporary folder. Each run is `python -m satdoku solve FILE -o OUT` in its own
process: the first answer is timed on a run that writes to a pipe (stopped once the line arrives), the
whole run with /proc's peak resident memory of the solving process (VmHWM, read as it ends). 'reading' is
`satdoku.batch.iter_entries` alone: lines a second into puzzles the solver takes.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
import time
from itertools import islice
from pathlib import Path

import harness  # first: puts the repo root on sys.path
from satdoku.batch import iter_entries

SOURCE = harness.SHARED_PUZZLES / "tdoku_17_clue.txt"


def big_file(folder: Path, size: int) -> Path:
    """The 17-clue lines repeated to `size` lines."""
    path = folder / f"batch_{size}.txt"
    if not path.exists():
        lines = [line for line in SOURCE.read_text().splitlines() if line.strip()]
        with path.open("w") as out:
            for k in range(size):
                out.write(lines[k % len(lines)] + "\n")
    return path


def reading_rate(path: Path, limit: int) -> float:
    """Entries a second from iter_entries over the first `limit` lines."""
    start = time.perf_counter()
    count = sum(1 for _ in islice(iter_entries(str(path)), limit))
    return count / (time.perf_counter() - start)


def first_answer(path: Path, extra: list[str]) -> float:
    """Seconds from start to the first line on stdout."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", "solve", str(path), *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=harness.REPO)
    try:
        proc.stdout.readline()
        return time.perf_counter() - start
    finally:
        proc.terminate()  # SIGTERM: satdoku shuts its worker pool down
        proc.wait()


def peak_kib(pid: int) -> int:
    """A live process's peak resident memory in KiB (VmHWM), 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def whole_run(path: Path, extra: list[str], out: Path) -> tuple[float, float, int]:
    """Seconds, puzzles a second and peak memory (MiB, the solving process and its workers at their peaks)."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", "solve", str(path), "-o", str(out), *extra],
                            stderr=subprocess.DEVNULL, cwd=harness.REPO)
    peaks: dict[int, int] = {}

    def watch() -> None:
        while proc.poll() is None:
            children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
            pids = [proc.pid] + ([int(p) for p in children.read_text().split()] if children.exists() else [])
            for pid in pids:
                peaks[pid] = max(peaks.get(pid, 0), peak_kib(pid))
            time.sleep(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    proc.wait()
    seconds = time.perf_counter() - start
    watcher.join()
    lines = sum(1 for _ in out.open())
    return seconds, lines / seconds, max(peaks.values(), default=0) // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[200_000])
    parser.add_argument("--read-sizes", nargs="+", type=int, default=[200_000, 1_000_000])
    parser.add_argument("--jobs", nargs="+", type=int, default=[1])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="satdoku-batch-") as tmp:
        folder = Path(tmp)
        rows = [("lines", "reading lines/s")]
        for size in args.read_sizes:
            rows.append((f"{size:,}", f"{reading_rate(big_file(folder, size), size):,.0f}"))
        harness.print_table(rows)
        print()
        rows = [("lines", "jobs", "first answer s", "seconds", "puzzles/s", "peak MiB")]
        for size in args.sizes:
            path = big_file(folder, size)
            for jobs in args.jobs:
                extra = ["--jobs", str(jobs)] if jobs > 1 else []
                first = first_answer(path, extra)
                seconds, rate, peak = whole_run(path, extra, folder / "out.txt")
                rows.append((f"{size:,}", str(jobs), f"{first:.2f}", f"{seconds:.1f}", f"{rate:,.0f}", str(peak)))
        harness.print_table(rows)


if __name__ == "__main__":
    main()
