"""`satdoku.cluster`: batches on a Dask cluster, in input order, through a worker's death, errors as one line."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("distributed")

from distributed import Client, LocalCluster  # noqa: E402

from satdoku import cluster as cluster_module  # noqa: E402
from satdoku.backends.registry import get_backend  # noqa: E402
from satdoku.cluster import MISSING, solve_on_cluster  # noqa: E402
from satdoku.errors import BackendUnavailable, InputError, SolverError  # noqa: E402
from satdoku.models.formats import parse_puzzles, read_puzzles  # noqa: E402
from satdoku.models.puzzle import Puzzle  # noqa: E402
from satdoku.parallel import solve_in_processes  # noqa: E402
from tests.conftest import DEAD, PUZZLES, SHARED_PUZZLES, assert_results  # noqa: E402

SMALL = [read_puzzles(str(PUZZLES / "example_4x4.txt"))[0], DEAD,
         *parse_puzzles("1000000200400300\n0200000000300040", source="small.txt")]


def first_lines(name: str, count: int) -> list[Puzzle]:
    """The puzzles on the first `count` lines of a file in ../shared/puzzles."""
    with open(SHARED_PUZZLES / name) as f:
        text = "".join(line for _, line in zip(range(count), f))
    return parse_puzzles(text, source=name)


def chunked(puzzles: list[Puzzle], size: int) -> list[list[Puzzle]]:
    return [puzzles[k:k + size] for k in range(0, len(puzzles), size)]


def our_tasks(client: Client) -> list[str]:
    """The keys of satdoku tasks the scheduler still holds."""
    return client.run_on_scheduler(
        lambda dask_scheduler: [str(k) for k in dask_scheduler.tasks if str(k).startswith("satdoku-")])


def wait_until(condition, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local


@pytest.fixture(scope="module")
def module_client(cluster: LocalCluster) -> Iterator[Client]:
    with Client(cluster, set_as_default=False) as client:
        yield client


@pytest.fixture
def client(module_client: Client) -> Client:
    """The module's client, with both workers up (a test may have killed one) and no task left over."""
    module_client.wait_for_workers(2, timeout=30)
    assert wait_until(lambda: not our_tasks(module_client))
    return module_client


def test_results_equal_processes_and_plain_backend_in_order(client):
    puzzles = first_lines("tdoku_17_clue.txt", 200)
    mixed = puzzles[:70] + SMALL + puzzles[70:] + SMALL  # chunks of two geometries travel as two runs
    chunks = chunked(mixed, 16)
    chunks.insert(3, [])  # an empty chunk: no task, an empty list in its place
    out = list(solve_on_cluster(client, "pysat", {}, iter(chunks), None, in_flight=4))
    assert [len(r) for r in out] == [len(c) for c in chunks]
    results = [r for chunk in out for r in chunk]
    assert_results(mixed, results)
    in_processes = list(solve_in_processes("pysat", {}, mixed, None, 2))
    plain = list(get_backend("pysat").solve_many(mixed))
    nine = [k for k, p in enumerate(mixed) if p.n == 9]  # unique solutions: the same grids whoever solves them
    assert [results[k].grid for k in nine] == [in_processes[k].grid for k in nine] == [plain[k].grid for k in nine]
    assert [r.status for r in results] == [r.status for r in in_processes] == [r.status for r in plain]
    assert {r.backend for r in results} == {"pysat:cadical195"}
    # each worker built its backend once and kept it
    built = client.run(lambda: sorted(name for name, _ in cluster_module._worker_backends))
    assert all(names.count("pysat") <= 1 for names in built.values())


def test_settings_reach_the_workers(client):
    puzzles = read_puzzles(str(SHARED_PUZZLES / "norvig_hardest.txt"))
    out = list(solve_on_cluster(client, "pysat:minicard", {"amo": "native", "encoding": "minimal"},
                                iter(chunked(puzzles, 3)), 10.0))
    assert_results(puzzles, [r for chunk in out for r in chunk])
    assert {r.backend for chunk in out for r in chunk} == {"pysat:minicard"}


def test_a_worker_killed_mid_run_loses_nothing_and_repeats_nothing(client):
    puzzles = read_puzzles(str(SHARED_PUZZLES / "norvig_top95.txt"))
    chunks = chunked(puzzles, 3)

    def slow_input() -> Iterator[list[Puzzle]]:
        for chunk in chunks:
            time.sleep(0.02)
            yield chunk

    before = set(client.scheduler_info()["workers"])
    results, killed, lost = [], None, []
    for chunk_results in solve_on_cluster(client, "logic", {}, slow_input(), None, in_flight=6):
        results.extend(chunk_results)
        if killed is None:  # kill the busiest worker as soon as one holds chunks not yet yielded
            busy = {w: [str(k) for k in keys if str(k).startswith("satdoku-")]
                    for w, keys in client.processing().items()}
            victim = max(busy, key=lambda w: len(busy[w]))
            if busy[victim]:
                killed, lost = victim, busy[victim]
                os.kill(client.run(os.getpid, workers=[victim])[victim], signal.SIGKILL)
    assert killed is not None, "no chunk was ever outstanding on a worker"
    assert_results(puzzles, results)  # complete, in order, each puzzle once (every grid checks against its own)
    story = client.run_on_scheduler(lambda dask_scheduler, keys: dask_scheduler.story(*keys), keys=lost)
    assert any(t[1] in ("processing", "memory") and t[2] == "released" for t in story)  # the scheduler re-ran it
    client.wait_for_workers(2, timeout=30)
    assert killed in before and killed not in set(client.scheduler_info()["workers"])  # the nanny replaced it


@pytest.mark.parametrize("address, reason", [
    ("tcp://127.0.0.1:1", "Timed out trying to connect to tcp://127.0.0.1:1 after 2 s"),
    ("nonsense", "missing port number in address 'nonsense'"),
])
def test_an_unreachable_scheduler_is_one_line_quickly(monkeypatch, address, reason):
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 2.0)
    start = time.monotonic()
    with pytest.raises(InputError) as err:
        list(solve_on_cluster(address, "pysat", {}, iter([SMALL]), None))
    assert time.monotonic() - start < 8
    assert str(err.value) == f"--cluster {address}: cannot reach a Dask scheduler ({reason})"


def test_a_failed_connection_leaves_nothing_to_clean_up_at_exit():
    script = ("from satdoku.cluster import connect\n"
              "try:\n    connect('tcp://127.0.0.1:1', 1.0)\nexcept ValueError as err:\n    print(err)\n")
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30)
    assert time.monotonic() - start < 10
    assert done.stdout.startswith("--cluster tcp://127.0.0.1:1: cannot reach") and done.stderr == ""


def test_closing_early_cancels_what_is_outstanding(client):
    puzzles = first_lines("tdoku_17_clue.txt", 200)
    pulled = 0

    def counting() -> Iterator[list[Puzzle]]:
        nonlocal pulled
        for chunk in chunked(puzzles, 2):
            pulled += 1
            yield chunk

    results = solve_on_cluster(client, "logic", {}, counting(), None, in_flight=8)
    first = next(results)
    assert_results(puzzles[:2], first)
    assert our_tasks(client)  # later chunks are still outstanding
    results.close()
    assert wait_until(lambda: not our_tasks(client), 5)
    assert pulled <= 1 + 8 and client.status == "running"  # a client it was given stays open


def test_a_client_it_opens_is_closed(cluster, client):
    clients = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.clients))
    results = solve_on_cluster(cluster.scheduler_address, "dlx", {}, iter([SMALL] * 20), None, in_flight=3)
    assert_results(SMALL, next(results))
    assert client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.clients)) == clients + 1
    results.close()
    assert wait_until(lambda: client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.clients)) == clients)
    assert wait_until(lambda: not our_tasks(client), 5)


def test_in_flight_bounds_the_input_read_ahead(client):
    pulled, gaps = 0, []

    def counting() -> Iterator[list[Puzzle]]:
        nonlocal pulled
        for _ in range(25):
            pulled += 1
            yield SMALL  # the same chunk each time: each is its own task, none merged with another

    consumed = 0
    for chunk_results in solve_on_cluster(client, "dlx", {}, counting(), None, in_flight=3):
        assert_results(SMALL, chunk_results)
        consumed += 1
        gaps.append(pulled - consumed)
    assert consumed == pulled == 25
    assert max(gaps) == 3  # read and not yet consumed: never more than in_flight, and the pipeline fills


def test_a_bad_backend_fails_before_anything_is_submitted(client):
    pulled = []

    def recording() -> Iterator[list[Puzzle]]:
        pulled.append(1)
        yield SMALL

    with pytest.raises(BackendUnavailable):
        solve_on_cluster(client, "pysat:zchaff", {}, recording(), None)
    with pytest.raises(BackendUnavailable):
        solve_on_cluster(client, "pysat", {"workers": 3}, recording(), None)
    assert not pulled and not our_tasks(client)


def test_a_task_that_fails_for_good_names_the_chunks_first_puzzle(client):
    puzzles = first_lines("tdoku_17_clue.txt", 9)
    broken = puzzles[3].with_cells(puzzles[3].cells)
    object.__setattr__(broken, "cells", broken.cells[:-1])  # the worker cannot rebuild it: 80 cells
    chunks = [puzzles[:3], [broken] + puzzles[4:6], puzzles[6:]]
    results = solve_on_cluster(client, "pysat", {}, iter(chunks), None)
    assert_results(puzzles[:3], next(results))
    with pytest.raises(SolverError) as err:
        next(results)
    message = str(err.value)
    assert message.startswith("tdoku_17_clue.txt line 4: the cluster task of its chunk of 3 failed (InputError: ")
    assert "80 cells for a 9x9 (3x3 boxes) grid)" in message and "\n" not in message
    assert wait_until(lambda: not our_tasks(client), 5)


def test_without_dask_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(InputError, match=r"^--cluster needs dask and distributed: pip install 'satdoku\[cluster\]'$"):
        solve_on_cluster("tcp://127.0.0.1:8786", "pysat", {}, iter([SMALL]), None)
    assert MISSING.startswith("--cluster needs dask")
