"""Backends side by side: run each on every puzzle, verify every grid, decide who disagrees, sum up.

Agreement, decided per puzzle among the backends that answered (a time-out is no answer):
- every grid must pass the independent verifier (a wrong grid is a disagreement of its backend);
- all must agree on solved versus no solution;
- solving: equal grids agree; different grids that both verify mean the puzzle has several
  solutions, which is not a disagreement (the puzzle is counted under "several solutions");
- counting: the counts (each capped at the limit) must be equal.
The backends on the minority side of a split are the ones that disagree (on a tie, all sides).

>>> from satdoku.models.formats import parse_puzzles
>>> records = compare_backends(backends_by_names("dlx,backtrack"), parse_puzzles("1...\\n...2\\n..4.\\n.3.."))
>>> [r.disagreeing for r in records], summary(["dlx", "backtrack"], records)[0]["solved"]
([[]], 1)
"""
from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from satdoku.backends.base import Backend, Status
from satdoku.backends.registry import get_backend
from satdoku.errors import InputError, SatdokuError, SolverError
from satdoku.models.puzzle import Grid, Puzzle
from satdoku.verified import checked_count, first_problem

WARM_UP_SECONDS = 1.0


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


def backends_by_names(text: str, lookup: Callable[..., Backend] = get_backend) -> list[Backend]:
    """The backends of a comma-separated list, each checked to be installed before any work."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise InputError("--backends: give at least one backend name")
    backends, seen = [], set()
    for name in names:
        backend = lookup(name)
        if backend.name in seen:
            raise InputError(f"--backends: {backend.name} is listed twice")
        seen.add(backend.name)
        backends.append(backend)
    return backends


def run_one(backend: Backend, puzzle: Puzzle, counting: bool = False, limit: int | None = None,
            time_limit: float | None = None) -> Answer:
    """One backend on one puzzle through the contract, timed by one clock for all, its grid verified."""
    start = time.perf_counter()
    try:
        if counting:
            count = checked_count(backend, puzzle, limit, time_limit)
            return Answer(count.status, time.perf_counter() - start, count=count.found)
        result = backend.solve(puzzle, time_limit)
    except SatdokuError:
        raise
    except Exception as err:  # a backend that crashes is a solver error, reported in one line
        raise SolverError(f"{puzzle.where}backend {backend.name} failed: {type(err).__name__}: {err}") from None
    answer = Answer(result.status, time.perf_counter() - start, result.grid)
    if result.status is Status.SOLVED:
        answer.problem = first_problem(result.grid, puzzle)
    return answer


def judge(record: PuzzleRecord, counting: bool) -> None:
    """Fill in who disagrees on one puzzle (see the module docstring for the rules)."""
    answered = {name: a for name, a in record.answers.items() if a.status is not Status.UNKNOWN}
    wrong = [name for name, a in answered.items() if a.problem]
    reasons = [f"{name} returned a wrong grid ({answered[name].problem})" for name in wrong]
    fair = {name: a for name, a in answered.items() if not a.problem}
    if counting:
        verdicts: dict[str, object] = {name: a.count for name, a in fair.items()}
        label = "counts"
    else:
        verdicts = {name: a.status.value for name, a in fair.items()}
        label = "answers"
        record.several = len({a.grid for a in fair.values() if a.grid is not None}) > 1
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


def warm_up(backends: Sequence[Backend], puzzles: Sequence[Puzzle], time_limit: float | None = None) -> None:
    """Solve an empty grid of the first puzzle's geometry once per backend, untimed and capped at a
    second (a quarter of the time limit when that is less): imports, tables and solver start-up are
    not part of the race."""
    if not puzzles:
        return
    empty = Puzzle.empty(puzzles[0].geometry)
    cap = WARM_UP_SECONDS if time_limit is None else min(WARM_UP_SECONDS, time_limit / 4)
    for backend in backends:
        try:
            backend.solve(empty, cap)
        except Exception:  # noqa: BLE001 - a warm-up failure shows up again, timed, in the real run
            pass


def compare_backends(backends: Sequence[Backend], puzzles: Sequence[Puzzle], counting: bool = False,
                     limit: int | None = None, time_limit: float | None = None,
                     progress: Callable[[Backend, Puzzle], None] | None = None) -> list[PuzzleRecord]:
    """Every backend on every puzzle, interleaved puzzle by puzzle so machine load falls on all alike."""
    warm_up(backends, puzzles, time_limit)
    records = []
    for puzzle in puzzles:
        answers = {}
        for backend in backends:
            answers[backend.name] = run_one(backend, puzzle, counting, limit, time_limit)
            if progress is not None:
                progress(backend, puzzle)
        record = PuzzleRecord(puzzle, answers)
        judge(record, counting)
        records.append(record)
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


def summary(names: Sequence[str], records: Sequence[PuzzleRecord], counting: bool = False) -> list[dict]:
    """Per backend: solved, no solution, disagreements, time-outs, puzzles/s, median, p90 and max time."""
    rows = []
    for name in names:
        answers = [r.answers[name] for r in records]
        times = [a.seconds for a in answers]
        total = sum(times)
        row = {"backend": name,
               "puzzles": len(answers),
               "solved": sum(a.status is Status.SOLVED and not a.problem for a in answers),
               "no_solution": sum(a.status is Status.NO_SOLUTION for a in answers),
               "disagreements": sum(name in r.disagreeing for r in records),
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


def first_disagreement(records: Sequence[PuzzleRecord]) -> str:
    """The message of the first puzzle the backends disagree on (and how many more), or ''."""
    bad = [r for r in records if r.disagreeing]
    if not bad:
        return ""
    more = f" (and {len(bad) - 1} more puzzles)" if len(bad) > 1 else ""
    return bad[0].message + more
