"""CP-SAT: the matrix as a CpModel, solving every geometry, native enumeration and its guard, exports."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ortools")

from google.protobuf import text_format  # noqa: E402
from ortools.sat import cp_model_pb2  # noqa: E402
from ortools.sat.python import cp_model  # noqa: E402

from satdoku.backends.base import Status  # noqa: E402
from satdoku.backends.registry import get_backend  # noqa: E402
from satdoku.cli import main  # noqa: E402
from satdoku.encoders import cpsat as cpsat_encoder  # noqa: E402
from satdoku.errors import BackendUnavailable, InputError, SolverError  # noqa: E402
from satdoku.models.formats import format_line, parse_puzzles, read_puzzles  # noqa: E402
from satdoku.models.geometry import Geometry, parse_box  # noqa: E402
from satdoku.models.matrix import exact_cover  # noqa: E402
from satdoku.models.puzzle import Puzzle  # noqa: E402
from satdoku.models.verify import is_solution  # noqa: E402
from tests.conftest import GEOMETRY_PUZZLES, PUZZLES, REPO, bundled, six_by_six_with_19_solutions  # noqa: E402


def solve_fresh(puzzle: Puzzle):
    """Status and grid from a model built for this puzzle alone (the baseline the reused model beats)."""
    from satdoku.backends.cpsat import make_solver, run_model
    return run_model(make_solver(1), cpsat_encoder.encode(puzzle, names=False))


@pytest.mark.parametrize("name,box", GEOMETRY_PUZZLES)
def test_every_geometry_solves_reused_and_fresh(name, box):
    puzzle = bundled(name, box)
    backend = get_backend("cpsat")
    reused = backend.solve(puzzle)
    fresh_status, fresh_grid = solve_fresh(puzzle)
    assert reused.status is Status.SOLVED and fresh_status is Status.SOLVED
    assert is_solution(reused.grid, puzzle) and is_solution(fresh_grid, puzzle)
    assert reused.grid == fresh_grid  # the puzzles have one solution each
    assert reused.backend == "cpsat"


def test_reused_model_is_left_clean_between_puzzles(shared_puzzles):
    puzzles = read_puzzles(str(shared_puzzles / "norvig_top95.txt"), None)[:30]
    backend = get_backend("cpsat")
    results = list(backend.solve_many(puzzles))
    assert len(results) == 30
    assert all(r.solved and is_solution(r.grid, p) for r, p in zip(results, puzzles))
    model = backend.reused_model(puzzles[0].geometry)
    assert all(list(v.domain) == [0, 1] for v in model.model.proto.variables)
    # after all those givens, the empty grid still solves on the same model
    empty = Puzzle.empty(puzzles[0].geometry)
    assert is_solution(backend.solve(empty).grid, empty)


def test_batch_of_mixed_geometries_and_workers():
    puzzles = [bundled(n, b) for n, b in GEOMETRY_PUZZLES[:4]] * 2
    results = list(get_backend("cpsat", workers=2).solve_many(puzzles, time_limit=30))
    assert all(r.solved and is_solution(r.grid, p) for r, p in zip(results, puzzles))
    assert results[0].stats["workers"] == 2


def test_empty_4x4_enumerates_to_288_distinct_verified_grids():
    empty = Puzzle.empty(Geometry(2, 2))
    grids = list(get_backend("cpsat").solutions(empty))
    assert len(grids) == 288
    assert len(set(grids)) == 288
    assert all(is_solution(g, empty) for g in grids)


def test_count_agrees_with_pysat():
    puzzle = six_by_six_with_19_solutions()
    assert get_backend("pysat").count(puzzle) == 19
    assert get_backend("cpsat").count(puzzle) == 19
    grids = list(get_backend("cpsat").solutions(puzzle))
    assert len(set(grids)) == 19 and all(is_solution(g, puzzle) for g in grids)


def test_limit_stops_early_on_a_huge_space():
    empty = Puzzle.empty(Geometry(3, 3))  # 6.67e21 grids: only stopping early can finish
    grids = list(get_backend("cpsat").solutions(empty, limit=7))
    assert len(grids) == 7 and len(set(grids)) == 7
    assert all(is_solution(g, empty) for g in grids)
    assert get_backend("cpsat").count(empty, limit=3) == 3


def test_closing_the_enumeration_early_stops_the_search():
    empty = Puzzle.empty(Geometry(3, 3))
    stream = get_backend("cpsat").solutions(empty)
    first = next(stream)
    second = next(stream)
    stream.close()  # must return: the search thread is stopped, not left running forever
    assert first != second and is_solution(first, empty) and is_solution(second, empty)


def test_guard_skips_repeated_grids(monkeypatch):
    """Native enumeration may report a solution twice (or-tools #4640): the guard drops repeats."""
    real_decode = cpsat_encoder.CpsatModel.decode
    calls = {"n": 0, "first": None}

    def repeating_decode(self, values):
        grid = real_decode(self, values)
        calls["n"] += 1
        if calls["n"] == 1:
            calls["first"] = grid
        elif calls["n"] in (5, 9):  # pretend the solver found the first grid again
            return calls["first"]
        return grid

    monkeypatch.setattr(cpsat_encoder.CpsatModel, "decode", repeating_decode)
    empty = Puzzle.empty(Geometry(2, 2))
    backend = get_backend("cpsat")
    grids = list(backend.solutions(empty))
    assert len(grids) == len(set(grids)) == 286  # two real grids were masked by the fake repeats
    assert backend.skipped_repeats == 2
    assert all(is_solution(g, empty) for g in grids)


def test_guard_rejects_a_wrong_grid(monkeypatch, capsys, tmp_path):
    """The library layer (satdoku.verified) catches what the encoder got wrong: the command exits 4."""
    from satdoku.verified import verified_solutions
    monkeypatch.setattr(cpsat_encoder.CpsatModel, "decode", lambda self, values: (1,) * 16)
    with pytest.raises(SolverError, match="wrong grid"):
        verified_solutions(get_backend("cpsat"), Puzzle.empty(Geometry(2, 2)))
    path = tmp_path / "empty.txt"
    path.write_text("." * 16 + "\n")
    assert main(["solve", str(path), "-b", "cpsat", "--all"]) == 4
    captured = capsys.readouterr()
    assert captured.out == "" and "wrong grid" in captured.err


def test_no_solution():
    clash = Puzzle(Geometry(2, 2), (1, 1) + (0,) * 14)  # two 1s in row 1: built directly, past the parser
    backend = get_backend("cpsat")
    assert backend.solve(clash).status is Status.NO_SOLUTION
    assert solve_fresh(clash)[0] is Status.NO_SOLUTION
    assert list(backend.solutions(clash)) == []
    unsolvable = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 0, 3], [0, 0, 3, 0], [0, 0, 0, 0]])  # no 3 fits row 1
    assert get_backend("pysat").count(unsolvable) == 0
    assert backend.solve(unsolvable).status is Status.NO_SOLUTION
    assert backend.count(unsolvable) == 0


def test_time_limit_gives_unknown():
    big = Puzzle.empty(Geometry(6, 6))  # 36x36: far more than 1 ms of work
    result = get_backend("cpsat").solve(big, time_limit=0.001)
    assert result.status is Status.UNKNOWN and result.grid is None


def test_bad_options_and_engines():
    with pytest.raises(BackendUnavailable, match="no engine"):
        get_backend("cpsat:fast")
    with pytest.raises(InputError, match="workers"):
        get_backend("cpsat", workers=0)
    with pytest.raises(BackendUnavailable, match="takes no option --encoding"):
        get_backend("cpsat", encoding="minimal")


def test_model_is_the_matrix():
    geometry = parse_box("2x4")
    model = cpsat_encoder.encode_matrix(geometry)
    matrix = exact_cover(geometry)
    constraints = model.model.proto.constraints
    assert len(model.variables) == matrix.n_options
    assert len(constraints) == matrix.n_items
    for item, constraint in enumerate(constraints):
        assert sorted(constraint.exactly_one.literals) == sorted(matrix.item_options[item].tolist())


def grid_from_named_solution(proto: cp_model_pb2.CpModelProto, values, n: int) -> tuple[int, ...]:
    """Decode by the variable names in the file (rRcCdD), independently of the encoder."""
    cells = [0] * (n * n)
    for variable, value in zip(proto.variables, values):
        if value:
            r, c, d = map(int, re.fullmatch(r"r(\d+)c(\d+)d(\d+)", variable.name).groups())
            assert cells[(r - 1) * n + c - 1] == 0
            cells[(r - 1) * n + c - 1] = d
    return tuple(cells)


def read_back_and_solve(path: Path, puzzle: Puzzle) -> tuple[int, ...]:
    """Parse an exported model with OR-Tools' protobuf classes, solve it with default settings."""
    if path.suffix == ".pb":
        proto = cp_model_pb2.CpModelProto.FromString(path.read_bytes())
    else:
        proto = text_format.Parse(path.read_text(), cp_model_pb2.CpModelProto())
    n = puzzle.n
    assert len(proto.variables) == n ** 3
    assert len(proto.constraints) == 4 * n * n
    assert all(c.WhichOneof("constraint") == "exactly_one" for c in proto.constraints)
    fixed = sum(1 for v in proto.variables if list(v.domain) == [1, 1])
    assert fixed == puzzle.n_givens
    model = cp_model.CpModel()
    model.proto.parse_text_format(text_format.MessageToString(proto))
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL
    return grid_from_named_solution(proto, solver.response_proto.solution, n)


@pytest.mark.parametrize("suffix", [".pbtxt", ".pb"])
@pytest.mark.parametrize("name,box", [("inkala.txt", None), ("8x8_box4x2.txt", "4x2"), ("12x12_box3x4.txt", None)])
def test_export_is_read_back_by_ortools_and_solves(tmp_path, suffix, name, box):
    puzzle = bundled(name, box)
    target = tmp_path / f"model{suffix}"
    cpsat_encoder.export_model(puzzle, str(target))
    grid = read_back_and_solve(target, puzzle)
    assert is_solution(grid, puzzle)
    text = target.read_bytes()
    assert (b"exactly_one" in text) == (suffix == ".pbtxt")


def test_export_command_writes_text_and_binary(tmp_path):
    text_file, binary_file = tmp_path / "inkala.pbtxt", tmp_path / "inkala.pb"
    puzzle_file = str(PUZZLES / "inkala.txt")
    for target in (text_file, binary_file):
        done = subprocess.run([sys.executable, "-m", "satdoku", "export", puzzle_file, "--to", "cpsat",
                               "-o", str(target)], capture_output=True, text=True, cwd=REPO)
        assert done.returncode == 0, done.stderr
    puzzle = bundled("inkala.txt")
    grid = read_back_and_solve(text_file, puzzle)
    assert is_solution(grid, puzzle) and grid == read_back_and_solve(binary_file, puzzle)


def test_export_to_stdout_and_gz(tmp_path, capsysbinary):
    puzzle = bundled("example_4x4.txt")
    cpsat_encoder.export_model(puzzle, "-")
    out = capsysbinary.readouterr().out
    proto = text_format.Parse(out.decode(), cp_model_pb2.CpModelProto())
    assert len(proto.variables) == 64
    import gzip
    cpsat_encoder.export_model(puzzle, str(tmp_path / "m.pb.gz"))
    assert cp_model_pb2.CpModelProto.FromString(gzip.decompress((tmp_path / "m.pb.gz").read_bytes())) == proto


def test_export_into_a_missing_folder_leaves_nothing(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        cpsat_encoder.export_model(bundled("example_4x4.txt"), str(tmp_path / "no" / "m.pbtxt"))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name,box", [("8x8_box4x2.txt", "4x2"), ("16x16_box4x4.txt", None)])
def test_cli_solve_and_all(name, box, capsys):
    args = ["solve", str(PUZZLES / name), "--backend", "cpsat", "--all"] + (["--box", box] if box else [])
    assert main(args) == 0
    puzzle = bundled(name, box)
    found = parse_puzzles(capsys.readouterr().out, puzzle.geometry)
    assert len(found) == 1  # one solution, and --all proves there is no other
    assert is_solution(found[0].cells, puzzle)


def test_cli_limit_counts_and_bad_workers(capsys):
    puzzle = six_by_six_with_19_solutions()
    source = format_line(puzzle.cells, puzzle)
    import io
    sys_stdin = sys.stdin
    try:
        sys.stdin = io.StringIO(source + "\n")
        assert main(["solve", "-", "--backend", "cpsat", "--limit", "5"]) == 0
    finally:
        sys.stdin = sys_stdin
    found = [p.cells for p in parse_puzzles(capsys.readouterr().out, puzzle.geometry)]
    assert len(found) == len(set(found)) == 5
    assert all(is_solution(cells, puzzle) for cells in found)
    done = subprocess.run([sys.executable, "-m", "satdoku", "solve", str(PUZZLES / "example_4x4.txt"),
                           "--backend", "cpsat:turbo"], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("satdoku: ") and "turbo" in done.stderr


@pytest.mark.parametrize("command", [["solve", "--backend", "cpsat"], ["export", "--to", "cpsat"]])
def test_missing_ortools_is_one_line_naming_the_package(command):
    code = ("import sys\nsys.modules['ortools'] = None\nfrom satdoku.cli import main\n"
            f"sys.exit(main({command[:1] + [str(PUZZLES / 'example_4x4.txt')] + command[1:]!r}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "pip install 'ortools>=9.15.6755,<9.16'" in done.stderr
