"""Solving a file of puzzles in several processes, results in input order (`satdoku solve --jobs N`).

Each worker process builds its backend once (so a reused SAT solver stays warm in every worker)
and solves contiguous chunks of the input; results come back chunk by chunk, in order.
"""
from __future__ import annotations

import multiprocessing
import signal
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import islice

from satdoku.backends.base import Backend, Result
from satdoku.backends.registry import get_backend
from satdoku.errors import SolverError
from satdoku.models.puzzle import Puzzle

_worker_backend: Backend | None = None
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies
CHUNKS_PER_JOB = 8
MAX_CHUNK = 256
MAX_AHEAD = 1024  # chunks read ahead at most, whatever --jobs says


def _start_worker(backend_name: str, settings: dict) -> None:
    global _worker_backend
    _die_with_parent()
    _worker_backend = get_backend(backend_name, **settings)


def _die_with_parent() -> None:
    """On Linux, ask the kernel to end this worker when the process that started it dies, even by SIGKILL
    (which leaves it no chance to shut its pool down); elsewhere, nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the parent is gone: nothing is left to hand results to
    except (OSError, AttributeError):
        return


def _solve_chunk(puzzles: list[Puzzle], time_limit: float | None) -> list[Result]:
    assert _worker_backend is not None, "worker started without a backend"
    return list(_worker_backend.solve_many(puzzles, time_limit))


def chunk_size(n_puzzles: int, jobs: int) -> int:
    """Puzzles per task: enough tasks to balance the workers, few enough to keep overhead low.

    >>> chunk_size(1465, 2), chunk_size(3, 4)
    (92, 1)
    """
    return max(1, min(MAX_CHUNK, -(-n_puzzles // (jobs * CHUNKS_PER_JOB))))


def _context() -> multiprocessing.context.BaseContext:
    """Fork where the platform has it (fast start, nothing to re-import), spawn elsewhere."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def solve_in_processes(backend_name: str, settings: dict, puzzles: list[Puzzle],
                       time_limit: float | None, jobs: int) -> Iterator[Result]:
    """Solve `puzzles` with `jobs` worker processes, yielding their results in input order.

    >>> from satdoku.models.formats import parse_puzzles
    >>> ps = parse_puzzles("1000000200400300\\n0200000000300040")
    >>> [r.status.value for r in solve_in_processes("pysat", {}, ps, None, 2)]
    ['solved', 'solved']
    """
    puzzles = list(puzzles)
    size = chunk_size(len(puzzles), jobs)
    chunks = [puzzles[k:k + size] for k in range(0, len(puzzles), size)]
    for results in solve_chunks(backend_name, settings, chunks, time_limit, jobs):
        yield from results


def solve_chunks(backend_name: str, settings: dict, chunks: Iterable[list[Puzzle]], time_limit: float | None,
                 jobs: int, in_flight: int | None = None) -> Iterator[list[Result]]:
    """Each chunk's results, in input order, from `jobs` worker processes; at most `in_flight` chunks (default
    4 per job) are read ahead of the one being returned, so a stream of chunks keeps memory flat."""
    get_backend(backend_name, **settings)  # a bad name or option fails here, in this process
    ahead = min(in_flight or 4 * jobs, MAX_AHEAD)
    source = iter(chunks)
    first = list(islice(source, ahead))  # no more workers than chunks: a small batch starts few processes
    if not first:
        return
    with ProcessPoolExecutor(max_workers=min(jobs, len(first)), mp_context=_context(),
                             initializer=_start_worker, initargs=(backend_name, dict(settings))) as pool:
        pending: deque[tuple[int, Future]] = deque((len(c), pool.submit(_solve_chunk, c, time_limit)) for c in first)
        try:
            while True:
                while len(pending) < ahead:
                    chunk = next(source, None)
                    if chunk is None:
                        break
                    pending.append((len(chunk), pool.submit(_solve_chunk, chunk, time_limit)))
                if not pending:
                    return
                size, future = pending.popleft()
                try:
                    results = future.result()
                except BrokenProcessPool:
                    raise SolverError(f"a worker process of backend {backend_name} died "
                                      f"(out of memory or a crash in the solver)") from None
                if len(results) != size:
                    raise SolverError(f"a worker returned {len(results)} results for {size} puzzles")
                yield results
        finally:
            for _, future in pending:
                future.cancel()
