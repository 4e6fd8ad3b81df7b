"""DIMACS in and out, solver answers, and the round trip through Debian's minisat and cadical."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest
from pysat.formula import CNF

from satdoku.cli import main
from satdoku.encoders.cnf import encode
from satdoku.encoders.dimacs import Answer, Dimacs, dimacs_for, read_answer, write_model
from satdoku.errors import InputError
from satdoku.models.formats import parse_puzzle, read_puzzles
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from tests.conftest import PUZZLES

INKALA = read_puzzles(str(PUZZLES / "inkala.txt"))[0]


def require_program(name: str) -> str:
    """The path of a solver binary; missing is a failure in CI (the CI script installs it), a skip elsewhere."""
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed (apt-get install -y {name}); scripts/test.sh installs it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def test_text_round_trip_and_pysat_reads_it_the_same():
    dimacs, _ = dimacs_for(INKALA, "efficient", "seqcounter", names=True)
    text = dimacs.to_text()
    again = Dimacs.from_text(text)
    assert again == dimacs
    assert again.to_text() == text
    theirs = CNF(from_string=text)
    assert theirs.clauses == dimacs.clauses and theirs.nv == dimacs.n_vars


def test_header_comments_and_projection():
    dimacs, varmap = dimacs_for(INKALA, names=True)
    text = dimacs.to_text()
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("p "))
    assert header == f"p cnf 729 {11988 + 21}"
    assert lines.index(header) == sum(1 for line in lines if line.startswith("c"))
    comments = "\n".join(dimacs.comments)
    for needle in ("geometry: n=9 box=3x3", "encoding: extended, at-most-one: pairwise, givens: units",
                   "v = r*81 + c*9 + d + 1", "name 1 r1c1=1", "name 729 r9c9=9"):
        assert needle in comments
    ind_lines = [line for line in lines if line.startswith("c ind ")]
    assert all(line.endswith(" 0") for line in ind_lines)
    assert dimacs.projection == list(range(1, 730))
    assert sum(len(line.split()) - 3 for line in ind_lines) == 729


def test_auxiliary_variables_are_outside_the_projection():
    dimacs, varmap = dimacs_for(Puzzle.empty(Geometry(2, 3)), amo="bitwise")
    assert dimacs.n_vars > 216 and dimacs.projection == list(range(1, 217))
    assert "217.." in dimacs.comments[4]


def test_simplified_projection_is_the_free_placements_only():
    dimacs, varmap = dimacs_for(INKALA, givens="simplify")
    used = {abs(lit) for clause in dimacs.clauses for lit in clause}
    assert set(dimacs.projection) == used
    assert dimacs.n_vars == 729


def test_native_cardinality_is_refused_for_dimacs():
    with pytest.raises(InputError, match="native"):
        dimacs_for(INKALA, amo="native")


@pytest.mark.parametrize("text,message", [
    ("c only a comment\n", "no 'p cnf"),
    ("p cnf 2 1\n1 3 0\n", "beyond the 2 variables"),
    ("p cnf 2 2\n1 2 0\n", "promises 2 clauses"),
    ("p cnf 2 1\n1 x 0\n", "'x' is not an integer"),
    ("p wcnf 2 1\n1 2 0\n", "expected 'p cnf"),
    ("p cnf 2 1\np cnf 2 1\n1 0\n", "second 'p' header"),
    ("1 0\np cnf 1 1\n", "before the 'p cnf' header"),
    ("p cnf 2 1\n1 --2 0\n", "line 2: '--2' is not an integer"),
    ("p cnf 2 1\n1 \u00b2 0\n", "line 2: '\u00b2' is not an integer"),
    ("p cnf 2 1\n1 " + "9" * 5000 + " 0\n", "line 2: literal 999"),
    ("p cnf \u00b2 1\n1 0\n", "expected 'p cnf"),
    ("p cnf " + "9" * 5000 + " 1\n1 0\n", "expected 'p cnf"),
    ("p cnf 2147483648 1\n1 0\n", "more than 2147483647"),
    ("c ind 1 --2 0\np cnf 2 1\n1 0\n", "line 1: '--2' is not an integer"),
])
def test_malformed_dimacs_is_an_input_error(text, message):
    with pytest.raises(InputError, match=message):
        Dimacs.from_text(text, "bad.cnf")


def test_clauses_may_span_lines_and_satlib_end_marker_is_honoured():
    parsed = Dimacs.from_text("c x\np cnf 3 2\n1 -2\n 3 0 -1\n0\n%\n0\n")
    assert parsed.clauses == [[1, -2, 3], [-1]]


@pytest.mark.parametrize("text,status,model", [
    ("c comment\ns SATISFIABLE\nv 1 -2 3\nv -4 0\n", "SAT", [1, -2, 3, -4]),
    ("s UNSATISFIABLE\n", "UNSAT", []),
    ("s UNKNOWN\n", "UNKNOWN", []),
    ("SAT\n1 -2 3 0\n", "SAT", [1, -2, 3]),           # MiniSat's result file
    ("UNSAT\n", "UNSAT", []),
    ("INDET\n", "UNKNOWN", []),
    ("1 -2 3 0\n", "SAT", [1, -2, 3]),                # bare model
    ("|  banner |\nrestarts : 1\ns SATISFIABLE\nv 1 0\n", "SAT", [1]),
])
def test_solver_answers(text, status, model):
    assert read_answer(text) == Answer(status, model)


@pytest.mark.parametrize("text,message", [
    ("", "no answer"), ("s SATISFIABLE\n", "no model"), ("s MAYBE\n", "unknown status"),
    ("v 1 z 0\ns SATISFIABLE\n", "'z'"), ("s SATISFIABLE\nv --5 0\n", "line 2: '--5' is not an integer"),
    ("s SATISFIABLE\nv 99999999999999999999 0\n", "line 2: literal 99999999999999999999 is beyond"),
    ("SAT\n1 -" + "9" * 5000 + " 0\n", "line 2: literal -99999"),
    ("s SATISFIABLE\nv 1 \u0663 0\n", "line 2: '\u0663' is not an integer"),
    ("s " + "X" * 500 + "\n", "unknown status 'XXXXXXXXXXXXXXXXXXXXX...'"),
])
def test_bad_answers_are_input_errors(text, message):
    with pytest.raises(InputError, match=re.escape(message)) as err:
        read_answer(text, "out.txt")
    assert "\n" not in str(err.value) and len(str(err.value)) < 200


def test_literals_beyond_the_puzzles_variables():
    assert read_answer("s SATISFIABLE\nv 1 -2 64 0\n", max_var=64).model == [1, -2, 64]
    with pytest.raises(InputError, match="out.txt line 2: literal -65 is beyond the largest variable, 64"):
        read_answer("s SATISFIABLE\nv 1 -65 0\n", "out.txt", max_var=64)


def test_a_banner_of_words_is_skipped_but_not_a_bare_model():
    assert read_answer("restarts 12 x\n--5 4\ns SATISFIABLE\nv 1 0\n") == Answer("SAT", [1])
    assert read_answer("-0 00 1 -2\n") == Answer("SAT", [1, -2])


def test_write_model_is_read_back():
    answer = Answer("SAT", [1, -2, 3])
    assert read_answer(write_model(answer)) == answer
    assert read_answer(write_model(Answer("UNSAT"))).status == "UNSAT"


@pytest.mark.parametrize("program", ["minisat", "cadical"])
@pytest.mark.parametrize("givens,encoding,amo", [("units", "extended", "pairwise"),
                                                 ("simplify", "minimal", "pairwise"),
                                                 ("units", "efficient", "ladder"),
                                                 ("simplify", "extended", "seqcounter")])
def test_round_trip_through_debian_solvers(program, givens, encoding, amo, tmp_path, capsys):
    """export -> real solver binary -> decode -> independent verifier."""
    path = require_program(program)
    cnf_path, out_path = tmp_path / "inkala.cnf", tmp_path / "answer.txt"
    assert main(["export", str(PUZZLES / "inkala.txt"), "-o", str(cnf_path), "--givens", givens,
                 "--encoding", encoding, "--amo", amo]) == 0
    if program == "minisat":
        done = subprocess.run([path, str(cnf_path), str(out_path)], capture_output=True, text=True, timeout=120)
    else:
        done = subprocess.run([path, str(cnf_path)], capture_output=True, text=True, timeout=120)
        out_path.write_text(done.stdout)
    assert done.returncode == 10
    capsys.readouterr()
    assert main(["decode", str(PUZZLES / "inkala.txt"), str(out_path)]) == 0
    line = capsys.readouterr().out.strip()
    grid = tuple(int(ch) for ch in line)
    assert is_solution(grid, INKALA) and line.startswith("812753649")


@pytest.mark.parametrize("program", ["minisat", "cadical"])
def test_debian_solvers_say_unsat_for_a_puzzle_without_solution(program, tmp_path, capsys):
    path = require_program(program)
    puzzle_path = tmp_path / "dead.txt"
    puzzle_path.write_text("123.\n...4\n....\n....\n")
    cnf_path, out_path = tmp_path / "dead.cnf", tmp_path / "answer.txt"
    assert main(["export", str(puzzle_path), "-o", str(cnf_path)]) == 0
    args = [path, str(cnf_path)] + ([str(out_path)] if program == "minisat" else [])
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    if program != "minisat":
        out_path.write_text(done.stdout)
    assert done.returncode == 20
    assert main(["decode", str(puzzle_path), str(out_path)]) == 1
    assert capsys.readouterr().out.strip().endswith("no solution")


def test_every_puzzle_of_a_file_exports_to_a_satisfiable_formula(shared_puzzles):
    from pysat.solvers import Solver
    for puzzle in read_puzzles(str(shared_puzzles / "norvig_top95.txt"))[:10]:
        dimacs, varmap = dimacs_for(puzzle, givens="simplify")
        again = Dimacs.from_text(dimacs.to_text())
        with Solver(name="minisat22", bootstrap_with=again.clauses) as solver:
            assert solver.solve()
            assert is_solution(varmap.decode(solver.get_model()), puzzle)


def test_cnf_object_and_dimacs_agree():
    puzzle = parse_puzzle("1000000200400300")
    cnf, _ = encode(puzzle)
    dimacs, _ = dimacs_for(puzzle)
    assert cnf.clauses == dimacs.clauses
