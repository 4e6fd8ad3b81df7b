"""`satdoku compare`: run several backends on every puzzle, check that they agree, show who is faster.

Each backend first solves an empty grid of the puzzles' geometry, untimed (imports, tables, start-up);
then the backends take turns puzzle by puzzle, timed by one wall clock around each call.

Agreement, decided per puzzle among the backends that answered (a time-out is no answer):
- every grid must pass the independent verifier (a wrong grid is a disagreement of its backend);
- all must agree on solved versus no solution;
- solving: equal grids agree; different grids that both verify mean the puzzle has several
  solutions, which is not a disagreement (the puzzle is counted under "several solutions");
- with --count: the counts (each capped at --limit) must be equal.
The backends on the minority side of a split are the ones that disagree; any disagreement makes the
run fail with exit code 4 after the table, naming the puzzle's line and the backends.
A time-out is shown in the table and makes the exit code 3, as everywhere in satdoku.
"""
from __future__ import annotations

import argparse
import csv
import inspect
import io
import json
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from satdoku.backends.base import Backend, Status
from satdoku.backends.registry import get_backend
from satdoku.commands.common import add_input, load_puzzles, positive_float, positive_int
from satdoku.errors import BackendUnavailable, InputError, SatdokuError, SolverError, TimeLimitReached
from satdoku.fileio import atomic_write
from satdoku.models.puzzle import Grid, Puzzle
from satdoku.models.verify import solution_problems

NAME = "compare"
HELP = "run several backends side by side on every puzzle, verify and check that they agree"
ORDER = 40
DEFAULT_BACKENDS = "pysat,dlx"
EXIT_DISAGREEMENT, EXIT_TIME_LIMIT = 4, 3
WARM_UP_SECONDS = 1.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_input(parser)
    parser.add_argument("--backends", "-B", default=DEFAULT_BACKENDS, metavar="LIST",
                        help=f"comma-separated backend names, such as dlx,pysat:cadical195,cpsat,ilp:cbc,"
                             f"backtrack,logic (default {DEFAULT_BACKENDS})")
    parser.add_argument("--count", action="store_true",
                        help="count solutions (up to --limit) instead of finding one")
    parser.add_argument("--limit", "-n", type=positive_int, metavar="N",
                        help="with --count, stop counting at N solutions")
    parser.add_argument("--time-limit", "-t", type=positive_float, metavar="S",
                        help="seconds per puzzle and backend; a puzzle that runs out counts as a time-out "
                             "(with --count, SAT/CP/ILP backends are checked between two solutions)")
    parser.add_argument("--format", "-f", choices=("table", "json", "csv"), default="table",
                        help="table (default), json (summary and every puzzle) or csv (the summary)")
    parser.add_argument("--plot", metavar="FILE", help="write a chart of the time per puzzle per backend "
                        "(png, svg or pdf; needs matplotlib: pip install 'satdoku[plot]')")


@dataclass
class Answer:
    """One backend on one puzzle."""

    status: Status
    seconds: float
    grid: Grid | None = None
    count: int | None = None
    problem: str = ""


@dataclass
class PuzzleRecord:
    """Every backend's answer on one puzzle, and who disagreed."""

    puzzle: Puzzle
    answers: dict[str, Answer]
    disagreeing: list[str] = field(default_factory=list)
    message: str = ""
    several: bool = False


def parse_backends(text: str) -> list[Backend]:
    """The backends of a comma-separated list, each checked to be installed before any work."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise InputError("--backends: give at least one backend name")
    backends, seen = [], set()
    for name in names:
        backend = get_backend(name)
        if backend.name in seen:
            raise InputError(f"--backends: {backend.name} is listed twice")
        seen.add(backend.name)
        backends.append(backend)
    return backends


def check_plot_target(path: str | None) -> None:
    """Fail before any solving when --plot cannot be honoured."""
    if not path:
        return
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise BackendUnavailable("--plot needs the matplotlib package (pip install 'satdoku[plot]')") from None
    from pathlib import Path
    folder = Path(path).parent
    if not folder.is_dir():
        raise InputError(f"--plot {path}: folder {str(folder)!r} does not exist")


def takes_time_limit(method) -> bool:
    """True when a backend's count/solutions method accepts a time_limit keyword."""
    try:
        return "time_limit" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


def count_within(backend: Backend, puzzle: Puzzle, limit: int | None, time_limit: float | None,
                 start: float) -> int:
    """A backend's count up to `limit`, bounded by `time_limit` as well as the backend allows.

    A count that takes a time limit gets it; the generic count (one solution at a time) is run
    here with a look at the clock after each solution; any other count runs unbounded.
    """
    if time_limit is None:
        return backend.count(puzzle, limit)
    if takes_time_limit(backend.count):
        return backend.count(puzzle, limit, time_limit=time_limit)
    if type(backend).count is not Backend.count:
        return backend.count(puzzle, limit)
    found = 0
    for _ in backend.solutions(puzzle, limit):
        found += 1
        if time.perf_counter() - start > time_limit:
            raise TimeLimitReached(f"{puzzle.where}time limit reached")
    return found


def run_one(backend: Backend, puzzle: Puzzle, args: argparse.Namespace) -> Answer:
    """One backend on one puzzle, timed by the same clock for everyone, its grid verified."""
    start = time.perf_counter()
    try:
        if args.count:
            count = count_within(backend, puzzle, args.limit, args.time_limit, start)
            return Answer(Status.SOLVED if count else Status.NO_SOLUTION, time.perf_counter() - start, count=count)
        result = backend.solve(puzzle, args.time_limit)
    except TimeLimitReached:
        return Answer(Status.UNKNOWN, time.perf_counter() - start)
    except SatdokuError:
        raise
    except Exception as err:  # a backend that crashes is a solver error, reported in one line
        raise SolverError(f"{puzzle.where}backend {backend.name} failed: {type(err).__name__}: {err}") from None
    answer = Answer(result.status, time.perf_counter() - start, result.grid)
    if result.status is Status.SOLVED:
        problems = solution_problems(result.grid, puzzle) if result.grid is not None else ["no grid"]
        answer.problem = problems[0] if problems else ""
    return answer


def judge(record: PuzzleRecord, counting: bool) -> None:
    """Fill in who disagrees on one puzzle (see the module docstring for the rules)."""
    answered = {name: a for name, a in record.answers.items() if a.status is not Status.UNKNOWN}
    wrong = [name for name, a in answered.items() if a.problem]
    reasons = [f"{name} returned a wrong grid ({answered[name].problem})" for name in wrong]
    fair = {name: a for name, a in answered.items() if not a.problem}
    if counting:
        verdicts = {name: a.count for name, a in fair.items()}
        label = "counts"
    else:
        verdicts = {name: a.status.value for name, a in fair.items()}
        label = "answers"
        grids = {a.grid for a in fair.values() if a.grid is not None}
        record.several = len(grids) > 1
    tally = Counter(verdicts.values())
    minority: list[str] = []
    if len(tally) > 1:
        top = max(tally.values())
        majority = [v for v, c in tally.items() if c == top]
        losing = set(tally) if len(majority) > 1 else set(tally) - set(majority)
        minority = [name for name, v in verdicts.items() if v in losing]
        sides = "; ".join(f"{', '.join(n for n, v in verdicts.items() if v == value)}: {value}"
                          for value in tally)
        reasons.append(f"{label} differ ({sides})")
    record.disagreeing = sorted(set(wrong) | set(minority))
    if record.disagreeing:
        where = record.puzzle.source or "puzzle"
        record.message = f"{where}: backends disagree: {'; '.join(reasons)}"


def progress_bar(total: int):
    """A tqdm bar on stderr when stderr is a terminal and tqdm is installed, else None."""
    if not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="run", file=sys.stderr, leave=False, dynamic_ncols=True)


def warm_up(backends: list[Backend], puzzles: list[Puzzle]) -> None:
    """Solve an empty grid of the first puzzle's geometry once per backend, untimed and capped at a
    second: imports, tables and solver start-up are not part of the race."""
    if not puzzles:
        return
    empty = Puzzle.empty(puzzles[0].geometry)
    for backend in backends:
        try:
            backend.solve(empty, WARM_UP_SECONDS)
        except Exception:  # noqa: BLE001 - a warm-up failure shows up again, timed, in the real run
            pass


def run_all(backends: list[Backend], puzzles: list[Puzzle], args: argparse.Namespace) -> list[PuzzleRecord]:
    """Every backend on every puzzle, interleaved puzzle by puzzle so machine load falls on all alike."""
    warm_up(backends, puzzles)
    bar = progress_bar(len(backends) * len(puzzles))
    records = []
    try:
        for puzzle in puzzles:
            answers = {}
            for backend in backends:
                if bar is not None:
                    bar.set_postfix_str(f"{backend.name} {puzzle.source}", refresh=False)
                answers[backend.name] = run_one(backend, puzzle, args)
                if bar is not None:
                    bar.update()
            record = PuzzleRecord(puzzle, answers)
            judge(record, args.count)
            records.append(record)
    finally:
        if bar is not None:
            bar.close()
    return records


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.5
    """
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summary(backends: list[Backend], records: list[PuzzleRecord], counting: bool) -> list[dict]:
    """Per backend: solved, no solution, disagreements, time-outs, puzzles/s, median, p90 and max time."""
    rows = []
    for backend in backends:
        answers = [r.answers[backend.name] for r in records]
        times = [a.seconds for a in answers]
        total = sum(times)
        row = {"backend": backend.name,
               "puzzles": len(answers),
               "solved": sum(a.status is Status.SOLVED and not a.problem for a in answers),
               "no_solution": sum(a.status is Status.NO_SOLUTION for a in answers),
               "disagreements": sum(backend.name in r.disagreeing for r in records),
               "timeouts": sum(a.status is Status.UNKNOWN for a in answers),
               "puzzles_per_second": len(answers) / total if total > 0 else float("inf"),
               "median_s": statistics.median(times) if times else float("nan"),
               "p90_s": percentile(times, 90),
               "max_s": max(times) if times else float("nan"),
               "total_s": total}
        if counting:
            row["solutions"] = sum(a.count or 0 for a in answers)
        rows.append(row)
    return rows


def seconds_text(value: float) -> str:
    """A time for the table: milliseconds below a second.

    >>> seconds_text(0.00123), seconds_text(2.5)
    ('1.23 ms', '2.50 s')
    """
    return f"{value * 1000:.2f} ms" if value < 1 else f"{value:.2f} s"


def table(rows: list[dict], counting: bool) -> str:
    """The summary as an aligned text table."""
    head = ["backend", "solved", "no sol.", "disagree", "time-outs", "puzzles/s", "median", "p90", "max"]
    if counting:
        head.insert(3, "solutions")
    lines = [head]
    for row in rows:
        cells = [row["backend"], str(row["solved"]), str(row["no_solution"]), str(row["disagreements"]),
                 str(row["timeouts"]), f"{row['puzzles_per_second']:.1f}", seconds_text(row["median_s"]),
                 seconds_text(row["p90_s"]), seconds_text(row["max_s"])]
        if counting:
            cells.insert(3, str(row["solutions"]))
        lines.append(cells)
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    out = []
    for line in lines:
        out.append("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                             for i, (cell, w) in enumerate(zip(line, widths))).rstrip())
    return "\n".join(out)


def csv_text(rows: list[dict]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in row.items()})
    return buffer.getvalue()


def json_text(rows: list[dict], records: list[PuzzleRecord], args: argparse.Namespace) -> str:
    puzzles = []
    for record in records:
        entry: dict = {"source": record.puzzle.source, "disagreeing": record.disagreeing,
                       "several_solutions": record.several, "results": {}}
        for name, answer in record.answers.items():
            result: dict = {"status": answer.status.value, "time": round(answer.seconds, 6)}
            if answer.count is not None:
                result["count"] = answer.count
            if answer.problem:
                result["problem"] = answer.problem
            entry["results"][name] = result
        puzzles.append(entry)
    document = {"file": args.file, "mode": "count" if args.count else "solve", "limit": args.limit,
                "time_limit": args.time_limit, "backends": rows, "puzzles": puzzles}
    return json.dumps(document, indent=1)


def plot(records: list[PuzzleRecord], backends: list[Backend], path: str) -> None:
    """A chart of time per puzzle per backend (log scale), written atomically."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(10, 5))
    xs = list(range(1, len(records) + 1))
    for backend in backends:
        times = [r.answers[backend.name].seconds for r in records]
        axes.plot(xs, times, marker="o", markersize=3, linewidth=0.8, label=backend.name)
        outs = [(x, t) for x, t, r in zip(xs, times, records) if r.answers[backend.name].status is Status.UNKNOWN]
        if outs:
            axes.scatter(*zip(*outs), marker="x", color="black", zorder=3)
    axes.set_yscale("log")
    axes.set_xlabel("puzzle (order in the file)")
    axes.set_ylabel("seconds (log scale; x = time-out)")
    axes.set_title("satdoku compare: time per puzzle")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    axes.grid(True, which="both", alpha=0.3)
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path else "png"
    buffer = io.BytesIO()
    figure.savefig(buffer, format=suffix if suffix in ("png", "svg", "pdf") else "png", dpi=120,
                   bbox_inches="tight")
    plt.close(figure)
    atomic_write(path, buffer.getvalue())


def run(args: argparse.Namespace) -> int:
    if args.limit and not args.count:
        raise InputError("--limit needs --count (solving always stops at the first solution)")
    backends = parse_backends(args.backends)
    check_plot_target(args.plot)
    puzzles = load_puzzles(args)
    records = run_all(backends, puzzles, args)
    rows = summary(backends, records, args.count)
    if args.format == "json":
        print(json_text(rows, records, args))
    elif args.format == "csv":
        print(csv_text(rows), end="")
    else:
        several = sum(r.several for r in records)
        mode = f"count (limit {args.limit})" if args.count and args.limit else "count" if args.count else "solve"
        print(f"{len(puzzles)} puzzles, {mode}" + (f", time limit {args.time_limit:g} s" if args.time_limit else "")
              + (f", {several} with several solutions (different grids, all verified)" if several else ""))
        print(table(rows, args.count))
    if args.plot:
        plot(records, backends, args.plot)
    bad = [r for r in records if r.disagreeing]
    if bad:
        more = f" (and {len(bad) - 1} more puzzles)" if len(bad) > 1 else ""
        raise SolverError(bad[0].message + more)
    timeouts = sum(row["timeouts"] for row in rows)
    if timeouts:
        print(f"satdoku: {timeouts} runs reached the time limit of {args.time_limit:g} s "
              f"(see the time-outs column)", file=sys.stderr)
        return EXIT_TIME_LIMIT
    return 0
