"""The PySAT backend: options, a reused solver with assumptions, enumeration under activation literals."""
from __future__ import annotations

import time

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from satdoku.backends.base import Status
from satdoku.backends.pysat import PysatBackend, solve_limited
from satdoku.backends.registry import get_backend
from satdoku.cli import main
from satdoku.encoders.cnf import AMO_KINDS, ENCODINGS, encode
from satdoku.errors import BackendUnavailable, InputError
from satdoku.models.formats import parse_puzzle, read_puzzles
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from tests.conftest import DEAD, PUZZLES, assert_results

INKALA = read_puzzles(str(PUZZLES / "inkala.txt"))[0]
EMPTY4 = Puzzle.empty(Geometry(2, 2))
ROW6 = Puzzle(Geometry(2, 3), (1, 2, 3, 4, 5, 6) + (0,) * 30)
AMOS = [a for a in AMO_KINDS if a != "native"]


def amo_backends():
    """Every at-most-one encoding, the native one on minicard."""
    return [("cadical195", amo) for amo in AMOS] + [("minicard", "native")]


@pytest.mark.parametrize("engine,amo", amo_backends())
def test_empty_4x4_has_288_grids_on_every_at_most_one(engine, amo):
    grids = list(PysatBackend(engine, amo=amo).solutions(EMPTY4))
    assert len(grids) == 288 == len(set(grids))
    assert all(is_solution(g, EMPTY4) for g in grids)


@pytest.mark.slow
@pytest.mark.parametrize("engine,amo", amo_backends())
def test_6x6_with_first_row_fixed_has_39168_completions(engine, amo):
    grids = set()
    for grid in PysatBackend(engine, amo=amo).solutions(ROW6):
        grids.add(grid)
    assert len(grids) == 39168
    sample = list(grids)[::997]
    assert all(is_solution(g, ROW6) for g in sample)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_counts_the_same(encoding):
    puzzle = parse_puzzle("1...\n....\n....\n...2")
    grids = list(PysatBackend(encoding=encoding).solutions(puzzle))
    assert len(grids) == len(set(grids)) > 1
    assert all(is_solution(g, puzzle) for g in grids)
    # cross-check against pysat's own enumeration of the pairwise formula (no auxiliaries there)
    cnf, varmap = encode(puzzle, encoding, "pairwise", "units")
    with Solver(name="glucose4", bootstrap_with=cnf) as solver:
        theirs = {varmap.decode(m) for m in solver.enum_models()}
    assert set(grids) == theirs


def test_blocking_clauses_are_retired_so_the_solver_stays_usable():
    backend = PysatBackend()
    first = list(backend.solutions(EMPTY4, limit=10))
    assert len(first) == 10
    assert backend.count(EMPTY4) == 288          # the 10 blocked grids are back
    assert backend.count(EMPTY4, limit=7) == 7
    result = backend.solve(parse_puzzle("1000000200400300"))
    assert result.solved and is_solution(result.grid, parse_puzzle("1000000200400300"))
    assert backend.count(EMPTY4) == 288
    assert len(backend._reused) == 1             # one solver served every question


def test_interleaved_enumerations_do_not_disturb_each_other():
    backend = PysatBackend("glucose4")
    a = backend.solutions(EMPTY4)
    b = backend.solutions(parse_puzzle("1...\n....\n....\n...."))
    seen_a, seen_b = [next(a)], [next(b)]
    for grid in b:                      # one grid of each in turn until b is done
        seen_b.append(grid)
        seen_a.append(next(a))
    seen_a.extend(a)
    assert len(seen_b) == len(set(seen_b)) == 288 // 4
    assert len(seen_a) == len(set(seen_a)) == 288


@pytest.mark.parametrize("givens", ["auto", "assumptions", "units", "simplify"])
def test_givens_modes_agree(givens):
    backend = PysatBackend(givens=givens)
    result = backend.solve(INKALA)
    assert result.status is Status.SOLVED and is_solution(result.grid, INKALA)
    assert backend.solve(DEAD).status is Status.NO_SOLUTION
    assert backend.count(parse_puzzle("12..\n....\n....\n....")) == 24


def test_solve_many_keeps_order_and_reuses_one_solver(shared_puzzles):
    puzzles = read_puzzles(str(shared_puzzles / "norvig_top95.txt"))
    mixed = puzzles[:20] + [DEAD, INKALA, EMPTY4] + puzzles[20:40]
    backend = PysatBackend("minisat22")
    results = list(backend.solve_many(mixed))
    assert_results(mixed, results)
    assert set(backend._reused) == {Geometry(3, 3), Geometry(2, 2)}


@pytest.mark.parametrize("engine", ["cadical195", "glucose4", "minisat22", "cadical153", "maplechrono"])
def test_engines_solve_in_batches(engine, shared_puzzles):
    puzzles = read_puzzles(str(shared_puzzles / "norvig_hardest.txt"))
    results = list(PysatBackend(engine).solve_many(puzzles))
    assert all(r.solved and is_solution(r.grid, p) for r, p in zip(results, puzzles))


def test_16x16_and_25x25_solve(shared_puzzles):
    backend = PysatBackend()
    for name in ("sudoku_16x16_box4x4.txt", "sudoku_25x25_box5x5.txt"):
        puzzles = read_puzzles(str(shared_puzzles / name))
        results = list(backend.solve_many(puzzles))
        assert all(r.solved and is_solution(r.grid, p) for r, p in zip(results, puzzles))
    # 16x16 goes to a reused solver; 25x25 is simplified per puzzle (its full encoding is 752,500 clauses)
    assert set(backend._reused) == {Geometry(4, 4)}


def test_25x25_enumeration_without_a_reused_solver(shared_puzzles):
    puzzle = read_puzzles(str(shared_puzzles / "sudoku_25x25_box5x5.txt"))[0]
    grids = list(PysatBackend().solutions(puzzle, limit=2))
    assert grids and all(is_solution(g, puzzle) for g in grids) and len(set(grids)) == len(grids)


@pytest.mark.parametrize("name", ["cadical195", "glucose4", "minisat22"])
def test_time_limit_stops_a_hard_formula(name):
    with Solver(name=name, bootstrap_with=PHP(11).clauses) as solver:
        start = time.perf_counter()
        assert solve_limited(solver, 0.3) is None
        assert time.perf_counter() - start < 10
        assert solve_limited(solver, 0.2) is None     # still usable after giving up
    with Solver(name=name, bootstrap_with=[[1, 2], [-1]]) as solver:
        assert solve_limited(solver, 5.0) is True


def test_options_are_checked():
    with pytest.raises(InputError, match="maximal"):
        PysatBackend(encoding="maximal")
    with pytest.raises(InputError, match="totalizer"):
        PysatBackend(amo="totalizer")
    with pytest.raises(BackendUnavailable, match="minicard"):
        PysatBackend("cadical195", amo="native")
    with pytest.raises(BackendUnavailable, match="workers"):
        PysatBackend(workers=2)
    with pytest.raises(BackendUnavailable, match="unknown PySAT solver"):
        get_backend("pysat:zchaff")


@pytest.mark.parametrize("args", [["--encoding", "minimal"], ["--amo", "ladder"],
                                  ["--encoding", "efficient", "--amo", "bitwise"],
                                  ["-b", "pysat:minicard", "--amo", "native"],
                                  ["-b", "pysat:gluecard4", "--amo", "native", "--all"]])
def test_cli_options_reach_the_backend(args, capsys):
    assert main(["solve", str(PUZZLES / "inkala.txt"), *args]) == 0
    out = capsys.readouterr().out.strip()
    assert out == "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def test_cli_bad_amo_is_one_line_exit_2(capsys):
    assert main(["solve", str(PUZZLES / "inkala.txt"), "--amo", "bogus"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bogus" in err and "Traceback" not in err


def test_cli_count_all_uses_blocking_enumeration(capsys):
    assert main(["solve", str(PUZZLES / "example_4x4.txt"), "--all", "--amo", "seqcounter"]) == 0
    lines = capsys.readouterr().out.split()
    puzzle = read_puzzles(str(PUZZLES / "example_4x4.txt"))[0]
    assert lines and all(is_solution(tuple(int(c) for c in line), puzzle) for line in lines)
