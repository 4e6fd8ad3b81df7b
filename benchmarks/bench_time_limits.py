"""Time limits on huge and endless questions: every backend, every mode, wall time and peak memory.

    python benchmarks/bench_time_limits.py                 # -t 2: 49x49 and 64x64 with one given, empty 16x16
    python benchmarks/bench_time_limits.py --backends dlx pysat --modes solve count

Each run is a fresh `satdoku` process (interpreter start-up included in the wall time); its peak
resident memory comes from the kernel (wait4). The bar: every run ends within the limit + 1 s
(plus start-up) with exit 3, or with its answer (exit 0/1), in under 2 GB, with no traceback.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness  # first: puts the repo root on sys.path

BACKENDS = ("pysat", "external:cadical", "cpsat", "ilp:highs", "ilp:cbc", "dlx", "backtrack", "logic")
MODES = {"solve": ["solve"], "all": ["solve", "--all"], "limit": ["solve", "--limit", "5"], "count": ["count"],
         "check": ["check"], "compare": ["compare", "--count"]}


def inputs(folder: Path) -> dict[str, Path]:
    """The three questions: 49x49 and 64x64 with one given (integer format), an empty 16x16."""
    files = {}
    for side in (49, 64):
        path = folder / f"one_given_{side}.txt"
        path.write_text(" ".join(["1"] + ["0"] * (side * side - 1)) + "\n")
        files[f"{side}x{side}, one given"] = path
    empty = folder / "empty_16.txt"
    empty.write_text(" ".join(["0"] * 256) + "\n")
    files["16x16 empty"] = empty
    return files


def run(argv: list[str], timeout: float) -> tuple[int, float, float, bool]:
    """Exit code, wall seconds and peak MB of one satdoku process, and whether it printed a traceback."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen([sys.executable, "-m", "satdoku", *argv], stdout=subprocess.DEVNULL,
                                   stderr=err, cwd=harness.REPO)
        killed = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout and not killed:
                process.kill()
                killed = True
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        traceback = b"Traceback" in err.read()
    return process.returncode, seconds, usage.ru_maxrss / 1024, traceback


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS))
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=list(MODES))
    parser.add_argument("--time-limit", type=float, default=2.0)
    args = parser.parse_args()
    rows = [("question", "backend", "mode", "exit", "seconds", "peak MB", "ok")]
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        for label, path in inputs(Path(folder)).items():
            for backend in args.backends:
                for mode in args.modes:
                    argv = MODES[mode] + [str(path), "-t", f"{args.time_limit:g}"]
                    argv += ["--backends", backend] if mode == "compare" else ["-b", backend]
                    code, seconds, peak, traceback = run(argv, args.time_limit * 10 + 30)
                    ok = code in (0, 1, 3) and not traceback and seconds < args.time_limit + 1.0 + 1.5 \
                        and peak < 2048
                    failures += not ok
                    rows.append((label, backend, mode, str(code), f"{seconds:.2f}", f"{peak:,.0f}",
                                 "yes" if ok else "NO"))
                    print("  ".join(rows[-1]), file=sys.stderr, flush=True)
    harness.print_table(rows, left=3)
    print(f"\n{len(rows) - 1 - failures} of {len(rows) - 1} runs within {args.time_limit:g} s + 1 s "
          f"(+1.5 s start-up), under 2 GB, no traceback")


if __name__ == "__main__":
    main()
