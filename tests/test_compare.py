"""`satdoku compare`: agreement, disagreement, formats, time-outs, plots and bad input."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

import satdoku.commands.compare as compare
import satdoku.comparison as comparison
from satdoku.backends.TEMPLATE import TemplateBackend
from satdoku.backends.base import Backend, Result, Status
from satdoku.deadline import Deadline
from satdoku.models.puzzle import Grid
from satdoku.backends.dlx import DlxBackend
from satdoku.backends.registry import get_backend
from satdoku.cli import main
from satdoku.models.formats import read_puzzles
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from tests.conftest import PUZZLES, REPO

FOUR_BACKENDS = "dlx,pysat,backtrack,logic"


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["compare", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def several_file(tmp_path):
    """Three 4x4 puzzles: one unique, one with several solutions (dlx, backtrack and logic each pick
    a different one), one with none."""
    path = tmp_path / "several.txt"
    path.write_text("1...\n...2\n..4.\n.3..\n\n.......2........\n\n12....3........4\n")
    return path


class Liar(Backend):
    """Says 'no solution' to everything."""

    family = "liar"

    def solutions_within(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        return iter(())


class Scribbler(Backend):
    """Returns a grid that breaks the rules."""

    family = "scribbler"

    def solve_within(self, puzzle: Puzzle, deadline: Deadline) -> Result:
        return Result(Status.SOLVED, (1,) * puzzle.geometry.n_cells)


class Sleeper(Backend):
    """Always runs out of time."""

    family = "sleeper"

    def solutions_within(self, puzzle: Puzzle, deadline: Deadline) -> Iterator[Grid]:
        raise deadline.reached()


@pytest.fixture
def fakes(monkeypatch):
    """Make the fake backends reachable by name from compare."""
    extra = {"liar": Liar, "scribbler": Scribbler, "sleeper": Sleeper, "template": TemplateBackend}

    def lookup(name=None, **options):
        return extra[name]() if name in extra else get_backend(name, **options)

    monkeypatch.setattr(compare, "get_backend", lookup)


def test_four_backends_agree_on_norvig_hardest(capsys, shared_puzzles):
    code, out, err = run_cli(capsys, str(shared_puzzles / "norvig_hardest.txt"), "--backends", FOUR_BACKENDS)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("11 puzzles, solve")
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert set(rows) == {"dlx", "pysat:cadical195", "backtrack", "logic"}
    for row in rows.values():
        assert row[1:5] == ["11", "0", "0", "0"]  # solved, no solution, disagreements, time-outs


def test_json_has_every_puzzle_and_backend(capsys):
    code, out, _ = run_cli(capsys, str(PUZZLES / "inkala.txt"), "--backends", "dlx,logic", "--format", "json")
    document = json.loads(out)
    assert code == 0 and document["mode"] == "solve"
    assert [row["backend"] for row in document["backends"]] == ["dlx", "logic"]
    assert document["puzzles"][0]["results"]["dlx"]["status"] == "solved"
    assert document["puzzles"][0]["disagreeing"] == []


def test_csv_summary(capsys):
    code, out, _ = run_cli(capsys, str(PUZZLES / "example_4x4.txt"), "--backends", "dlx,backtrack", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["backend"] for r in rows] == ["dlx", "backtrack"]
    assert all(r["solved"] == "1" and r["disagreements"] == "0" for r in rows)
    assert {"puzzles_per_second", "median_s", "p90_s", "max_s", "timeouts"} <= set(rows[0])


def test_several_solutions_are_not_a_disagreement(capsys, several_file):
    code, out, _ = run_cli(capsys, str(several_file), "--backends", "dlx,backtrack,logic", "--format", "json")
    document = json.loads(out)
    assert code == 0
    several = [p for p in document["puzzles"] if p["several_solutions"]]
    assert len(several) == 1  # dlx and backtrack pick different grids of the open puzzle, both valid
    statuses = {name: r["status"] for name, r in document["puzzles"][2]["results"].items()}
    assert set(statuses.values()) == {"no solution"}


def test_count_mode_agrees_and_respects_the_limit(capsys, several_file):
    code, out, _ = run_cli(capsys, str(several_file), "--backends", "dlx,pysat,backtrack,logic",
                           "--count", "--limit", "50", "--format", "json")
    document = json.loads(out)
    assert code == 0
    counts = [{r["count"] for r in p["results"].values()} for p in document["puzzles"]]
    assert counts == [{1}, {50}, {0}]


def test_count_mode_table(capsys):
    code, out, _ = run_cli(capsys, str(PUZZLES / "example_4x4.txt"), "--backends", "dlx,logic", "--count")
    assert code == 0 and "solutions" in out.splitlines()[1]


def test_disagreement_is_an_error_with_line_and_backends(capsys, fakes, shared_puzzles):
    code, out, err = run_cli(capsys, str(shared_puzzles / "norvig_hardest.txt"), "--backends", "dlx,logic,liar")
    assert code == 4
    assert "liar" in out  # the table still prints, with the liar's disagreements
    liar_row = next(line for line in out.splitlines() if line.startswith("liar"))
    assert liar_row.split()[3] == "11"
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "norvig_hardest.txt line 1" in err and "liar" in err and "(and 10 more puzzles)" in err


def test_wrong_grid_is_a_disagreement(capsys, fakes):
    code, _, err = run_cli(capsys, str(PUZZLES / "inkala.txt"), "--backends", "dlx,scribbler")
    assert code == 4
    assert "scribbler returned a wrong grid" in err and "inkala.txt" in err


def test_time_outs_are_counted_and_exit_3(capsys, fakes):
    code, out, err = run_cli(capsys, str(PUZZLES / "inkala.txt"), "--backends", "dlx,sleeper", "--time-limit", "5")
    assert code == 3
    sleeper = next(line for line in out.splitlines() if line.startswith("sleeper"))
    assert sleeper.split()[4] == "1"
    assert err.count("\n") == 1 and "time limit" in err


def test_real_time_limit_on_backtrack(capsys, monkeypatch):
    import satdoku.backends.backtrack as backtrack_module
    monkeypatch.setattr(backtrack_module, "CLOCK_EVERY", 1)
    code, out, _ = run_cli(capsys, str(PUZZLES / "inkala.txt"), "--backends", "dlx,backtrack",
                           "--time-limit", "0.000001", "--format", "json")
    document = json.loads(out)
    assert code == 3
    assert document["puzzles"][0]["results"]["backtrack"]["status"] == "unknown"


@pytest.mark.parametrize("argv, needle", [
    (["--backends", "dlx,nosuch"], "unknown backend 'nosuch'"),
    (["--backends", "dlx,dlx"], "listed twice"),
    (["--backends", ","], "at least one backend"),
    (["--limit", "3"], "--limit needs --count"),
])
def test_bad_arguments_are_one_line(capsys, argv, needle):
    code, out, err = run_cli(capsys, str(PUZZLES / "inkala.txt"), *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_missing_file_is_one_line(capsys, tmp_path):
    code, out, err = run_cli(capsys, str(tmp_path / "none.txt"), "--backends", "dlx")
    assert code == 2 and out == "" and "no such file" in err


def test_plot_writes_an_image(capsys, tmp_path):
    target = tmp_path / "times.png"
    code, _, _ = run_cli(capsys, str(PUZZLES / "inkala.txt"), "--backends", "dlx,logic", "--plot", str(target))
    assert code == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["times.png"]  # no temporary file left behind


def test_plot_without_matplotlib_is_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    target = tmp_path / "times.png"
    code, out, err = run_cli(capsys, str(PUZZLES / "inkala.txt"), "--backends", "dlx", "--plot", str(target))
    assert code == 2 and out == "" and not target.exists()
    assert err.count("\n") == 1 and "matplotlib" in err


def test_plot_into_missing_folder_fails_before_solving(capsys, tmp_path):
    code, out, err = run_cli(capsys, str(PUZZLES / "inkala.txt"), "--plot", str(tmp_path / "no" / "x.png"))
    assert code == 2 and out == "" and "does not exist" in err


def test_no_progress_bar_when_stderr_is_not_a_terminal(shared_puzzles):
    done = subprocess.run([sys.executable, "-m", "satdoku", "compare", str(shared_puzzles / "norvig_hardest.txt"),
                           "--backends", "dlx,logic"], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0 and done.stderr == ""
    assert "dlx" in done.stdout and "logic" in done.stdout


def test_judge_majority_and_ties():
    puzzle = read_puzzles(str(PUZZLES / "inkala.txt"))[0]
    grid = DlxBackend().solve(puzzle).grid
    assert is_solution(grid, puzzle)
    answers = {"a": comparison.Answer(Status.SOLVED, 0.1, grid), "b": comparison.Answer(Status.SOLVED, 0.1, grid),
               "c": comparison.Answer(Status.NO_SOLUTION, 0.1), "d": comparison.Answer(Status.UNKNOWN, 0.1)}
    record = comparison.PuzzleRecord(puzzle, answers)
    comparison.judge(record, counting=False)
    assert record.disagreeing == ["c"] and "inkala.txt" in record.message
    tie = comparison.PuzzleRecord(puzzle, {"a": comparison.Answer(Status.SOLVED, 0.1, count=2),
                                        "b": comparison.Answer(Status.SOLVED, 0.1, count=3)})
    comparison.judge(tie, counting=True)
    assert tie.disagreeing == ["a", "b"] and "counts differ" in tie.message


def test_percentile_and_summary_figures():
    assert comparison.percentile([5.0], 90) == 5.0
    assert comparison.percentile([float(x) for x in range(1, 11)], 90) == pytest.approx(9.1)


def test_count_time_limit_applies_between_solutions_of_generic_backends(capsys, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("." * 81 + "\n")
    code, out, _ = run_cli(capsys, str(empty), "--backends", "dlx,pysat", "--count", "--time-limit", "0.5",
                           "--format", "json")
    document = json.loads(out)
    assert code == 3
    assert {r["status"] for r in document["puzzles"][0]["results"].values()} == {"unknown"}


def test_every_family_counts_with_limits_through_one_path(capsys, fakes, several_file):
    """--count --limit 5 --time-limit 1 on dlx, pysat, logic, backtrack and the TEMPLATE family (it
    writes only `solutions_within`): all agree through one code path; the open 4x4 stops at 5."""
    code, out, err = run_cli(capsys, str(several_file), "--backends", "dlx,pysat,logic,backtrack,template",
                             "--count", "--limit", "5", "--time-limit", "1", "--format", "json")
    document = json.loads(out)
    assert code == 0, err
    counts = [{name: r["count"] for name, r in p["results"].items()} for p in document["puzzles"]]
    assert [set(c.values()) for c in counts] == [{1}, {5}, {0}]
    assert set(counts[0]) == {"dlx", "pysat:cadical195", "logic", "backtrack", "template"}
