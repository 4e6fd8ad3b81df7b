"""`satdoku count`: solution counts cross-checked between backends, limits, exit codes, bad input."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from satdoku.backends.registry import get_backend
from satdoku.cli import main
from satdoku.errors import BackendUnavailable
from satdoku.models.formats import parse_puzzle
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution

NO_SOLUTION_4X4 = "12..\n....\n..3.\n..4."      # r1c3 needs 3 or 4, both already in column 3
PUZZLES_4X4 = [(NO_SOLUTION_4X4, 0), ("1000000200400300", 1), ("1.........4..3..", 3),
               ("12..34..........", 12), ("1..........2....", 18), ("." * 16, 288)]


def other_backends() -> list[str]:
    """The enumeration backends beside pysat that import here; the cross-checks need one at least."""
    names = []
    for name in ("dlx", "cpsat"):
        try:
            get_backend(name)
            names.append(name)
        except BackendUnavailable:
            pass
    assert names, "cross-checks need dlx or cpsat beside pysat"
    return names


@pytest.mark.parametrize("text,expected", PUZZLES_4X4)
def test_counts_agree_between_backends(text: str, expected: int) -> None:
    puzzle = parse_puzzle(text)
    for name in ["pysat"] + other_backends():
        assert get_backend(name).count(puzzle) == expected, name


@pytest.mark.parametrize("text,expected", PUZZLES_4X4[:5])
def test_enumerated_solutions_verify_and_differ(text: str, expected: int) -> None:
    puzzle = parse_puzzle(text)
    for name in ["pysat"] + other_backends():
        grids = list(get_backend(name).solutions(puzzle))
        assert len(grids) == len(set(grids)) == expected, name
        assert all(is_solution(g, puzzle) for g in grids), name


def test_limit_stops_the_count() -> None:
    puzzle = Puzzle.empty(Geometry(2, 2))
    for name in ["pysat"] + other_backends():
        assert get_backend(name).count(puzzle, 10) == 10, name
        assert get_backend(name).count(puzzle, 1000) == 288, name


@pytest.mark.slow
def test_thousands_of_solutions_agree() -> None:
    """A 6x6 whose first row is 123456 has 39,168 completions (720 x 39,168 = all 6x6 grids)."""
    puzzle = Puzzle(Geometry(2, 3), (1, 2, 3, 4, 5, 6) + (0,) * 30)
    counts = {name: get_backend(name).count(puzzle) for name in ["pysat"] + other_backends()}
    assert set(counts.values()) == {39168}, counts


def test_cli_counts_every_puzzle(tmp_path, capsys) -> None:
    path = tmp_path / "p.txt"
    path.write_text("1000000200400300\n1.........4..3..\n" + "." * 16 + "\n")
    assert main(["count", str(path)]) == 0
    assert capsys.readouterr().out.split("\n") == ["1", "3", "288", ""]


def test_cli_limit_prints_at_least(capsys, tmp_path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("." * 16 + "\n1.........4..3..\n")
    for backend in ["pysat"] + other_backends():
        assert main(["count", str(path), "--limit", "5", "-b", backend]) == 0
        assert capsys.readouterr().out == ">= 5\n3\n"


def test_cli_no_solution_exits_1(capsys, tmp_path) -> None:
    path = tmp_path / "none.txt"
    path.write_text(NO_SOLUTION_4X4 + "\n\n1000000200400300\n")
    assert main(["count", str(path)]) == 1
    assert capsys.readouterr().out == "0\n1\n"


def test_cli_json(capsys, tmp_path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("1.........4..3..\n" + "." * 16 + "\n")
    assert main(["count", str(path), "--format", "json", "--limit", "100"]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert (first["count"], first["exact"], first["givens"]) == (3, True, 3)
    assert (second["count"], second["exact"], second["limit"]) == (100, False, 100)
    assert first["geometry"] == {"n": 4, "box_rows": 2, "box_cols": 2}


@pytest.mark.parametrize("args,message", [
    (["count", "/no/such/file.txt"], "/no/such/file.txt"),
    (["count", "-", "--backend", "nosuch"], "unknown backend"),
    (["count", "-", "--limit", "0"], "--limit"),
])
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, "-m", "satdoku", *args], input="1000000200400300\n",
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_puzzle_is_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "satdoku", "count"], input="11..\n....\n....\n....\n",
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
