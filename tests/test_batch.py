"""Streaming batches: lazy reading, invalid lines in their place, the numpy fast path against the general
parser, CSV data sets with their own solutions checked, csv output and atomic -o."""
from __future__ import annotations

import csv
import io
import json
import random
from itertools import islice

import pytest

import satdoku.batch as batch
from satdoku.backends.registry import get_backend
from satdoku.batch import iter_entries, line_entries, solve_entries
from satdoku.cli import main
from satdoku.models.formats import parse_puzzle, read_puzzles
from satdoku.models.verify import is_solution
from tests.conftest import SHARED_PUZZLES

SEVENTEEN = SHARED_PUZZLES / "tdoku_17_clue.txt"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_reading_is_lazy(tmp_path, monkeypatch) -> None:
    lines = SEVENTEEN.read_text().splitlines()[:200] * 100  # 20,000 lines
    path = tmp_path / "big.txt"
    path.write_text("\n".join(lines) + "\n")
    pulled = 0
    real = batch.iter_lines

    def counting(*args, **kwargs):
        nonlocal pulled
        for line in real(*args, **kwargs):
            pulled += 1
            yield line

    monkeypatch.setattr(batch, "iter_lines", counting)
    first = next(solve_entries(get_backend("pysat"), iter_entries(str(path))))
    assert is_solution(first[1].grid, first[0].puzzle)
    assert pulled <= batch.PEEK_LINES + batch.BLOCK < len(lines)  # answered before most of the file was read


def test_the_fast_path_reads_as_the_general_parser() -> None:
    rng = random.Random(7)
    good = SEVENTEEN.read_text().splitlines()[:300]
    lines = []
    for line in good:
        roll = rng.random()
        if roll < 0.1:
            line = line[:40] + rng.choice("x ~é") + line[41:]          # a bad character
        elif roll < 0.2:
            k = rng.randrange(81)
            line = line[:k] + rng.choice("123456789") + line[k + 1:]  # maybe a clash
        elif roll < 0.25:
            line = line[:80]                                           # too short
        elif roll < 0.3:
            line = line.replace(".", "0")
        lines.append(line)
    fast = list(line_entries(iter(lines), "f.txt", None, ()))
    for number, (line, entry) in enumerate(zip(lines, fast), 1):
        assert entry.line == number
        try:
            expected = parse_puzzle(line)
        except Exception as err:  # the general parser's own message, without its "line 1" prefix
            assert entry.puzzle is None and entry.problem and str(err).endswith(entry.problem), (err, entry)
        else:
            assert entry.puzzle is not None and entry.puzzle.cells == expected.cells
    assert sum(e.puzzle is None for e in fast) > 10 and sum(e.puzzle is not None for e in fast) > 200


def test_invalid_lines_keep_their_place_and_the_run_goes_on(tmp_path, capsys) -> None:
    lines = SEVENTEEN.read_text().splitlines()[:6]
    lines[1] = "12345"
    lines[4] = "11" + lines[4][2:]
    path = tmp_path / "b.txt"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "solve", str(path), "--format", "json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and len(records) == 6
    assert [r["status"] for r in records] == ["solved", "invalid", "solved", "solved", "invalid", "solved"]
    assert records[1]["line"] == 2 and records[1]["text"] == "12345" and "not a puzzle size" in records[1]["message"]
    assert records[4]["line"] == 5 and "contradictory givens" in records[4]["message"]
    assert err.splitlines() == [f"satdoku: b.txt line 2: {records[1]['message']}",
                                f"satdoku: b.txt line 5: {records[4]['message']}"]
    for record, line in zip(records, lines):
        if record["status"] == "solved":
            puzzle = parse_puzzle(line)
            assert is_solution(parse_puzzle(record["solution"]).cells, puzzle)


def kaggle_csv(tmp_path, wrong_row: int) -> tuple[str, list[str]]:
    """A Kaggle-style data set (id, quizzes with 0 blanks, solutions, difficulty) of 8 rows, one solution wrong
    (two of its non-given digits swapped, so it breaks a house)."""
    puzzles = read_puzzles(str(SHARED_PUZZLES / "norvig_top95.txt"))[:8]
    sat = get_backend("pysat")
    rows = [["id", "quizzes", "solutions", "difficulty"]]
    for k, p in enumerate(puzzles):
        solution = list(sat.solve(p).grid)
        if k == wrong_row:
            a = next(i for i in range(81) if not p.cells[i])
            b = next(i for i in range(81) if not p.cells[i] and solution[i] != solution[a] and i // 9 == a // 9)
            solution[a], solution[b] = solution[b], solution[a]
        rows.append([f"p{k}", "".join(map(str, p.cells)), "".join(map(str, solution)), "hard" if k % 2 else "easy"])
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    path = tmp_path / "k.csv"
    path.write_text(text.getvalue())
    return str(path), [r[1] for r in rows[1:]]


def test_a_data_sets_wrong_solution_is_reported_and_the_rest_pass(tmp_path, capsys) -> None:
    path, quizzes = kaggle_csv(tmp_path, wrong_row=3)
    code, out, err = run(capsys, "solve", path, "--format", "json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(records) == 8
    verdicts = [r["dataset_solution"] for r in records]
    assert verdicts[3].startswith("differs: the data set's grid breaks the rules")
    assert verdicts[:3] + verdicts[4:] == ["agrees"] * 7
    assert [r["id"] for r in records] == [f"p{k}" for k in range(8)] and records[1]["difficulty"] == "hard"
    assert err.splitlines() == [f"satdoku: k.csv line 5: {verdicts[3]}"]
    for record, quiz in zip(records, quizzes):
        assert is_solution(parse_puzzle(record["solution"]).cells, parse_puzzle(quiz))


def test_csv_output_and_an_atomic_output_file(tmp_path, capsys) -> None:
    path, quizzes = kaggle_csv(tmp_path, wrong_row=-1)
    out_path = tmp_path / "solved.csv"
    code, out, err = run(capsys, "solve", path, "--format", "csv", "-o", str(out_path))
    assert (code, out, err) == (0, "", "")
    rows = list(csv.reader(out_path.open()))
    assert rows[0] == ["puzzle", "solution"] and len(rows) == 9
    for (puzzle_text, solution), quiz in zip(rows[1:], quizzes):
        assert parse_puzzle(puzzle_text).cells == parse_puzzle(quiz).cells
        assert is_solution(parse_puzzle(solution).cells, parse_puzzle(quiz))
    missing = tmp_path / "nope.txt"
    target = tmp_path / "never.csv"
    code, out, err = run(capsys, "solve", path, str(missing), "-o", str(target))
    assert code == 2 and not target.exists() and err.count("\n") == 1 and "nope.txt" in err
    assert list(tmp_path.glob(".never.csv*")) == []  # no temporary file left behind


@pytest.mark.parametrize("header", ["puzzle,solution", "quizzes,solutions", "Puzzle,Solution,rating"])
def test_csv_headers_people_use(tmp_path, header: str) -> None:
    quiz = next(islice(SEVENTEEN.open(), 0, 1)).strip()
    names = header.split(",")
    row = [quiz, ""] + ["3"] * (len(names) - 2)
    path = tmp_path / "d.csv"
    path.write_text(header + "\n" + ",".join(row) + "\n")
    [entry] = list(iter_entries(str(path)))
    assert entry.puzzle is not None and entry.expected is None and entry.line == 2
    assert entry.fields == ({"rating": "3"} if len(names) == 3 else {})
