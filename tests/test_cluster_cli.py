"""`satdoku solve --cluster`: a batch on a Dask LocalCluster answers as `--jobs 2` does, byte for byte, with
invalid lines in their place; an unreachable scheduler is one line and exit 2."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO, SHARED_PUZZLES

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satdoku", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=300)


def test_cluster_answers_as_jobs_do(scheduler, tmp_path) -> None:
    lines = (SHARED_PUZZLES / "tdoku_17_clue.txt").read_text().splitlines()[:600]
    lines[7] = "not a puzzle"
    lines[300] = "11" + lines[300][2:]
    batch = tmp_path / "batch.txt"
    batch.write_text("\n".join(lines) + "\n")
    jobs = run_cli("solve", str(batch), "--jobs", "2")
    cluster = run_cli("solve", str(batch), "--cluster", scheduler)
    assert jobs.returncode == cluster.returncode == 2  # the two bad lines
    assert cluster.stdout == jobs.stdout and cluster.stderr == jobs.stderr
    answers = cluster.stdout.splitlines()
    assert len(answers) == 600 and answers[7] == "invalid" and answers[300] == "invalid"
    assert "batch.txt line 8:" in cluster.stderr and "batch.txt line 301:" in cluster.stderr
    plain = run_cli("solve", str(batch))
    assert plain.stdout == cluster.stdout


def test_an_unreachable_cluster_is_one_line() -> None:
    done = run_cli("solve", str(REPO / "puzzles" / "inkala.txt"), "--cluster", "tcp://127.0.0.1:1")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "cannot reach a Dask scheduler" in done.stderr
