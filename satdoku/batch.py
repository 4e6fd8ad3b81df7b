"""Batches read one entry at a time: a file of one puzzle per line, or a CSV data set, streams, so memory
stays flat and the first answer comes at once; a line that is not a puzzle becomes an invalid entry (its
line number and why) and the batch goes on. Other files (JSON, drawn grids, the text form) are read whole,
as `formats.read_puzzles` does.

Lines of the common fixed width (81 characters of digits with `.` or `0` blanks, the classic 9x9 line)
are read a block at a time with numpy, no Python loop per character; any other line goes through the
general parser, which also words the message of a line the fast path turns down.
"""
from __future__ import annotations

import csv
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path

import numpy as np

from satdoku.backends.base import Backend, Result
from satdoku.errors import InputError
from satdoku.fileio import iter_lines
from satdoku.models.formats import (MAX_LINE, _has_sections, _is_packed_line, _numeric_block, _plain_puzzles, _read_row,
                                    _single_line, _values, parse_puzzles, read_puzzles)
from satdoku.models.fpuzzles import checked, geometry_with, is_json_text, link_puzzle
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Grid, Puzzle, cell_name
from satdoku.verified import checked_result

PEEK_LINES = 64         # lines looked at to tell a one-per-line file from drawn grids or the text form
BLOCK = 4096            # lines read together by the fixed-width fast path
CHUNK = 256             # entries solved together (one solve_many call, one task of a worker process)
PUZZLE_COLUMNS = ("quizzes", "quiz", "puzzle", "puzzles", "question")
SOLUTION_COLUMNS = ("solutions", "solution", "answer")
NINE = Geometry(3, 3)
_BYTE_VALUES = np.full(256, -1, dtype=np.int8)  # a 9x9 line's characters: digits 1-9, blanks '.' and '0'
_BYTE_VALUES[ord("0")] = _BYTE_VALUES[ord(".")] = 0
_BYTE_VALUES[ord("1"):ord("9") + 1] = np.arange(1, 10)
_UNITS = np.array(NINE.houses, dtype=np.int64)  # 27 x 9 cells
_DIGIT_BITS = np.array([0] + [1 << d for d in range(9)] + [0], dtype=np.int16)  # value -> bit (index -1: 0)


@dataclass(frozen=True)
class Entry:
    """One entry of a batch: a puzzle, or the line that is not one (`problem` says why), with a data set's
    own solution and the row's other fields when it came from a CSV file."""

    puzzle: Puzzle | None
    source: str
    line: int
    problem: str = ""
    expected: Grid | None = None
    fields: dict = field(default_factory=dict, compare=False)
    text: str = ""  # an invalid entry's own text (the line, or the CSV row's puzzle field)

    @property
    def where(self) -> str:
        """'file line 3', as messages name it."""
        return f"{self.source} line {self.line}" if self.source else f"line {self.line}"


def iter_entries(path: str, box: Geometry | None = None, rules: tuple[str, ...] = ()) -> Iterator[Entry]:
    """The entries of a file ('-' for stdin), streamed when it holds one puzzle per line or is a CSV data set.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    ...     _ = f.write("1000000200400300\\n10000002004003\\n")
    >>> [(e.line, e.puzzle is not None, e.problem) for e in iter_entries(f.name)]
    [(1, True, ''), (2, False, '14 cells is not a puzzle size (16, 36, 64, 81, 144, 256, ... cells)')]
    >>> os.unlink(f.name)
    """
    source = "stdin" if path == "-" else Path(path).name
    if path.lower().endswith((".json", ".json.gz")):
        yield from whole_entries(read_puzzles(path, box, rules))
        return
    lines = iter_lines(path, MAX_LINE, "puzzle")
    head = list(islice(lines, PEEK_LINES))
    if csv_columns(head) is not None:
        yield from csv_entries(chain(head, lines), source, box, rules)
    elif one_per_line(head, box):
        yield from line_entries(chain(head, lines), source, box, rules)
    else:
        text = "\n".join(chain(head, lines))
        yield from whole_entries(parse_puzzles(text, box, source, rules))


def whole_entries(puzzles: Iterable[Puzzle]) -> Iterator[Entry]:
    """Entries of puzzles read whole (their source already names the line)."""
    for puzzle in puzzles:
        yield Entry(puzzle, puzzle.source, 0)


def one_per_line(head: list[str], box: Geometry | None) -> bool:
    """True when the first lines are puzzles one per line (not drawn grids, sections, JSON or links only):
    the lines that read as one-line puzzles do not read as drawn grids together, and most lines do.

    >>> one_per_line(["1000000200400300", "0200000000300040"], None), one_per_line(["12|34", "34|12"], None)
    (True, False)
    >>> one_per_line(["1000000200400300", "100000020040030"], None)  # a bad line is an entry of its own
    True
    """
    text = "\n".join(head)
    if not text.strip() or is_json_text(text) or _has_sections(text):
        return False
    lines = [(k, line.strip()) for k, line in enumerate(head, 1) if line.strip() and not line.lstrip().startswith("#")]
    single = []
    for k, line in lines:
        try:
            _single_line(_read_row(k, line), box, "")
            single.append(line)
        except InputError:
            pass
    if 2 * len(single) < len(lines):
        return False
    try:  # rows of a drawn grid read one by one as smaller puzzles (16 symbols: a 4x4); together, as the grid
        return len(_plain_puzzles("\n".join(single), box, "")) == len(single)
    except InputError:
        return False


def line_entries(lines: Iterable[str], source: str, box: Geometry | None, rules: tuple[str, ...]) -> Iterator[Entry]:
    """One entry per puzzle line (blank lines and # comments skipped), fixed-width 9x9 lines by numpy."""
    fast = (box is None or box == NINE) and not rules
    variants: dict[Geometry, Geometry] = {}
    lineno = 0
    while block := list(islice(lines, BLOCK)):
        numbers = range(lineno + 1, lineno + 1 + len(block))
        lineno += len(block)
        quick = nine_by_nine(block) if fast else {}
        for number, line in zip(numbers, block):
            cells = quick.get(number - numbers[0])
            if cells is not None:
                yield Entry(Puzzle(NINE, cells, None, f"{source} line {number}"), source, number)
                continue
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            yield one_line(text, number, source, box, rules, variants)


def one_line(text: str, number: int, source: str, box: Geometry | None, rules: tuple[str, ...],
             variants: dict[Geometry, Geometry]) -> Entry:
    """The entry of one line by the general parser: a puzzle, or why it is not one."""
    try:
        if _is_packed_line(text):
            puzzle = link_puzzle(text, f"{source} line {number}", box)
        else:
            puzzle = _single_line(_read_row(number, text), box, source)
        return Entry(with_rules(puzzle, rules, variants), source, number)
    except InputError as err:
        prefix, message = f"{source} line {number}", str(err)
        if message.startswith(prefix):  # the entry names the line: keep what comes after ('r5c5: ...')
            message = message[len(prefix):].lstrip(":, ")
        return Entry(None, source, number, message, text=text)


def with_rules(puzzle: Puzzle, rules: tuple[str, ...], variants: dict[Geometry, Geometry]) -> Puzzle:
    """The puzzle with --variant rules added (one new geometry per geometry, built once), givens checked."""
    if not rules:
        return puzzle
    if puzzle.geometry not in variants:
        variants[puzzle.geometry] = geometry_with(puzzle, rules)
    return checked(Puzzle(variants[puzzle.geometry], puzzle.cells, puzzle.alphabet, puzzle.source))


def nine_by_nine(block: list[str]) -> dict[int, tuple[int, ...]]:
    """The lines of a block that are plain 9x9 puzzles (81 characters of 1-9, '.' or '0', no digit twice in
    a house), by their index in the block, read with numpy; others are left to the general parser.

    >>> sorted(nine_by_nine(["." * 81, "x" * 81, "11" + "." * 79, "5" + "." * 80]))
    [0, 3]
    """
    index = [k for k, line in enumerate(block) if len(line) == 81]
    if not index:
        return {}
    raw = np.frombuffer("".join(block[k] for k in index).encode("latin-1", "replace"), dtype=np.uint8)
    values = _BYTE_VALUES[raw].reshape(len(index), 81)
    good = (values >= 0).all(axis=1)
    bits = _DIGIT_BITS[values][:, _UNITS]                        # puzzles x 27 houses x 9 cells, bit d-1
    good &= (bits.sum(axis=2) == np.bitwise_or.reduce(bits, axis=2)).all(axis=1)  # equal: no bit twice
    rows = values[good].tolist()
    return {k: tuple(row) for k, row in zip((i for i, ok in zip(index, good.tolist()) if ok), rows)}


def csv_columns(head: list[str]) -> tuple[int, int | None, list[str]] | None:
    """For a CSV data set's header: the puzzle column, the solution column (or None) and the names; None
    when the first line is not such a header.

    >>> csv_columns(["quizzes,solutions", "0043,1243"])
    (0, 1, ['quizzes', 'solutions'])
    >>> csv_columns(["1000000200400300"]) is None
    True
    """
    if not head or "," not in head[0]:
        return None
    names = [name.strip().lower() for name in next(csv.reader([head[0]]))]
    puzzle = next((names.index(c) for c in PUZZLE_COLUMNS if c in names), None)
    if puzzle is None:
        return None
    solution = next((names.index(c) for c in SOLUTION_COLUMNS if c in names), None)
    return puzzle, solution, names


def csv_entries(lines: Iterable[str], source: str, box: Geometry | None, rules: tuple[str, ...]) -> Iterator[Entry]:
    """The rows of a CSV data set after its header: the puzzle column's puzzle, the solution column's grid (a
    data set's own answer, checked later against the verified one) and the other columns as fields."""
    rows = csv.reader(lines)
    names = [name.strip() for name in next(rows)]
    found = csv_columns([",".join(names)])
    assert found is not None
    puzzle_at, solution_at, lowered = found
    variants: dict[Geometry, Geometry] = {}
    for number, row in enumerate(rows, 2):
        if not row or not any(cell.strip() for cell in row):
            continue
        if len(row) != len(names):
            yield Entry(None, source, number, f"{len(row)} fields, the header names {len(names)}",
                        text=",".join(row))
            continue
        fields = {name: value for k, (name, value) in enumerate(zip(names, row)) if k not in (puzzle_at, solution_at)}
        entry = one_line(row[puzzle_at].strip(), number, source, box, rules, variants)
        if entry.puzzle is None or solution_at is None or not row[solution_at].strip():
            yield Entry(entry.puzzle, source, number, entry.problem, None, fields, entry.text)
            continue
        try:
            expected = grid_of(row[solution_at].strip(), entry.puzzle.geometry, number)
        except InputError as err:
            yield Entry(None, source, number, f"{names[solution_at]}: {err}", None, fields, row[puzzle_at].strip())
            continue
        yield Entry(entry.puzzle, source, number, "", expected, fields)


def grid_of(text: str, geometry: Geometry, number: int) -> Grid:
    """A complete grid written on one line, read as digits only (a data set's solution: whether it keeps the
    rules is for the verifier to say).

    >>> grid_of("1234341221434321", Geometry(2, 2), 2)[:4]
    (1, 2, 3, 4)
    """
    row = _read_row(number, text)
    numeric = _numeric_block([row])
    tokens = row.ints if numeric and row.ints else row.chars
    if len(tokens) != geometry.n_cells:
        raise InputError(f"{len(tokens)} cells, a {geometry.label} grid has {geometry.n_cells}")
    values, _ = _values(list(tokens), geometry.n, numeric, f"line {number}")
    if 0 in values:
        raise InputError(f"a blank at {cell_name(values.index(0), geometry.n)}; a solution fills every cell")
    return values


def chunked(entries: Iterable[Entry], size: int) -> Iterator[list[Entry]]:
    """Entries in lists of `size` (the last one shorter).

    >>> [len(c) for c in chunked(iter(range(5)), 2)]
    [2, 2, 1]
    """
    source = iter(entries)
    while block := list(islice(source, size)):
        yield block


def solve_entries(backend: Backend, entries: Iterable[Entry], time_limit: float | None = None, jobs: int = 1,
                  chunk: int = CHUNK, cluster: str | None = None) -> Iterator[tuple[Entry, Result | None]]:
    """Each entry with its verified Result (None for an invalid entry), in input order, as they come: one
    process solves each chunk's puzzles with one `solve_many` call; `jobs` > 1 spreads chunks over that many
    worker processes, `cluster` (a Dask scheduler's address) over a cluster's workers; a few chunks are read
    ahead, so memory stays flat."""
    blocks = chunked(entries, chunk)
    if jobs <= 1 and cluster is None:
        for block in blocks:
            yield from paired(block, backend.solve_many([e.puzzle for e in block if e.puzzle is not None], time_limit))
        return
    held: deque[list[Entry]] = deque()

    def puzzle_chunks() -> Iterator[list[Puzzle]]:
        for block in blocks:
            held.append(block)
            yield [e.puzzle for e in block if e.puzzle is not None]

    if cluster is not None:
        from satdoku.cluster import solve_on_cluster
        answers = solve_on_cluster(cluster, backend.name, backend.settings, puzzle_chunks(), time_limit)
    else:
        from satdoku.parallel import solve_chunks
        answers = solve_chunks(backend.name, backend.settings, puzzle_chunks(), time_limit, jobs)
    for results in answers:
        yield from paired(held.popleft(), iter(results))


def paired(block: list[Entry], results: Iterable[Result]) -> Iterator[tuple[Entry, Result | None]]:
    """A chunk's entries with their results (which skip the invalid entries), each result verified."""
    source = iter(results)
    for entry in block:
        if entry.puzzle is None:
            yield entry, None
        else:
            yield entry, checked_result(next(source), entry.puzzle)
