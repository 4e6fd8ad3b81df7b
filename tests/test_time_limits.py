"""Time limits that hold in every mode (solve, --all, --limit, count, check, compare), huge grids
included, and the counts that need no enumeration (an empty grid of a shape `satdoku grids` counts)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from satdoku.cli import main
from tests.conftest import REPO

EMPTY_9X9 = "." * 81 + "\n"
MODES = [["solve", "--all"], ["solve", "--limit", "100000000"], ["count"], ["compare", "--count", "--backends"]]


def satdoku(*argv: str, stdin: str = "", timeout: float = 60) -> tuple[subprocess.CompletedProcess, float]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "satdoku", *argv], input=stdin, capture_output=True, text=True,
                          cwd=REPO, timeout=timeout)
    return done, time.perf_counter() - start


@pytest.mark.parametrize("mode", MODES, ids=lambda m: " ".join(m[:2]))
@pytest.mark.parametrize("backend", ["dlx", "pysat", "backtrack", "logic", "cpsat"])
def test_every_mode_stops_at_the_time_limit(tmp_path, capsys, mode, backend) -> None:
    path = tmp_path / "empty.txt"
    path.write_text(EMPTY_9X9)
    argv = [*mode, backend] if mode[-1] == "--backends" else [*mode, "-b", backend]
    start = time.perf_counter()
    code = main([argv[0], str(path), *argv[1:], "--time-limit", "0.5"])
    seconds = time.perf_counter() - start
    captured = capsys.readouterr()
    assert code == 3, captured.err
    assert seconds < 0.5 + 2.0
    assert "time limit" in captured.err and "Traceback" not in captured.err
    if argv[0] == "count":
        assert captured.out.startswith(">= ") and captured.out.strip().endswith("(time limit 0.5 s reached)")


def test_check_has_a_time_limit(tmp_path, capsys) -> None:
    path = tmp_path / "hard.txt"
    path.write_text(EMPTY_9X9)
    assert main(["check", str(path), "-b", "backtrack", "--box", "9x1", "-t", "0.3"]) in (0, 1, 3)
    captured = capsys.readouterr()
    assert captured.out.split()[0] in ("multiple", "unknown")


def test_count_of_an_empty_grid_comes_from_grids_unless_a_backend_is_named(tmp_path, capsys) -> None:
    path = tmp_path / "empty6.txt"
    path.write_text("." * 36 + "\n")
    assert main(["count", str(path), "-f", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["count"] == 28200960 and record["exact"] and record["backend"].startswith("grids")
    assert main(["count", str(path), "-b", "dlx", "-t", "0.3"]) == 3  # named: it enumerates
    assert capsys.readouterr().out.startswith(">= ")
    assert main(["count", str(path), "--limit", "5"]) == 0
    assert capsys.readouterr().out.strip() == ">= 5"


def test_time_limit_values_that_are_not_seconds(capsys) -> None:
    for value in ("nan", "inf", "-inf", "1e308", "0", "-1", "x"):
        assert main(["solve", "-", "-t", value]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1 and "--time-limit" in captured.err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_prints_the_count_so_far(tmp_path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text(EMPTY_9X9)
    process = subprocess.Popen([sys.executable, "-m", "satdoku", "count", str(path), "-b", "dlx"], cwd=REPO,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.0)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and out == ""
    assert err.startswith("satdoku: interrupted: >= ") and "Traceback" not in err and err.count("\n") == 1


def one_given(n: int) -> str:
    return " ".join(["1"] + ["0"] * (n * n - 1)) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("side", [49, 64])
@pytest.mark.parametrize("backend", ["pysat", "external:cadical", "cpsat", "ilp:highs", "ilp:cbc", "dlx",
                                     "backtrack", "logic"])
def test_huge_grids_end_by_the_deadline(tmp_path, side, backend) -> None:
    """49x49 and 64x64 with one given, -t 2: exit 3 (or an answer) within 3 s plus interpreter start-up."""
    if backend.startswith("external:") and not any(
            os.access(os.path.join(d, backend.split(":")[1]), os.X_OK) for d in os.environ["PATH"].split(":")):
        pytest.skip(f"{backend} is not installed")
    path = tmp_path / "big.txt"
    path.write_text(one_given(side))
    done, seconds = satdoku("solve", str(path), "-b", backend, "-t", "2", timeout=120)
    assert done.returncode in (0, 3), done.stderr
    assert seconds < 3 + 1.5, f"{backend} on {side}x{side}: {seconds:.1f} s"
    assert "Traceback" not in done.stderr


def test_sigterm_during_an_external_run_leaves_no_temporary_folder(tmp_path) -> None:
    solver = tmp_path / "slow-solver"
    solver.write_text("#!/bin/sh\nsleep 30\n")
    solver.chmod(0o755)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("1000000200400300\n")
    process = subprocess.Popen([sys.executable, "-m", "satdoku", "solve", str(puzzle), "-b", f"external:{solver}"],
                               cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "TMPDIR": str(scratch)})
    deadline = time.monotonic() + 20
    while not any(scratch.iterdir()) and time.monotonic() < deadline:  # the run has made its folder
        time.sleep(0.05)
    assert any(scratch.iterdir())
    process.terminate()
    out, err = process.communicate(timeout=20)
    assert process.returncode == 143 and out == "" and "Traceback" not in err
    assert list(scratch.iterdir()) == []
