"""Solving batches of puzzles on a Dask distributed cluster, results in input order (`--cluster ADDRESS`).

Each chunk of puzzles is one task. A worker process builds its backend once and reuses it for every
chunk it gets; chunks travel compactly (the geometry once, each puzzle's cells as bytes). The input
is read lazily, at most `in_flight` chunks ahead of the caller, so an endless stream keeps memory
flat. A task whose worker dies is re-run by the scheduler elsewhere; the results of every chunk are
taken exactly once, by its index, and yielded in input order.

dask and distributed are imported only when a cluster is used: `import satdoku.cluster` works without them.
"""
from __future__ import annotations

import uuid
from asyncio import CancelledError
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from satdoku.backends.base import Backend, Result
from satdoku.backends.registry import get_backend
from satdoku.errors import InputError, SolverError, first_line
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle

if TYPE_CHECKING:
    from distributed import Client, Future

IN_FLIGHT = 16        # chunks submitted and not yet yielded, by default
RETRIES = 3           # re-runs of a task that raised (a task whose worker died is re-run by the scheduler)
CONNECT_TIMEOUT = 10.0  # seconds to reach the scheduler
MISSING = "--cluster needs dask and distributed: pip install 'satdoku[cluster]'"

# in each worker process: the backends built so far, by (name, frozen settings)
_worker_backends: dict[tuple[str, Any], Backend] = {}


# --- shipping chunks: what goes over the wire, and back into puzzles on the worker ---

@dataclass(frozen=True)
class Run:
    """Consecutive puzzles of one geometry: cells as bytes (or tuples), alphabets and sources only when set."""

    geometry: Geometry
    cells: tuple[bytes | tuple[int, ...], ...]
    alphabets: str | None | tuple[str | None, ...] = None  # one for all, or one each
    sources: tuple[str, ...] | None = None


def _pack_cells(cells: Sequence[int]) -> bytes | tuple[int, ...]:
    """A puzzle's cells as bytes (one per cell, sides up to 255), else as they are.

    >>> _pack_cells((1, 0, 9)), _pack_cells((300,))
    (b'\\x01\\x00\\t', (300,))
    """
    try:
        return bytes(cells)
    except ValueError:
        return tuple(cells)


def _same_or_each(values: list[str | None]) -> str | None | tuple[str | None, ...]:
    """One value when all are equal, else the tuple of them.

    >>> _same_or_each(["123", "123"]), _same_or_each(["12", None])
    ('123', ('12', None))
    """
    return values[0] if all(v == values[0] for v in values) else tuple(values)


def _pack_run(puzzles: list[Puzzle]) -> Run:
    """Puzzles of one geometry as one Run."""
    sources = [p.source for p in puzzles]
    return Run(puzzles[0].geometry, tuple(_pack_cells(p.cells) for p in puzzles),
               _same_or_each([p.alphabet for p in puzzles]), tuple(sources) if any(sources) else None)


def pack_chunk(puzzles: list[Puzzle]) -> list[Run]:
    """A chunk as runs of consecutive puzzles sharing a geometry (one run in the usual file).

    >>> from satdoku.models.formats import parse_puzzles
    >>> [len(run.cells) for run in pack_chunk(parse_puzzles("1000000200400300\\n0200000000300040"))]
    [2]
    """
    runs: list[Run] = []
    start = 0
    for k in range(1, len(puzzles) + 1):
        if k == len(puzzles) or puzzles[k].geometry != puzzles[start].geometry:
            runs.append(_pack_run(puzzles[start:k]))
            start = k
    return runs


def unpack_chunk(runs: list[Run]) -> list[Puzzle]:
    """The puzzles of a packed chunk, rebuilt (the worker's side of `pack_chunk`).

    >>> from satdoku.models.formats import parse_puzzles
    >>> ps = parse_puzzles("1000000200400300\\n0200000000300040", source="f")
    >>> unpack_chunk(pack_chunk(ps)) == ps, unpack_chunk(pack_chunk(ps))[1].source
    (True, 'f line 2')
    """
    puzzles = []
    for run in runs:
        for k, cells in enumerate(run.cells):
            alphabet = run.alphabets[k] if isinstance(run.alphabets, tuple) else run.alphabets
            source = run.sources[k] if run.sources else ""
            puzzles.append(Puzzle(run.geometry, tuple(cells), alphabet, source))
    return puzzles


# --- the worker's side ---

def _frozen(value: Any) -> Any:
    """A hashable form of a settings value (dicts, lists and sets become sorted tuples).

    >>> _frozen({"b": [1, 2], "a": None})
    (('a', None), ('b', (1, 2)))
    """
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(_frozen(v) for v in value))
    return value


def worker_backend(backend_name: str, settings: dict) -> Backend:
    """The backend of this process for a name and settings, built on first use and kept."""
    key = (backend_name, _frozen(settings))
    if key not in _worker_backends:
        _worker_backends[key] = get_backend(backend_name, **settings)
    return _worker_backends[key]


def solve_packed(backend_name: str, settings: dict, runs: list[Run], time_limit: float | None) -> list[Result]:
    """One task: solve a packed chunk with this worker's backend, one Result per puzzle, in order.

    >>> from satdoku.models.formats import parse_puzzles
    >>> [r.status.value for r in solve_packed("dlx", {}, pack_chunk(parse_puzzles("1000000200400300")), None)]
    ['solved']
    """
    return list(worker_backend(backend_name, settings).solve_many(unpack_chunk(runs), time_limit))


# --- the caller's side ---

def _distributed() -> Any:
    """The distributed package, or the one-line InputError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise InputError(MISSING) from None
    return distributed


def _reach(address: str, timeout: float) -> None:
    """Open and close one connection to `address`: OSError, TimeoutError or ValueError when it cannot.

    Probing first means a failed connection leaves no half-built Client behind (whose cleanup would
    hang at exit and print a traceback).
    """
    import asyncio

    from distributed.comm import connect as open_comm

    async def once() -> None:
        comm = await open_comm(address, timeout=timeout)
        await comm.close()

    try:
        asyncio.get_running_loop()
    except RuntimeError:  # no loop running in this thread: the usual case, a script or the CLI
        asyncio.run(once())


def connect(address: str, timeout: float | None = None) -> Client:
    """A Client of the scheduler at `address`; an InputError when it cannot be reached within `timeout` s."""
    distributed = _distributed()
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    try:
        _reach(address, timeout)
        return distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as err:
        reason = first_line(err, 120) or type(err).__name__
    raise InputError(f"--cluster {address}: cannot reach a Dask scheduler ({reason})")


def _where(chunk: list[Puzzle], first: int) -> str:
    """The chunk's first puzzle by its source, else by its number in the input.

    >>> _where([Puzzle.empty(Geometry(2, 2))], 40)
    'puzzle 41'
    """
    return chunk[0].source if chunk and chunk[0].source else f"puzzle {first + 1}"


def _failure(chunk: list[Puzzle], first: int, err: BaseException) -> SolverError:
    """The SolverError of a chunk whose task failed for good."""
    why = first_line(err, 120) or type(err).__name__
    return SolverError(f"{_where(chunk, first)}: the cluster task of its chunk of {len(chunk)} failed "
                       f"({type(err).__name__}: {why})")


@dataclass
class _Pending:
    """A chunk submitted and not yet yielded: its place in the input and its future (None when empty)."""

    index: int
    first: int
    chunk: list[Puzzle]
    future: Future | None


def _results(pending: _Pending, backend_name: str) -> list[Result]:
    """The results of a pending chunk, waiting for them; a SolverError when its task failed for good."""
    if pending.future is None:
        return []
    try:
        results = pending.future.result()
    except (Exception, CancelledError) as err:  # the task's own error, KilledWorker, or a cancel from elsewhere
        raise _failure(pending.chunk, pending.first, err) from err
    if len(results) != len(pending.chunk):
        raise SolverError(f"{_where(pending.chunk, pending.first)}: a {backend_name} worker returned "
                          f"{len(results)} results for {len(pending.chunk)} puzzles")
    return results


def _cancel(client: Client, pending: Iterable[_Pending]) -> None:
    """Cancel the futures of chunks not yet yielded (a closed client has nothing left to cancel)."""
    futures = [p.future for p in pending if p.future is not None]
    if futures and client.status == "running":
        client.cancel(futures)


def solve_on_cluster(address: str | Client, backend_name: str, settings: dict,
                     chunks: Iterable[list[Puzzle]], time_limit: float | None,
                     in_flight: int = IN_FLIGHT) -> Iterator[list[Result]]:
    """Solve each chunk as one task on the Dask cluster at `address` (or through a Client), yielding
    each chunk's results in input order; at most `in_flight` chunks are read ahead of the caller.

    A missing dask or a bad backend name or option raises here, before anything is submitted; an
    unreachable scheduler raises InputError at the first `next()`. Closing the iterator cancels
    the chunks still outstanding and closes the client it opened (never a client it was given).
    """
    if in_flight < 1:
        raise InputError(f"in_flight must be at least 1, not {in_flight}")
    _distributed()
    get_backend(backend_name, **settings)  # a bad name or option fails here, in this process
    return _ordered_results(address, backend_name, dict(settings), iter(chunks), time_limit, in_flight)


def _ordered_results(address: str | Client, backend_name: str, settings: dict, chunks: Iterator[list[Puzzle]],
                     time_limit: float | None, in_flight: int) -> Iterator[list[Result]]:
    """The generator behind `solve_on_cluster`: connect, keep up to `in_flight` chunks submitted, yield in order."""
    client = connect(address) if isinstance(address, str) else address
    batch = uuid.uuid4().hex
    pending: deque[_Pending] = deque()
    counts = {"index": 0, "first": 0}

    def submit_more() -> None:
        while len(pending) < in_flight:
            chunk = next(chunks, None)
            if chunk is None:
                return
            chunk = list(chunk)
            future = client.submit(solve_packed, backend_name, settings, pack_chunk(chunk), time_limit,
                                   key=f"satdoku-{batch}-{counts['index']}", pure=False,
                                   retries=RETRIES) if chunk else None
            pending.append(_Pending(counts["index"], counts["first"], chunk, future))
            counts["index"] += 1
            counts["first"] += len(chunk)

    try:
        submit_more()
        while pending:
            results = _results(pending[0], backend_name)  # later chunks may be done: they wait their turn
            done = pending.popleft()
            if done.future is not None:
                done.future.release()
            submit_more()  # keep the workers busy while the caller handles these results
            yield results
    finally:
        _cancel(client, pending)
        pending.clear()
        if client is not address:
            client.close()
