"""The CNF encodings: exact clause counts, auxiliary numbering, givens three ways, every combination solves."""
from __future__ import annotations

from math import comb

import numpy as np
import pytest
from pysat.solvers import Solver

from satdoku.encoders.cnf import (AMO_KINDS, ENCODINGS, clause_count, encode, exactly_one,
                                  given_literals)
from satdoku.errors import InputError
from satdoku.models.formats import parse_puzzle, read_puzzles
from satdoku.models.geometry import Geometry
from satdoku.models.matrix import exact_cover
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution

from tests.conftest import PUZZLES

GEOMETRIES = [Geometry(2, 2), Geometry(2, 3), Geometry(2, 4), Geometry(4, 2), Geometry(3, 3),
              Geometry(3, 4), Geometry(4, 4)]
INKALA = read_puzzles(str(PUZZLES / "inkala.txt"))[0]


def solve_cnf(cnf, varmap, engine="cadical195", assumptions=()):
    with Solver(name=engine, bootstrap_with=cnf) as solver:
        if not solver.solve(assumptions=list(assumptions)):
            return None
        return varmap.decode(solver.get_model())


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda g: f"{g.box_rows}x{g.box_cols}")
def test_clause_counts_follow_the_closed_formulas(geometry):
    n, pairs = geometry.n, comb(geometry.n, 2)
    expected = {"minimal": n * n * (1 + 3 * pairs), "efficient": n * n * (1 + 4 * pairs),
                "extended": 4 * n * n * (1 + pairs)}
    for encoding in ENCODINGS:
        cnf, varmap = encode(Puzzle.empty(geometry), encoding)
        assert len(cnf.clauses) == expected[encoding] == clause_count(n, encoding)
        assert cnf.nv == varmap.n_vars == n ** 3
        assert max(abs(lit) for clause in cnf.clauses for lit in clause) == n ** 3


def test_nine_by_nine_counts_are_the_published_ones():
    counts = [len(encode(Puzzle.empty(Geometry(3, 3)), e)[0].clauses) for e in ENCODINGS]
    assert counts == [8829, 11745, 11988]


def test_default_is_extended_pairwise_with_unit_givens():
    cnf, _ = encode(INKALA)
    explicit, _ = encode(INKALA, "extended", "pairwise", "units")
    assert cnf.clauses == explicit.clauses
    assert len(cnf.clauses) == 11988 + INKALA.n_givens
    assert [c for c in cnf.clauses if len(c) == 1] == [[v] for v in given_literals(INKALA)]


def test_extended_is_exactly_one_per_item():
    matrix = exact_cover(Geometry(2, 2))
    cnf, _ = encode(Puzzle.empty(Geometry(2, 2)))
    expected = [c for opts in matrix.item_options for c in exactly_one([int(o) + 1 for o in opts])]
    assert sorted(map(sorted, cnf.clauses)) == sorted(map(sorted, expected))


def test_given_literals_are_placement_variables():
    puzzle = parse_puzzle("1000000200400300")
    assert given_literals(puzzle) == [1, 7 * 4 + 2, 10 * 4 + 4, 13 * 4 + 3]


@pytest.mark.parametrize("amo", ["seqcounter", "bitwise", "ladder"])
def test_compact_at_most_one_numbers_auxiliaries_after_the_placements(amo):
    geometry = Geometry(3, 3)
    cnf, varmap = encode(Puzzle.empty(geometry), amo=amo)
    used = {abs(lit) for clause in cnf.clauses for lit in clause}
    assert set(range(1, 730)) <= used
    assert max(used) == cnf.nv == varmap.n_vars > 729
    assert varmap.placement_vars() == list(range(1, 730))


def test_compact_encodings_are_smaller_for_large_grids():
    empty = Puzzle.empty(Geometry(4, 4))
    sizes = {amo: len(encode(empty, amo=amo)[0].clauses) for amo in ("pairwise", "seqcounter", "bitwise")}
    assert sizes["seqcounter"] < sizes["pairwise"] and sizes["bitwise"] < sizes["pairwise"]


def test_native_at_most_one_is_cardinality_constraints():
    cnf, _ = encode(Puzzle.empty(Geometry(3, 3)), amo="native")
    assert len(cnf.atmosts) == 4 * 81 and all(k == 1 and len(lits) == 9 for lits, k in cnf.atmosts)
    assert len(cnf.clauses) == 4 * 81  # the at-least-one clauses


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("amo", [a for a in AMO_KINDS if a != "native"])
@pytest.mark.parametrize("givens", ["units", "simplify", "assumptions"])
def test_every_combination_solves_inkala(encoding, amo, givens):
    cnf, varmap = encode(INKALA, encoding, amo, givens)
    assumptions = given_literals(INKALA) if givens == "assumptions" else ()
    grid = solve_cnf(cnf, varmap, assumptions=assumptions)
    assert grid is not None and is_solution(grid, INKALA)
    assert "".join(map(str, grid)).startswith("812753649")


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_native_cardinality_solves_with_minicard(encoding):
    cnf, varmap = encode(INKALA, encoding, "native")
    grid = solve_cnf(cnf, varmap, engine="minicard")
    assert grid is not None and is_solution(grid, INKALA)


def _simplify_by_hand(puzzle, cnf):
    """Kwon & Jain done literally: givens true, what they rule out false, then drop and shorten."""
    matrix = exact_cover(puzzle.geometry)
    reduced = matrix.reduce(puzzle)
    true = set((reduced.selected + 1).tolist())
    alive = set((reduced.options + 1).tolist())
    false = set(range(1, matrix.n_options + 1)) - alive - true
    out = []
    for clause in cnf.clauses:
        if any((lit > 0 and lit in true) or (lit < 0 and -lit in false) for lit in clause):
            continue
        out.append(sorted(lit for lit in clause if not ((lit > 0 and lit in false) or (lit < 0 and -lit in true))))
    return sorted(out)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_simplify_is_kwon_and_jain(encoding, shared_puzzles):
    puzzle = parse_puzzle((shared_puzzles / "magictour_top1465.txt").read_text().splitlines()[0])
    units, _ = encode(puzzle, encoding, givens="units")
    simplified, varmap = encode(puzzle, encoding, givens="simplify")
    assert sorted(sorted(c) for c in simplified.clauses) == _simplify_by_hand(puzzle, units)
    assert len(simplified.clauses) < len(units.clauses) // 3
    grid = solve_cnf(simplified, varmap)
    assert grid is not None and is_solution(grid, puzzle)


def test_a_17_clue_puzzle_drops_to_a_few_thousand_clauses(shared_puzzles):
    line = (shared_puzzles / "tdoku_17_clue.txt").read_text().split("\n", 1)[0]
    puzzle = parse_puzzle(line)
    assert puzzle.n_givens == 17
    cnf, varmap = encode(puzzle, givens="simplify")
    assert 1000 < len(cnf.clauses) < 5000
    free = varmap.placement_vars()
    assert len(free) < 729 and all(1 <= v <= 729 for v in free)
    assert is_solution(solve_cnf(cnf, varmap), puzzle)


def test_simplify_ignores_whatever_a_solver_says_about_fixed_variables():
    puzzle = parse_puzzle("1000000200400300")
    cnf, varmap = encode(puzzle, givens="simplify")
    grid = solve_cnf(cnf, varmap)
    free = set(varmap.placement_vars())
    # a solver may set the variables that occur in no clause any way it likes: here, all true
    forged = [v if v not in free or grid[(v - 1) // 4] == (v - 1) % 4 + 1 else -v for v in range(1, 65)]
    assert sum(1 for v in forged if v > 0) > 16
    assert varmap.decode(forged) == grid


def test_simplify_with_clashing_givens_is_unsatisfiable():
    puzzle = Puzzle(Geometry(2, 2), (1, 1) + (0,) * 14)  # built directly: the parser refuses it
    cnf, varmap = encode(puzzle, givens="simplify")
    assert solve_cnf(cnf, varmap) is None
    units, vm = encode(puzzle, givens="units")
    assert solve_cnf(units, vm) is None


def test_simplify_with_a_dead_cell_is_unsatisfiable():
    # r1c4 needs a 4, but column 4 already has one: no duplicate, still no solution
    puzzle = parse_puzzle("1230" "0004" "0000" "0000")
    for givens in ("units", "simplify"):
        cnf, varmap = encode(puzzle, givens=givens)
        assert solve_cnf(cnf, varmap) is None


@pytest.mark.parametrize("kind,value", [("encoding", "maximal"), ("amo", "totalizer"), ("givens", "magic")])
def test_unknown_choices_are_input_errors(kind, value):
    with pytest.raises(InputError, match=value):
        encode(INKALA, **{kind: value})


def test_decode_reads_positive_placements_only():
    cnf, varmap = encode(Puzzle.empty(Geometry(2, 2)), amo="ladder")
    grid = solve_cnf(cnf, varmap)
    model = np.array([v if grid[(v - 1) // 4] == (v - 1) % 4 + 1 else -v for v in range(1, 65)]
                     + list(range(65, varmap.n_vars + 1)))
    assert varmap.decode(model) == grid


def _refill(grid, deciding, geometry):
    """Rebuild a grid from its deciding cells and givens, house by house (last unknown cell of a house)."""
    n = geometry.n
    cells = [v if d else 0 for v, d in zip(grid, deciding)]  # keep only the deciding cells
    progress = True
    while progress:
        progress = False
        for house in geometry.houses:
            unknown = [c for c in house if cells[c] == 0]
            if len(unknown) == 1:
                cells[unknown[0]] = (set(range(1, n + 1)) - {cells[c] for c in house}).pop()
                progress = True
    return tuple(cells)


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda g: f"{g.box_rows}x{g.box_cols}")
def test_deciding_cells_fix_the_whole_grid(geometry):
    from satdoku.backends.pysat import PysatBackend
    from satdoku.encoders.cnf import deciding_cells
    empty = Puzzle.empty(geometry)
    deciding = deciding_cells(empty)
    assert 0 < sum(deciding) < geometry.n_cells - geometry.n
    for grid in PysatBackend().solutions(empty, limit=3):
        assert is_solution(grid, empty)
        assert _refill(grid, deciding, geometry) == grid


def test_deciding_cells_tell_all_4x4_grids_apart():
    from satdoku.backends.pysat import PysatBackend
    from satdoku.encoders.cnf import deciding_cells
    empty = Puzzle.empty(Geometry(2, 2))
    deciding = deciding_cells(empty)
    grids = list(PysatBackend().solutions(empty))
    keys = {tuple(v for v, d in zip(g, deciding) if d) for g in grids}
    assert len(grids) == len(keys) == 288


def test_givens_are_never_deciding():
    from satdoku.encoders.cnf import deciding_cells
    deciding = deciding_cells(INKALA)
    assert not any(d for d, v in zip(deciding, INKALA.cells) if v)
