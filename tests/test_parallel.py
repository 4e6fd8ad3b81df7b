"""`solve --jobs N`: several processes, results in input order, errors surface as one line."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from satdoku.backends.registry import get_backend
from satdoku.cli import main
from satdoku.errors import BackendUnavailable
from satdoku.models.formats import read_puzzles
from satdoku.models.verify import is_solution
from satdoku.parallel import chunk_size, solve_in_processes
from tests.conftest import DEAD, REPO, SHARED_PUZZLES, assert_results



def test_results_come_back_in_input_order(shared_puzzles):
    puzzles = read_puzzles(str(shared_puzzles / "norvig_top95.txt"))
    mixed = puzzles[:30] + [DEAD] + puzzles[30:]
    results = list(solve_in_processes("pysat", {}, mixed, None, 2))
    assert_results(mixed, results)
    sequential = list(get_backend("pysat").solve_many(mixed))
    assert [r.grid for r in results] == [r.grid for r in sequential]  # unique solutions: same grids


def test_settings_reach_the_workers(shared_puzzles):
    puzzles = read_puzzles(str(shared_puzzles / "norvig_hardest.txt"))
    results = list(solve_in_processes("pysat:minicard", {"amo": "native", "encoding": "minimal"}, puzzles, 10.0, 3))
    assert all(r.solved and is_solution(r.grid, p) for r, p in zip(results, puzzles))
    assert {r.backend for r in results} == {"pysat:minicard"}


def test_a_bad_backend_fails_before_any_process_starts():
    with pytest.raises(BackendUnavailable):
        list(solve_in_processes("pysat:zchaff", {}, [DEAD, DEAD], None, 2))
    with pytest.raises(BackendUnavailable):
        list(solve_in_processes("pysat", {"workers": 3}, [DEAD, DEAD], None, 2))


def test_chunks_balance_the_work():
    assert chunk_size(1465, 2) * 2 * 8 >= 1465
    assert chunk_size(1, 8) == 1
    assert chunk_size(10 ** 6, 2) == 256


def test_cli_jobs_output_equals_sequential_output(shared_puzzles, capsys):
    path = str(shared_puzzles / "norvig_top95.txt")
    assert main(["solve", path]) == 0
    one = capsys.readouterr().out
    assert main(["solve", path, "--jobs", "2"]) == 0
    two = capsys.readouterr().out
    assert one == two and len(two.splitlines()) == 95


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_workers_end_when_the_run_is_killed() -> None:
    """SIGKILL leaves `solve --jobs 2` no chance to shut its pool down; its workers still end with it."""
    proc = subprocess.Popen([sys.executable, "-m", "satdoku", "solve", str(SHARED_PUZZLES / "tdoku_17_clue.txt"),
                             "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO)
    assert proc.stdout.readline().strip()
    workers = [int(pid) for pid in open(f"/proc/{proc.pid}/task/{proc.pid}/children").read().split()]
    assert workers
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    alive = workers
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [pid for pid in workers if os.path.exists(f"/proc/{pid}")
                 and open(f"/proc/{pid}/status").read().split("State:")[1].split()[0] != "Z"]
    assert alive == []
