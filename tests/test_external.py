"""External DIMACS solver programs as a backend: real minisat/cadical, fake solvers for every convention."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import time

import pytest

from satdoku.backends.base import Status
from satdoku.backends.external import ExternalBackend, locate, writes_result_file
from satdoku.backends.registry import get_backend
from satdoku.errors import BackendUnavailable, InputError, SolverError
from satdoku.models.formats import parse_puzzle, read_puzzles
from satdoku.models.geometry import Geometry
from satdoku.models.puzzle import Puzzle
from satdoku.models.verify import is_solution
from tests.conftest import PUZZLES, REPO
from tests.test_dimacs import require_program

INKALA = read_puzzles(str(PUZZLES / "inkala.txt"))[0]
DEAD = parse_puzzle("123.\n...4\n....\n....")  # r1c4 needs a 4 that column 4 already has


def fake_solver(folder, name: str, body: str) -> str:
    """A solver program written as a shell script (run directly, through its #! line)."""
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.parametrize("program", ["minisat", "cadical"])
@pytest.mark.parametrize("givens", ["units", "simplify"])
def test_real_solvers_solve_and_verify(program, givens, shared_puzzles):
    require_program(program)
    backend = get_backend(f"external:{program}", givens=givens)
    puzzles = [INKALA] + read_puzzles(str(shared_puzzles / "norvig_top95.txt"))[:3]
    for puzzle in puzzles:
        result = backend.solve(puzzle)
        assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
        assert result.backend == f"external:{program}"


@pytest.mark.parametrize("program", ["minisat", "cadical"])
def test_real_solvers_find_no_solution(program):
    require_program(program)
    assert get_backend(f"external:{program}").solve(DEAD).status is Status.NO_SOLUTION


def test_program_by_path():
    path = require_program("cadical")
    backend = get_backend(f"external:{path}", encoding="minimal", amo="ladder")
    result = backend.solve(INKALA)
    assert is_solution(result.grid, INKALA) and backend.program == path


def test_enumeration_by_repeated_calls_counts_288():
    require_program("cadical")
    grids = list(get_backend("external:cadical").solutions(Puzzle.empty(Geometry(2, 2))))
    assert len(grids) == 288 == len(set(grids))
    assert all(is_solution(g, Puzzle.empty(Geometry(2, 2))) for g in grids)


def test_enumeration_with_givens_and_a_limit():
    require_program("minisat")
    puzzle = parse_puzzle("12..\n....\n....\n....")
    backend = get_backend("external:minisat", amo="seqcounter")
    assert backend.count(puzzle) == 288 // 12  # the first row's first two cells fixed: 288 / (4*3)
    assert len(list(backend.solutions(puzzle, 5))) == 5


def test_missing_program_is_backend_unavailable():
    with pytest.raises(BackendUnavailable, match="not installed"):
        get_backend("external:no-such-solver-xyz")
    with pytest.raises(BackendUnavailable, match="no such file"):
        get_backend("external:/nonexistent/solver")


def test_missing_program_on_the_command_line_is_one_line_exit_2():
    done = subprocess.run([sys.executable, "-m", "satdoku", "solve", str(PUZZLES / "inkala.txt"),
                           "--backend", "external:no-such-solver-xyz"], capture_output=True, text=True,
                          cwd=REPO, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "no-such-solver-xyz" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_native_at_most_one_is_refused():
    require_program("minisat")
    with pytest.raises(InputError, match="native"):
        ExternalBackend("minisat", amo="native")


def test_a_solver_printing_sat_competition_lines(tmp_path):
    # prints the model of the 4x4 grid 1234/3412/2143/4321 via s/v lines, exit 10
    grid = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    lits = [v if grid[(v - 1) // 4] == (v - 1) % 4 + 1 else -v for v in range(1, 65)]
    body = f"echo 'c fake'\necho 's SATISFIABLE'\necho 'v {' '.join(map(str, lits[:30]))}'\n" \
           f"echo 'v {' '.join(map(str, lits[30:]))} 0'\nexit 10"
    program = fake_solver(tmp_path, "fakesat", body)
    puzzle = Puzzle.empty(Geometry(2, 2))
    result = ExternalBackend(program, givens="units").solve(puzzle)
    assert result.status is Status.SOLVED and result.grid == tuple(grid) and is_solution(result.grid, puzzle)


def test_exit_code_20_without_output_is_unsat(tmp_path):
    program = fake_solver(tmp_path, "fakeunsat", "exit 20")
    assert ExternalBackend(program).solve(INKALA).status is Status.NO_SOLUTION


def test_a_minisat_style_program_gets_a_result_file(tmp_path):
    program = fake_solver(tmp_path, "minisat-fake", 'echo "UNSAT" > "$2"\nexit 20')
    assert writes_result_file(program)
    assert ExternalBackend(program).solve(INKALA).status is Status.NO_SOLUTION


def test_a_crashing_program_is_a_solver_error(tmp_path):
    program = fake_solver(tmp_path, "crash", "echo 'segmentation fault' >&2\nexit 139")
    with pytest.raises(SolverError, match="exited with code 139.*segmentation fault"):
        ExternalBackend(program).solve(INKALA)


def test_exit_code_and_answer_must_agree(tmp_path):
    program = fake_solver(tmp_path, "liar", "echo 's UNSATISFIABLE'\nexit 10")
    with pytest.raises(SolverError, match="code 10 but answered UNSAT"):
        ExternalBackend(program).solve(INKALA)


def test_time_limit_kills_the_program(tmp_path):
    program = fake_solver(tmp_path, "sleeper", "exec sleep 30")
    start = time.perf_counter()
    result = ExternalBackend(program).solve(INKALA, time_limit=0.5)
    assert result.status is Status.UNKNOWN
    assert time.perf_counter() - start < 10


def test_paths_with_spaces_and_quotes_need_no_shell(tmp_path):
    folder = tmp_path / "my 'odd' solvers; rm -rf"
    folder.mkdir()
    program = fake_solver(folder, "fake unsat", "exit 20")
    assert locate(program) == program
    assert ExternalBackend(program).solve(INKALA).status is Status.NO_SOLUTION
    assert folder.is_dir()


def test_engines_lists_installed_programs():
    found = ExternalBackend.engines()
    for program in ("minisat", "cadical"):
        assert (program in found) == bool(__import__("shutil").which(program))


def test_cli_solve_with_external_backend(capsys):
    require_program("minisat")
    from satdoku.cli import main
    assert main(["solve", str(PUZZLES / "inkala.txt"), "--backend", "external:minisat", "--encoding", "minimal"]) == 0
    assert capsys.readouterr().out.strip().startswith("812753649")


def test_not_executable_file(tmp_path):
    path = tmp_path / "plain.txt"
    path.write_text("hi")
    os.chmod(path, 0o644)
    with pytest.raises(BackendUnavailable, match="not executable"):
        ExternalBackend(str(path))
