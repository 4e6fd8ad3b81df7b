"""What the commands print: one Report per puzzle, written in a style (line, grid, json, svg).

Every command builds Reports and hands them to `write_reports`; a style is one function from a
Report to text (`STYLE_WRITERS`), so a new style is one function here, not an edit of each command.
A style that makes one document of the whole run (svg: one sheet) also has a function from all the
Reports to text (`SHEET_WRITERS`), which `write_reports` calls once at the end.
"""
from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, TextIO

from satdoku.backends.base import Status
from satdoku.comparison import PuzzleRecord
from satdoku.drawing import SheetItem, sheet_svg
from satdoku.errors import EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK, EXIT_TIME_LIMIT
from satdoku.fileio import atomic_write
from satdoku.models.formats import format_cells, format_line
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Grid, Puzzle, cell_name
from satdoku.models.verify import solution_problems
from satdoku.verified import Count, Solutions, verdict

if TYPE_CHECKING:
    from satdoku.batch import Entry

STYLES = ("line", "grid", "json", "svg")
BATCH_STYLES = STYLES + ("csv",)  # csv: puzzle,solution rows, for solve
KINDS = ("solve", "solutions", "count", "check")


@dataclass
class Report:
    """What a command found for one puzzle.

    `kind` is "solve" (one grid), "solutions" (--all / --limit), "count" or "check"; `grids` are
    verified solutions; `count` the number counted (kind "count"); `status` unknown when the time
    limit ran out first.
    """

    kind: str
    puzzle: Puzzle | None  # None for an invalid entry of a batch (`entry.problem` says why)
    status: Status
    backend: str
    seconds: float
    grids: list[Grid] = field(default_factory=list)
    count: int | None = None
    limit: int | None = None
    time_limit: float | None = None
    explanation: list[str] = field(default_factory=list)
    entry: "Entry | None" = None  # where a batch read it, and a data set's own solution and fields

    @property
    def timed_out(self) -> bool:
        return self.status is Status.UNKNOWN and not self.invalid

    @property
    def invalid(self) -> bool:
        """True for a line of a batch that is not a puzzle."""
        return self.puzzle is None

    @cached_property
    def dataset(self) -> str | None:
        """How a data set's own solution compares with the verified one: None when it has none, 'agrees', or
        'differs' with why (another solution: the puzzle is not unique; or the rules it breaks).

        >>> from satdoku.batch import Entry
        >>> from satdoku.models.formats import parse_puzzle
        >>> p = parse_puzzle("1000000200400300")
        >>> e = Entry(p, "k.csv", 2, expected=(1,) * 16)
        >>> Report("solve", p, Status.SOLVED, "dlx", 0.0, [(1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)], entry=e).dataset
        "differs: the data set's grid breaks the rules (r2c4 holds 1 but the given is 2)"
        """
        expected = self.entry.expected if self.entry is not None else None
        if expected is None or self.puzzle is None or self.timed_out:
            return None
        if self.grids and tuple(self.grids[0]) == tuple(expected):
            return "agrees"
        problems = solution_problems(expected, self.puzzle)
        if problems:
            return f"differs: the data set's grid breaks the rules ({problems[0]})"
        if not self.grids:
            return "differs: the data set gives a grid, the solver found none"  # cannot be: the grid is checked
        return "differs: the data set's grid is another solution (the puzzle is not unique)"

    @property
    def verdict(self) -> str:
        """check: none, unique, multiple, or unknown when the time ran out first."""
        return verdict(Solutions(self.grids, self.timed_out))

    @property
    def exit_code(self) -> int:
        """This puzzle's part of the exit code: 2 for an invalid line, 3 for a time-out, 1 for none (or several, in
        check, or a data set's solution that differs), else 0."""
        if self.invalid:
            return EXIT_BAD_INPUT
        if self.dataset not in (None, "agrees"):
            return EXIT_NO_SOLUTION
        if self.timed_out:
            return EXIT_TIME_LIMIT
        if self.kind == "check":
            return EXIT_OK if len(self.grids) == 1 else EXIT_NO_SOLUTION
        if self.kind == "count":
            return EXIT_OK if self.count else EXIT_NO_SOLUTION
        return EXIT_OK if self.status is Status.SOLVED else EXIT_NO_SOLUTION


def run_exit_code(codes: Iterable[int]) -> int:
    """The exit code of a run: 2 if a line of a batch was not a puzzle, else 3 if any time limit ran out, else
    1 if any puzzle failed, else 0.

    >>> run_exit_code([0, 1, 0]), run_exit_code([1, 3]), run_exit_code([3, 2]), run_exit_code([])
    (1, 3, 2, 0)
    """
    codes = set(codes)
    for code in (EXIT_BAD_INPUT, EXIT_TIME_LIMIT, EXIT_NO_SOLUTION):
        if code in codes:
            return code
    return EXIT_OK


def status_text(status: Status, time_limit: float | None) -> str:
    """How a status reads, with the time limit when it ran out.

    >>> status_text(Status.UNKNOWN, 2.0), status_text(Status.NO_SOLUTION, None)
    ('unknown (time limit 2 s reached)', 'no solution')
    """
    if status is Status.UNKNOWN:
        return f"unknown (time limit {time_limit:g} s reached)" if time_limit else "unknown"
    return status.value


def count_text(found: int, limit: int | None, time_limit: float | None = None, timed_out: bool = False) -> str:
    """How a count reads: the number, '>= N' when the limit was reached, and why it stopped.

    >>> count_text(288, None), count_text(10, 10), count_text(3, 10), count_text(7, None, 2.0, True)
    ('288', '>= 10', '3', '>= 7 (time limit 2 s reached)')
    """
    if timed_out:
        return f">= {found} (time limit {time_limit:g} s reached)" if time_limit else f">= {found}"
    return f">= {found}" if limit is not None and found >= limit else str(found)


def differing_cells(grids: Sequence[Grid], n: int) -> list[str]:
    """The cells where two solutions differ, as r1c1 names.

    >>> differing_cells([(1, 2, 2, 1), (2, 1, 1, 2)], 2)
    ['r1c1', 'r1c2', 'r2c1', 'r2c2']
    """
    if len(grids) < 2:
        return []
    return [cell_name(i, n) for i, (a, b) in enumerate(zip(grids[0], grids[1])) if a != b]


def render(grids: Sequence[Grid], puzzle: Puzzle, style: str) -> str:
    """Several grids in a text style, drawn grids separated by blank lines."""
    sep = "\n\n" if style == "grid" else "\n"
    return sep.join(format_cells(g, puzzle, style) for g in grids)


def text_report(report: Report, style: str) -> str:
    """A Report in the line or grid style."""
    puzzle, grids = report.puzzle, report.grids
    if puzzle is None:
        return "invalid" if style == "line" else f"invalid: {report.entry.problem if report.entry else ''}"
    if report.kind == "count":
        return count_text(report.count or 0, report.limit, report.time_limit, report.timed_out)
    if report.kind == "check":
        word = report.verdict
        if word == "unknown":
            word = status_text(report.status, report.time_limit)
        if style == "line":
            return " ".join([word] + [format_line(g, puzzle) for g in grids])
        if word == "multiple":
            differ = differing_cells(grids, puzzle.n)
            word = f"multiple: two solutions that differ in {len(differ)} cells ({' '.join(differ)})"
        return word if not grids else f"{word}\n{render(grids, puzzle, style)}"
    lines = list(report.explanation)
    if grids:
        lines.append(render(grids, puzzle, style))
    if report.status is not Status.SOLVED:
        lines.append(status_text(report.status, report.time_limit))
    return "\n".join(lines)


def line_report(report: Report) -> str:
    return text_report(report, "line")


def grid_report(report: Report) -> str:
    return text_report(report, "grid")


def geometry_record(g: Geometry) -> dict:
    """The geometry as JSON: side and box shape, and the rules when it has any.

    >>> geometry_record(Geometry(2, 2).with_rules(("x",)))
    {'n': 4, 'box_rows': 2, 'box_cols': 2, 'rules': ['diagonal-', 'diagonal+']}
    """
    record: dict = {"n": g.n, "box_rows": g.box_rows, "box_cols": g.box_cols}
    if g.rules:
        record["rules"] = list(g.rules)
    if g.regions is not None:
        record["regions"] = [list(region) for region in g.regions]
    if g.extra_regions:
        record["extra_regions"] = [list(region) for region in g.extra_regions]
    return record


def json_report(report: Report) -> str:
    """A Report as one JSON object on one line; a batch's line number, a data set's verdict and its other
    columns when it came from one."""
    puzzle, entry = report.puzzle, report.entry
    if puzzle is None:
        assert entry is not None
        return json.dumps({"source": entry.where, "line": entry.line, "status": "invalid", "message": entry.problem,
                           "text": entry.text, **entry.fields})
    g = puzzle.geometry
    record: dict = {"source": puzzle.source, "geometry": geometry_record(g),
                    "puzzle": format_line(puzzle.cells, puzzle), "givens": puzzle.n_givens}
    solutions = [format_line(grid, puzzle) for grid in report.grids]
    if report.kind == "count":
        record.update(count=report.count, exact=Count(report.count or 0, report.limit, report.timed_out).exact,
                      limit=report.limit)
    elif report.kind == "check":
        record.update(verdict=report.verdict, solutions=solutions,
                      differ=differing_cells(report.grids, puzzle.n))
    else:
        record["status"] = report.status.value
    record.update(backend=report.backend, time=round(report.seconds, 6))
    if report.kind == "solve":
        record["solution"] = solutions[0] if solutions else None
    elif report.kind == "solutions":
        record.update(solutions=solutions, count=len(solutions))
    if report.timed_out:
        record["time_limit_reached"] = report.time_limit
    if report.explanation:
        record["explanation"] = list(report.explanation)
    if entry is not None and entry.line:
        record["line"] = entry.line
        if report.dataset is not None:
            record["dataset_solution"] = report.dataset
        record.update(entry.fields)
    return json.dumps(record)


def csv_report(report: Report) -> str:
    """A Report as a `puzzle,solution` CSV row (an empty solution when there is none).

    >>> from satdoku.models.formats import parse_puzzle
    >>> csv_report(Report("solve", parse_puzzle("1......2..4..3.."), Status.NO_SOLUTION, "dlx", 0.0))
    '1......2..4..3..,'
    """
    if report.puzzle is None:
        puzzle_text, solution = (report.entry.text if report.entry else ""), ""
    else:
        puzzle_text = format_line(report.puzzle.cells, report.puzzle)
        solution = format_line(report.grids[0], report.puzzle) if report.grids else ""
    line = io.StringIO()
    csv.writer(line, lineterminator="").writerow([puzzle_text, solution])
    return line.getvalue()


class ProgressLine:
    """A count's progress on a terminal, one line redrawn in place: `label: 1,234 solutions so far`."""

    def __init__(self, label: str, stream: TextIO) -> None:
        self.label, self.stream, self.drawn = label, stream, False

    def __call__(self, found: int) -> None:
        self.stream.write(f"\r{self.label}: {found:,} solutions so far ")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()


def report_title(report: Report, index: int) -> str:
    """How a puzzle is named on a picture: where it was read from, else its number in the run."""
    return report.puzzle.source or f"puzzle {index + 1}"


def report_pictures(report: Report, index: int = 0) -> list[SheetItem]:
    """The pictures of one Report: each solution, or the puzzle itself (titled with why) when there is none.

    >>> from satdoku.models.formats import parse_puzzle
    >>> p = parse_puzzle("1......2..4..3..")
    >>> [title for _, _, title in report_pictures(Report("solve", p, Status.NO_SOLUTION, "dlx", 0.0))]
    ['line 1: no solution']
    """
    name, puzzle, grids = report_title(report, index), report.puzzle, report.grids
    if report.kind == "check":
        word = report.verdict
        if word == "unknown":
            word = status_text(report.status, report.time_limit)
        if word == "multiple":
            word = f"multiple (differ in {len(differing_cells(grids, puzzle.n))} cells)"
    elif report.kind == "count":
        word = "count " + count_text(report.count or 0, report.limit, report.time_limit, report.timed_out)
    else:
        word = status_text(report.status, report.time_limit)
    if not grids:
        return [(puzzle, None, f"{name}: {word}")]
    if len(grids) == 1:
        return [(puzzle, grids[0], f"{name}: {word}")]
    return [(puzzle, grid, f"{name}: {word}, solution {k} of {len(grids)}") for k, grid in enumerate(grids, 1)]


def svg_sheet(reports: Sequence[Report]) -> str:
    """Every Report's pictures on one SVG sheet."""
    return sheet_svg([item for k, report in enumerate(reports) for item in report_pictures(report, k)])


def svg_report(report: Report) -> str:
    """A Report as an SVG document of its own."""
    return svg_sheet([report])


STYLE_WRITERS: dict[str, Callable[[Report], str]] = {"line": line_report, "grid": grid_report, "json": json_report,
                                                     "svg": svg_report, "csv": csv_report}
# styles that open with a header line
STYLE_HEADERS = {"csv": "puzzle,solution"}
# styles whose whole run is one document, written once all the Reports are in
SHEET_WRITERS: dict[str, Callable[[Sequence[Report]], str]] = {"svg": svg_sheet}


def write_reports(reports: Iterable[Report], style: str, out: TextIO | None = None,
                  err: TextIO | None = None) -> int:
    """Print each Report as it comes (blank lines between drawn grids); the run's exit code.

    A sheet style (svg) keeps the Reports and prints one document at the end. A time-out also gets
    one line on stderr, in every style.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    writer = STYLE_WRITERS[style]
    sheet = SHEET_WRITERS.get(style)
    codes, kept = [], []
    if style in STYLE_HEADERS:
        out.write(STYLE_HEADERS[style] + "\n")
    for k, report in enumerate(reports):
        if report.invalid and report.entry is not None:
            err.write(f"satdoku: {report.entry.where}: {report.entry.problem}\n")
        elif report.dataset not in (None, "agrees"):
            err.write(f"satdoku: {report.puzzle.source}: {report.dataset}\n")
        if sheet is not None:
            if not report.invalid:
                kept.append(report)
        else:
            if style == "grid" and k:
                out.write("\n")
            out.write(writer(report) + "\n")
            out.flush()
        if report.timed_out:
            why = f"time limit of {report.time_limit:g} s reached" if report.time_limit else "no answer (unknown)"
            err.write(f"satdoku: {report.puzzle.where}{why}\n")
        codes.append(report.exit_code)
    if sheet is not None:
        out.write(sheet(kept))
        out.flush()
    return run_exit_code(codes)


# --- satdoku compare: the summary table, CSV, JSON and the chart ---


def seconds_text(value: float) -> str:
    """A time for the table: milliseconds below a second.

    >>> seconds_text(0.00123), seconds_text(2.5)
    ('1.23 ms', '2.50 s')
    """
    return f"{value * 1000:.2f} ms" if value < 1 else f"{value:.2f} s"


def compare_table(rows: list[dict], counting: bool) -> str:
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


def compare_csv(rows: list[dict]) -> str:
    """The summary rows of `compare` as CSV."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in row.items()})
    return buffer.getvalue()


def compare_json(rows: list[dict], records: Sequence[PuzzleRecord], run: dict) -> str:
    """The summary and every puzzle's answers as one JSON document; `run` says what was run."""
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
    document = {**run, "backends": rows, "puzzles": puzzles}
    return json.dumps(document, indent=1)


def write_plot(records: Sequence[PuzzleRecord], names: Sequence[str], path: str) -> None:
    """A chart of time per puzzle per backend (log scale), written atomically."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(10, 5))
    xs = list(range(1, len(records) + 1))
    for name in names:
        times = [r.answers[name].seconds for r in records]
        axes.plot(xs, times, marker="o", markersize=3, linewidth=0.8, label=name)
        outs = [(x, t) for x, t, r in zip(xs, times, records) if r.answers[name].status is Status.UNKNOWN]
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
