"""`satdoku solve` end to end: every bundled geometry, formats, exit codes and one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from satdoku.backends.base import Backend, Result, Status
from satdoku.cli import main
from satdoku.deadline import Deadline
from satdoku.models.formats import parse_puzzle, read_puzzles
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from tests.conftest import GEOMETRY_PUZZLES, PUZZLES, REPO



def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The CLI as a user runs it, in its own process."""
    return subprocess.run([sys.executable, "-m", "satdoku", *args], input=stdin, capture_output=True,
                          text=True, cwd=REPO, timeout=300)


@pytest.mark.parametrize("name, box", GEOMETRY_PUZZLES)
def test_bundled_puzzles_solve_and_verify(name: str, box: str | None, capsys) -> None:
    args = ["solve", str(PUZZLES / name), "--format", "json"] + (["--box", box] if box else [])
    assert main(args) == 0
    record = json.loads(capsys.readouterr().out)
    puzzle = read_puzzles(str(PUZZLES / name), Geometry(*map(int, box.split("x"))) if box else None)[0]
    solution = parse_puzzle(record["solution"], puzzle.geometry)
    assert record["status"] == "solved" and is_solution(solution.cells, puzzle)


def test_inkala_solution_begins_as_published(capsys) -> None:
    assert main(["solve", str(PUZZLES / "inkala.txt")]) == 0
    assert capsys.readouterr().out.startswith("812753649")


def test_grid_output_reads_back(capsys) -> None:
    assert main(["solve", str(PUZZLES / "8x8_box4x2.txt"), "--box", "4x2", "-f", "grid"]) == 0
    drawn = capsys.readouterr().out
    grid = parse_puzzle(drawn)
    assert grid.geometry == Geometry(4, 2) and grid.n_givens == 64
    assert is_solution(grid.cells, read_puzzles(str(PUZZLES / "8x8_box4x2.txt"), Geometry(4, 2))[0])


def test_empty_4x4_enumerates_288_distinct_grids() -> None:
    empty = parse_puzzle("." * 16)
    from satdoku.backends.registry import get_backend
    grids = list(get_backend("pysat").solutions(empty))
    assert len(grids) == 288 and len(set(grids)) == 288
    assert all(is_solution(g, empty) for g in grids)


def test_all_through_the_cli(tmp_path, capsys) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("." * 16 + "\n")
    assert main(["solve", str(path), "--all"]) == 0
    lines = capsys.readouterr().out.split()
    empty = parse_puzzle("." * 16)
    assert len(lines) == 288 == len(set(lines))
    assert all(is_solution(parse_puzzle(line).cells, empty) for line in lines)


def test_limit_stops_early(tmp_path, capsys) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("." * 36 + "\n")
    assert main(["solve", str(path), "--limit", "5", "-f", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["count"] == 5 and len(set(record["solutions"])) == 5


def test_stdin_and_many_puzzles(shared_puzzles) -> None:
    text = (shared_puzzles / "norvig_hardest.txt").read_text()
    done = run_cli("solve", "-", stdin=text)
    assert done.returncode == 0, done.stderr
    puzzles = [p for p in read_puzzles(str(shared_puzzles / "norvig_hardest.txt"))]
    lines = done.stdout.split()
    assert len(lines) == len(puzzles)
    assert all(is_solution(parse_puzzle(s).cells, p) for s, p in zip(lines, puzzles))


def test_norvig_top95_all_solve_and_verify(shared_puzzles) -> None:
    from satdoku.backends.registry import get_backend
    puzzles = read_puzzles(str(shared_puzzles / "norvig_top95.txt"))
    assert len(puzzles) == 95
    results = list(get_backend("pysat").solve_many(puzzles))
    assert all(r.solved and is_solution(r.grid, p) for r, p in zip(results, puzzles))


def test_no_solution_exits_1(tmp_path) -> None:
    path = tmp_path / "dead.txt"
    path.write_text("12..\n..3.\n....\n....\n")  # r1c3,r1c4 need {3,4}; 3 is in column 3
    done = run_cli("solve", str(path))
    assert done.returncode == 1 and done.stdout.strip() == "no solution" and not done.stderr


@pytest.mark.parametrize("content, args, fragment", [
    ("8" * 80, [], "dead.txt line 1: 80 cells is not a puzzle size"),
    ("1100000200400300", [], "dead.txt line 1: contradictory givens: digit 1 twice in row 1: r1c1 and r1c2"),
    ("100000020040030q", [], "r4c4: unknown character 'q'"),
    ("1000000200900300", [], "r3c3: digit '9' out of range"),
    ("1000000200400300", ["--box", "2x3"], "16 cells, a 6x6 (2x3 boxes) puzzle has 36"),
    ("1000000200400300", ["--box", "two"], "box shape 'two': expected RxC"),
    ("1000000200400300", ["--backend", "nosuch"], "unknown backend 'nosuch'"),
    ("1000000200400300", ["--backend", "pysat:nosuch"], "unknown PySAT solver 'nosuch'"),
    ("1000000200400300", ["--time-limit", "-1"], "must be above zero"),
    ("1000000200400300", ["--workers", "2"], "backend 'pysat' takes no option --workers"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, content: str, args: list[str], fragment: str) -> None:
    path = tmp_path / "dead.txt"
    path.write_text(content + "\n")
    done = run_cli("solve", str(path), *args)
    assert done.returncode == 2
    assert fragment in done.stderr and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_missing_file_and_directory(tmp_path) -> None:
    for target, fragment in ((tmp_path / "nope.txt", "no such file"), (tmp_path, "a folder with no puzzle files")):
        done = run_cli("solve", str(target))
        assert done.returncode == 2 and fragment in done.stderr and done.stderr.count("\n") == 1


def test_python_m_and_console_script_agree() -> None:
    done = run_cli("solve", str(PUZZLES / "example_4x4.txt"))
    assert done.returncode == 0 and done.stdout.strip() == "1234341221434321"
    assert is_solution(parse_puzzle(done.stdout).cells, parse_puzzle("1000000200400300"))


def test_backends_lists_pysat_installed(capsys) -> None:
    assert main(["backends"]) == 0
    out = capsys.readouterr().out
    pysat_line = next(line for line in out.splitlines() if line.startswith("pysat"))
    assert " yes " in pysat_line


class _SlowBackend(Backend):
    """A stand-in backend that always runs out of time, to test the CLI's handling of it."""

    family = "slow"

    def solve_within(self, puzzle: Puzzle, deadline: Deadline) -> Result:
        raise deadline.reached()


def test_time_limit_exits_3(monkeypatch, capsys) -> None:
    import satdoku.commands.common as common
    monkeypatch.setattr(common, "get_backend", lambda name, **options: _SlowBackend())
    assert main(["solve", str(PUZZLES / "inkala.txt"), "--time-limit", "0.5"]) == 3
    captured = capsys.readouterr()
    assert captured.out.strip() == "unknown (time limit 0.5 s reached)"
    assert captured.err.strip() == "satdoku: inkala.txt lines 2-10: time limit of 0.5 s reached"


def test_time_limit_in_json_also_says_so_on_stderr(monkeypatch, capsys) -> None:
    import satdoku.commands.common as common
    monkeypatch.setattr(common, "get_backend", lambda name, **options: _SlowBackend())
    assert main(["solve", str(PUZZLES / "inkala.txt"), "--time-limit", "0.5", "-f", "json"]) == 3
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert record["status"] == "unknown" and record["time_limit_reached"] == 0.5
    assert captured.err.strip() == "satdoku: inkala.txt lines 2-10: time limit of 0.5 s reached"


def test_wrong_grid_from_a_backend_is_caught(monkeypatch, capsys) -> None:
    import satdoku.commands.common as common

    class Liar(Backend):
        family = "liar"

        def solve_within(self, puzzle: Puzzle, deadline: Deadline) -> Result:
            return Result(Status.SOLVED, tuple(1 for _ in puzzle.cells))

    monkeypatch.setattr(common, "get_backend", lambda name, **options: Liar())
    assert main(["solve", str(PUZZLES / "example_4x4.txt")]) == 4
    err = capsys.readouterr().err
    assert "backend liar returned a wrong grid" in err and err.count("\n") == 1


def test_explain_in_json_stays_one_record_per_puzzle(capsys) -> None:
    assert main(["solve", str(PUZZLES / "inkala.txt"), "-b", "logic", "--explain", "-f", "json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    puzzle = read_puzzles(str(PUZZLES / "inkala.txt"))[0]
    assert is_solution(parse_puzzle(record["solution"]).cells, puzzle)
    assert record["explanation"] and any("single" in step for step in record["explanation"])


def test_several_files_and_a_folder_are_one_batch_in_order(capsys, tmp_path) -> None:
    files = [str(PUZZLES / "inkala.txt"), str(PUZZLES / "example_4x4.txt")]
    assert main(["solve", *files, "--format", "json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [len(r["solution"]) for r in records] == [81, 16]
    folder = PUZZLES / "variants" / "killer_6x6"
    assert main(["solve", str(folder), "--format", "json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    paths = sorted(folder.glob("*.json"))
    assert len(records) == len(paths) == 20
    for record, path in zip(records, paths):  # name order, each checked against its own file
        puzzle = read_puzzles(str(path))[0]
        assert is_solution(parse_puzzle(record["solution"], puzzle.geometry).cells, puzzle)
    (tmp_path / "notes.md").write_text("not a puzzle\n")
    result = run_cli("solve", str(tmp_path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "a folder with no puzzle files" in result.stderr
