"""ILP through PuLP (CBC, HiGHS): every geometry, no-good enumeration, exports read by GLPK, and CP-SAT
and HiGHS side by side in one process."""
from __future__ import annotations

import builtins
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("pulp")

from satdoku.backends import ilp as ilp_backend  # noqa: E402
from satdoku.backends.base import Status  # noqa: E402
from satdoku.backends.registry import get_backend  # noqa: E402
from satdoku.cli import main  # noqa: E402
from satdoku.deadline import Deadline  # noqa: E402
from satdoku.encoders import ilp as ilp_encoder  # noqa: E402
from satdoku.errors import BackendUnavailable, InputError  # noqa: E402
from satdoku.models.formats import parse_puzzles, read_puzzles  # noqa: E402
from satdoku.models.geometry import Geometry  # noqa: E402
from satdoku.models.matrix import exact_cover  # noqa: E402
from satdoku.models.puzzle import Puzzle  # noqa: E402
from satdoku.models.verify import is_solution  # noqa: E402
from tests.conftest import GEOMETRY_PUZZLES, PUZZLES, REPO, bundled, six_by_six_with_19_solutions  # noqa: E402

ENGINES = ["ilp:cbc", "ilp:highs"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name,box", GEOMETRY_PUZZLES)
def test_every_geometry_solves(engine, name, box):
    puzzle = bundled(name, box)
    backend = get_backend(engine)
    result = backend.solve(puzzle)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    assert result.backend == engine


@pytest.mark.parametrize("engine", ENGINES)
def test_reused_problem_and_fresh_problem_agree(engine, shared_puzzles):
    puzzles = read_puzzles(str(shared_puzzles / "norvig_top95.txt"), None)[:6]
    backend = get_backend(engine)
    results = list(backend.solve_many(puzzles))
    assert all(r.solved and is_solution(r.grid, p) for r, p in zip(results, puzzles))
    fresh = [backend.run(ilp_encoder.encode(p), Deadline())[1] for p in puzzles]  # a problem per puzzle
    assert fresh == [r.grid for r in results]
    model = backend.reused_model(puzzles[0].geometry)
    assert all(v.lowBound == 0 for v in model.variables)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_empty_4x4_enumerates_to_288_distinct_verified_grids(engine):
    empty = Puzzle.empty(Geometry(2, 2))
    grids = list(get_backend(engine).solutions(empty))
    assert len(grids) == 288 and len(set(grids)) == 288
    assert all(is_solution(g, empty) for g in grids)


@pytest.mark.parametrize("engine", ENGINES)
def test_count_and_limit_agree_with_pysat(engine):
    puzzle = six_by_six_with_19_solutions()
    assert get_backend("pysat").count(puzzle) == 19
    backend = get_backend(engine)
    grids = list(backend.solutions(puzzle))
    assert len(grids) == len(set(grids)) == 19
    assert all(is_solution(g, puzzle) for g in grids)
    assert backend.count(puzzle, limit=4) == 4


def test_no_good_cut_is_sum_of_placements():
    model = ilp_encoder.encode_matrix(Geometry(2, 2))
    grid = (1, 2, 3, 4, 3, 4, 1, 2, 2, 3, 4, 1, 4, 1, 2, 3)
    model.add_no_good(grid)
    cut = model.problem.get_constraint_by_name("no_good_1")
    assert cut.constant == -15 and set(cut.values()) == {1}
    names = {v.name for v in cut}
    assert names == {f"r{i // 4 + 1}c{i % 4 + 1}d{v}" for i, v in enumerate(grid)}


def test_split_keeps_each_grid_cut_in_its_own_part():
    puzzle = Puzzle.empty(Geometry(2, 2))
    grids = list(get_backend("pysat").solutions(puzzle, 10))
    part = ilp_backend.Subproblem((), list(grids))
    parts = part.split(0, ilp_backend.cell_candidates(puzzle), 4)
    assert [p.fixed for p in parts] == [(0,), (1,), (2,), (3,)]
    assert sorted(g for p in parts for g in p.cuts) == sorted(grids)
    assert all(g[0] == d + 1 for d, p in enumerate(parts) for g in p.cuts)


@pytest.mark.parametrize("engine", ENGINES)
def test_no_solution(engine):
    backend = get_backend(engine)
    clash = Puzzle(Geometry(2, 2), (1, 1) + (0,) * 14)
    unsolvable = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 0, 3], [0, 0, 3, 0], [0, 0, 0, 0]])
    assert get_backend("pysat").count(unsolvable) == 0
    for puzzle in (clash, unsolvable):
        assert backend.solve(puzzle).status is Status.NO_SOLUTION
        assert list(backend.solutions(puzzle)) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_time_limit_gives_unknown_not_no_solution(engine):
    # CBC answers "LP relaxation infeasible" when stopped in the root LP: that must read as unknown
    result = get_backend(engine).solve(Puzzle.empty(Geometry(5, 5)), time_limit=0.02)
    assert result.status is Status.UNKNOWN and result.grid is None


def test_unknown_engine_and_options():
    with pytest.raises(BackendUnavailable, match="choose from cbc, highs"):
        get_backend("ilp:gurobi")
    with pytest.raises(BackendUnavailable, match="takes no option --workers"):
        get_backend("ilp:highs", workers=2)


def test_missing_highspy_names_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "highspy", None)  # import highspy -> ModuleNotFoundError
    with pytest.raises(BackendUnavailable, match=r"pip install 'highspy>=1\.16"):
        get_backend("ilp:highs")


def test_clashing_highspy_build_is_explained(monkeypatch):
    real_import = builtins.__import__

    def broken(name, *args, **kwargs):
        if name == "highspy":
            raise ImportError("_core.so: undefined symbol: _ZN5Highs13releaseMemoryEv")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "highspy", raising=False)
    monkeypatch.setattr(builtins, "__import__", broken)
    with pytest.raises(BackendUnavailable, match="undefined symbol.*clash.*highspy>=1.16"):
        get_backend("ilp:highs")


def test_missing_cbc_names_the_package(monkeypatch):
    monkeypatch.setattr(ilp_encoder.pulp.PULP_CBC_CMD, "available", lambda self: False)
    monkeypatch.setattr(ilp_encoder.pulp.COIN_CMD, "available", lambda self: False)
    with pytest.raises(BackendUnavailable, match="pip install --force-reinstall 'pulp"):
        get_backend("ilp:cbc")


def test_cli_missing_highspy_is_one_line_exit_2():
    code = textwrap.dedent(f"""
        import sys
        sys.modules["highspy"] = None
        from satdoku.cli import main
        sys.exit(main(["solve", {str(PUZZLES / "example_4x4.txt")!r}, "--backend", "ilp:highs"]))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("satdoku: ") and "pip install 'highspy" in done.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_cli_all_on_8x8_4x2_and_no_banner(engine):
    done = subprocess.run([sys.executable, "-m", "satdoku", "solve", str(PUZZLES / "8x8_box4x2.txt"),
                           "--box", "4x2", "--backend", engine, "--all"], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    puzzle = bundled("8x8_box4x2.txt", "4x2")
    found = parse_puzzles(done.stdout, puzzle.geometry)  # HiGHS's banner would break this parse
    assert len(found) == 1 and is_solution(found[0].cells, puzzle)
    assert done.stdout.count("\n") == 1


# ---- CP-SAT and HiGHS in one process: ortools 9.15 + highspy 1.15.1 crashed with undefined symbols

BOTH_IN_ONE_PROCESS = """
import sys
from satdoku.backends.registry import get_backend
from satdoku.models.formats import read_puzzles
from satdoku.models.verify import is_solution
puzzle = read_puzzles({path!r}, None)[0]
grids = []
for name in {order!r}:
    result = get_backend(name).solve(puzzle)
    assert result.solved and is_solution(result.grid, puzzle), (name, result)
    grids.append(result.grid)
assert len(set(grids)) == 1
print("ok", *{order!r})
"""


@pytest.mark.parametrize("order", [["cpsat", "ilp:highs", "ilp:cbc"], ["ilp:highs", "cpsat", "ilp:cbc"]])
def test_cpsat_and_highs_in_one_process_either_order(order):
    pytest.importorskip("ortools")
    pytest.importorskip("highspy")
    code = BOTH_IN_ONE_PROCESS.format(path=str(PUZZLES / "inkala.txt"), order=order)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == "ok " + " ".join(order) + "\n"  # also: no HiGHS banner on stdout


def test_cpsat_and_highs_in_one_command(capsys):
    """One CLI process solving through CP-SAT and HiGHS in turn (what `satdoku compare` needs)."""
    pytest.importorskip("ortools")
    puzzle_file = str(PUZZLES / "16x16_box4x4.txt")
    puzzle = bundled("16x16_box4x4.txt")
    outputs = []
    for backend in ("ilp:highs", "cpsat", "ilp:highs"):
        assert main(["solve", puzzle_file, "--backend", backend]) == 0
        outputs.append(capsys.readouterr().out)
    assert len(set(outputs)) == 1
    found = parse_puzzles(outputs[0], puzzle.geometry)
    assert len(found) == 1 and is_solution(found[0].cells, puzzle)


# ---- exports read and solved by GLPK (Debian's glpk-utils)

def glpsol() -> str:
    """The glpsol program; in CI (env CI set) its absence is a failure, elsewhere a skip."""
    path = shutil.which("glpsol")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("glpsol is missing: CI must install Debian's glpk-utils (scripts/test.sh does)")
        pytest.skip("glpsol is not installed (apt install glpk-utils)")
    return path


def glpsol_columns(report: str) -> dict[str, float]:
    """Column name -> activity from glpsol's printable report (-o); long names wrap to a new line."""
    assert "INTEGER OPTIMAL" in report, report[:500]
    section = report.split("Column name", 1)[1].split("\n", 2)[2]
    values: dict[str, float] = {}
    pending = None
    for line in section.splitlines():
        if not line.strip() or line.startswith("Integer feasibility"):
            break
        head = re.match(r"\s*\d+\s+(\S+)\s*(.*)$", line)
        if head and pending is None:
            name, rest = head.groups()
            if not rest:
                pending = name
                continue
        else:
            name, rest = pending, line
            pending = None
        values[name] = float(rest.replace("*", " ").split()[0])
    return values


def grid_from_columns(values: dict[str, float], n: int) -> tuple[int, ...]:
    """Decode by the rRcCdD column names and the matrix numbering, independently of the encoder."""
    matrix = exact_cover(Geometry(*_box_of(n)))
    options = []
    for name, value in values.items():
        found = re.fullmatch(r"r(\d+)c(\d+)d(\d+)", name)
        if found and value > 0.5:
            r, c, d = (int(g) - 1 for g in found.groups())
            options.append(matrix.option(r, c, d))
    assert len(options) == n * n
    return matrix.grid(options)


def _box_of(n: int) -> tuple[int, int]:
    return {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 12: (3, 4), 16: (4, 4)}[n]


@pytest.mark.parametrize("kind,flag", [("lp", "--lp"), ("mps", "--freemps")])
@pytest.mark.parametrize("name,box", [("example_4x4.txt", None), ("6x6_box2x3.txt", None),
                                      ("8x8_box4x2.txt", "4x2"), ("inkala.txt", None)])
def test_export_is_solved_by_glpsol(tmp_path, kind, flag, name, box):
    program = glpsol()
    puzzle = bundled(name, box)
    model_file, report_file = tmp_path / f"model.{kind}", tmp_path / "report.txt"
    ilp_encoder.export_model(puzzle, str(model_file), kind)
    done = subprocess.run([program, flag, str(model_file), "-o", str(report_file)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-1000:]
    grid = grid_from_columns(glpsol_columns(report_file.read_text()), puzzle.n)
    assert is_solution(grid, puzzle)


def test_export_command_lp_and_mps_read_by_glpsol(tmp_path):
    program = glpsol()
    puzzle = bundled("euler96_grid01.txt")
    for kind, flag in (("lp", "--lp"), ("mps", "--freemps")):
        target = tmp_path / f"euler.{kind}"
        done = subprocess.run([sys.executable, "-m", "satdoku", "export", str(PUZZLES / "euler96_grid01.txt"),
                               "--to", kind, "-o", str(target)], capture_output=True, text=True, cwd=REPO)
        assert done.returncode == 0, done.stderr
        report = tmp_path / f"{kind}.out"
        subprocess.run([program, flag, str(target), "-o", str(report)], capture_output=True, check=True, timeout=120)
        assert is_solution(grid_from_columns(glpsol_columns(report.read_text()), 9), puzzle)


def test_glpsol_finds_an_unsolvable_export_infeasible(tmp_path):
    program = glpsol()
    unsolvable = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 0, 3], [0, 0, 3, 0], [0, 0, 0, 0]])
    ilp_encoder.export_model(unsolvable, str(tmp_path / "u.lp"), "lp")
    done = subprocess.run([program, "--lp", str(tmp_path / "u.lp"), "-o", str(tmp_path / "u.out")],
                          capture_output=True, text=True, timeout=60)
    assert "NO PRIMAL FEASIBLE SOLUTION" in done.stdout or "INTEGER EMPTY" in (tmp_path / "u.out").read_text()


def test_export_names_rows_after_items_and_fixes_givens(tmp_path):
    puzzle = bundled("example_4x4.txt")
    ilp_encoder.export_model(puzzle, str(tmp_path / "m.lp"), "lp")
    text = (tmp_path / "m.lp").read_text()
    assert "cell_r1c1: r1c1d1 + r1c1d2 + r1c1d3 + r1c1d4 = 1" in text
    assert "row_2_digit_2:" in text and "box_4_digit_4:" in text
    assert re.search(r"^\s*r1c1d1 = 1\s*$", text, re.M)  # the given 1 in r1c1
    assert len(re.findall(r"^\S+: .* = 1$", text, re.M)) == 64


def test_export_bad_kind_and_missing_folder(tmp_path):
    puzzle = bundled("example_4x4.txt")
    with pytest.raises(InputError, match="choose lp or mps"):
        ilp_encoder.export_model(puzzle, str(tmp_path / "m.txt"), "xlsx")
    with pytest.raises(InputError, match="does not exist"):
        ilp_encoder.export_model(puzzle, str(tmp_path / "no" / "m.lp"), "lp")
    assert list(tmp_path.iterdir()) == []


def test_export_to_stdout(capsysbinary):
    ilp_encoder.export_model(bundled("example_4x4.txt"), "-", "mps")
    out = capsysbinary.readouterr().out.decode()
    assert out.splitlines()[1].startswith("NAME") and out.rstrip().endswith("ENDATA")


@pytest.mark.parametrize("backends", ["cpsat,ilp:highs,ilp:cbc", "ilp:highs,cpsat"])
def test_compare_runs_cpsat_and_highs_in_one_command(backends):
    """`satdoku compare` (one process) with CP-SAT and HiGHS, in either order: both solve, they agree."""
    pytest.importorskip("ortools")
    import json
    done = subprocess.run([sys.executable, "-m", "satdoku", "compare", str(PUZZLES / "16x16_box4x4.txt"),
                           "--backends", backends, "--format", "json"], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)  # a HiGHS banner on stdout would break this
    rows = {row["backend"]: row for row in report["backends"]}
    assert list(rows) == backends.split(",")
    assert all(row["solved"] == 1 and row["disagreements"] == 0 for row in rows.values())
