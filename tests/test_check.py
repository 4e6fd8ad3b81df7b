"""`satdoku check`: unique, none or multiple, with two verified solutions; formats and exit codes."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from satdoku.backends.registry import get_backend
from satdoku.cli import main
from satdoku.models.formats import parse_puzzle
from satdoku.models.verify import is_solution
from satdoku.verified import uniqueness, verdict
from tests.test_count import NO_SOLUTION_4X4, other_backends

INKALA = ("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..")
NO_SOLUTION_LINE = NO_SOLUTION_4X4.replace("\n", "")
CASES = [(NO_SOLUTION_LINE, "none"), ("1000000200400300", "unique"), (INKALA, "unique"),
         ("1.........4..3..", "multiple"), ("." * 16, "multiple")]


@pytest.mark.parametrize("text,expected", CASES)
def test_verdict_agrees_between_backends(text: str, expected: str) -> None:
    puzzle = parse_puzzle(text)
    for name in ["pysat"] + other_backends():
        found = uniqueness(get_backend(name), puzzle)
        grids = found.grids
        assert verdict(found) == expected, name
        assert all(is_solution(g, puzzle) for g in grids), name
        assert len(set(grids)) == len(grids)


def test_line_format_shows_the_solutions(tmp_path, capsys) -> None:
    path = tmp_path / "p.txt"
    path.write_text("\n".join(text for text, _ in CASES) + "\n")
    assert main(["check", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [v for _, v in CASES]
    puzzle = parse_puzzle("1.........4..3..")
    first, second = lines[3].split()[1:]
    grids = [parse_puzzle(first).cells, parse_puzzle(second).cells]
    assert grids[0] != grids[1] and all(is_solution(g, puzzle) for g in grids)
    assert lines[2] == "unique 812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def test_all_unique_exits_0(tmp_path, capsys) -> None:
    path = tmp_path / "p.txt"
    path.write_text(INKALA + "\n1000000200400300\n")
    assert main(["check", str(path), "-b", other_backends()[0]]) == 0
    assert capsys.readouterr().out.startswith("unique 8127")


def test_grid_format_names_where_two_solutions_differ(tmp_path, capsys) -> None:
    path = tmp_path / "p.txt"
    path.write_text("1.........4..3..\n")
    assert main(["check", str(path), "--format", "grid"]) == 1
    out = capsys.readouterr().out
    head, first, second = out.split("\n", 1)[0], *out.split("\n", 1)[1].split("\n\n")
    assert head.startswith("multiple: two solutions that differ in")
    assert first.count("|") == 4 and second.count("|") == 4 and first != second


def test_json_carries_verdict_and_solutions(tmp_path, capsys) -> None:
    path = tmp_path / "p.txt"
    path.write_text("1.........4..3..\n" + NO_SOLUTION_LINE + "\n")
    assert main(["check", str(path), "--format", "json"]) == 1
    multiple, none = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    puzzle = parse_puzzle("1.........4..3..")
    assert multiple["verdict"] == "multiple" and len(multiple["solutions"]) == 2
    assert all(is_solution(parse_puzzle(s).cells, puzzle) for s in multiple["solutions"])
    cells = [parse_puzzle(s).cells for s in multiple["solutions"]]
    assert len(multiple["differ"]) == sum(a != b for a, b in zip(*cells)) > 0
    assert none["verdict"] == "none" and none["solutions"] == []


def test_bad_input_is_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "satdoku", "check", "-"], input="1234\n12\n",
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
